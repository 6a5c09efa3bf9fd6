/**
 * `/zones/{zone_id}/custom_certificates`: uploaded certificates (SDK `client.customCertificates.*`,
 * object `CustomCertificate`; docs ssl/edge-certificates/custom-certificates).
 *
 * Emulates: list (`status`, `match`, page-based), upload, get, PATCH, DELETE (`{id}`). The
 * uploaded PEM is parsed for real (`zone/certificates/x509.ts`): `hosts` are its SANs, `issuer`,
 * `signature`, `expires_on` come from it; the private key must be the certificate's (proved with
 * a signature), then is dropped. `bundle_method` `ubiquitous` (compatible, the default),
 * `optimal` (modern), `force` (user-defined), `type` `sni_custom` (default) or `legacy_custom`,
 * `geo_restrictions.label`, `policy` (answered as `policy_restrictions`, as the SDK says).
 * Errors, with the codes Cloudflare documents (custom certificates troubleshooting): 1002
 * invalid certificate (and unknown id; also a validity time off the calendar, a public key
 * WebCrypto refuses), 2100 a root in the bundle, 2101 no leaf, 2103 no host of the zone, 2106
 * invalid private key (also an RSA key under 2048 bits), 2200 key and certificate not a pair, 1220 uploaded before,
 * 1212 quota; other fields 1475 (edgezone's). Nothing is stored on any error.
 * Gaps: no CSRs (`custom_csr_id` is refused), no staging deploy, no keyless servers, no
 * `prioritize`. A PATCH with a new certificate needs its `private_key` too: edgezone keeps no key
 * to check the certificate against.
 */
import type {
	CustomCertificate,
	CustomCertificateDeleteResponse,
} from "cloudflare/resources/custom-certificates/custom-certificates";
import { Hono } from "hono";
import { z } from "zod";
import type { CustomCertificateInput } from "../zone/certificates/store";
import { checkKeyPair, type ParsedBundle, parseBundle } from "../zone/certificates/x509";
import { CODES } from "../zone/failure";
import { UUID, zoneRef } from "./certificate-packs";
import { ok } from "./envelope";
import { ApiError, unwrap } from "./errors";
import { PAGE_QUERY, pageInfo } from "./pagination";
import { reads, writes } from "./permissions";
import type { ApiEnv } from "./types";
import { parseBody, parseOptionalBody, parseParam, parseQuery } from "./validate";

const CODE = CODES.customCertificateInvalid;
const PEM_MAX = 65_536;

const refused = (message: string) =>
	z
		.unknown()
		.refine((v) => v === undefined, message)
		.optional();

const FIELDS = {
	certificate: z.string().min(1).max(PEM_MAX),
	private_key: z.string().min(1).max(PEM_MAX),
	bundle_method: z.enum(["ubiquitous", "optimal", "force"]),
	type: z.enum(["legacy_custom", "sni_custom"]),
	geo_restrictions: z.strictObject({ label: z.enum(["us", "eu", "highest_security"]) }),
	policy: z.string().max(1024),
	deploy: z.literal("production", { error: 'deploy must be "production": edgezone has no staging environment' }),
	custom_csr_id: refused("custom_csr_id is not supported: edgezone keeps no CSRs; send private_key"),
};

const CREATE = z.strictObject({
	certificate: FIELDS.certificate,
	private_key: FIELDS.private_key,
	bundle_method: FIELDS.bundle_method.optional(),
	type: FIELDS.type.optional(),
	geo_restrictions: FIELDS.geo_restrictions.optional(),
	policy: FIELDS.policy.optional(),
	policy_restrictions: FIELDS.policy.optional(),
	deploy: FIELDS.deploy.optional(),
	custom_csr_id: FIELDS.custom_csr_id,
});

const EDIT = z
	.strictObject({
		certificate: FIELDS.certificate.optional(),
		private_key: FIELDS.private_key.optional(),
		bundle_method: FIELDS.bundle_method.optional(),
		geo_restrictions: FIELDS.geo_restrictions.optional(),
		policy: FIELDS.policy.optional(),
		policy_restrictions: FIELDS.policy.optional(),
		deploy: FIELDS.deploy.optional(),
		custom_csr_id: FIELDS.custom_csr_id,
	})
	.refine((body) => (body.certificate === undefined) === (body.private_key === undefined), {
		message: "certificate and private_key go together: edgezone checks the key against the certificate",
		path: ["private_key"],
	});

const LIST = z.object({
	status: z.enum(["active", "expired", "deleted", "pending", "initializing"]).optional(),
	match: z.enum(["any", "all"]).optional(),
	...PAGE_QUERY,
});

/** Parses the certificate and checks the key against it; a refusal is a 400 at its field. */
async function checkedBundle(certificate: string, privateKey: string): Promise<ParsedBundle> {
	const parsed = await parseBundle(certificate);
	if (!parsed.ok) throw new ApiError(400, [{ ...parsed.refusal, source: { pointer: "/certificate" } }]);
	const refusal = await checkKeyPair(parsed.bundle.leaf, privateKey);
	if (refusal !== null) throw new ApiError(400, [{ ...refusal, source: { pointer: "/private_key" } }]);
	return parsed.bundle;
}

/** Routes under `/zones/{zone_id}/custom_certificates`. */
export const customCertificates = new Hono<ApiEnv>()
	.get("/", reads("SSL and Certificates"), async (c) => {
		const q = parseQuery(c, LIST, CODE);
		const all = unwrap(await c.var.zoneState.listCustomCertificates(zoneRef(c)));
		const shown = q.status === undefined ? all : all.filter((cert) => cert.status === q.status);
		const page = shown.slice((q.page - 1) * q.per_page, q.page * q.per_page);
		return ok(page satisfies CustomCertificate[], pageInfo(q.page, q.per_page, page.length, shown.length));
	})
	.post("/", writes("SSL and Certificates"), async (c) => {
		const body = await parseBody(c, CREATE, CODE);
		const input = {
			bundle: await checkedBundle(body.certificate, body.private_key),
			...(body.bundle_method === undefined ? {} : { bundle_method: body.bundle_method }),
			...(body.type === undefined ? {} : { type: body.type }),
			...(body.geo_restrictions === undefined ? {} : { geo_restrictions: body.geo_restrictions }),
			policy: body.policy ?? body.policy_restrictions ?? null,
		} satisfies CustomCertificateInput;
		return ok(unwrap(await c.var.zoneState.createCustomCertificate(zoneRef(c), input)) satisfies CustomCertificate);
	})
	.get("/:custom_certificate_id", reads("SSL and Certificates"), async (c) => {
		const id = parseParam(c, "custom_certificate_id", UUID);
		return ok(unwrap(await c.var.zoneState.getCustomCertificate(zoneRef(c), id)) satisfies CustomCertificate);
	})
	.patch("/:custom_certificate_id", writes("SSL and Certificates"), async (c) => {
		const id = parseParam(c, "custom_certificate_id", UUID);
		const body = await parseOptionalBody(c, EDIT, CODE);
		const policy = body.policy ?? body.policy_restrictions;
		const input: CustomCertificateInput = {
			...(body.certificate === undefined || body.private_key === undefined
				? {}
				: { bundle: await checkedBundle(body.certificate, body.private_key) }),
			...(body.bundle_method === undefined ? {} : { bundle_method: body.bundle_method }),
			...(body.geo_restrictions === undefined ? {} : { geo_restrictions: body.geo_restrictions }),
			...(policy === undefined ? {} : { policy }),
		};
		return ok(unwrap(await c.var.zoneState.editCustomCertificate(zoneRef(c), id, input)) satisfies CustomCertificate);
	})
	.delete("/:custom_certificate_id", writes("SSL and Certificates"), async (c) => {
		const id = parseParam(c, "custom_certificate_id", UUID);
		const deleted = unwrap(await c.var.zoneState.deleteCustomCertificate(zoneRef(c), id));
		return ok(deleted satisfies CustomCertificateDeleteResponse);
	});
