/**
 * `/zones/{zone_id}/emulator/dns`: the zone's simulated DNS (`zone/dns.ts`), which custom
 * hostname validation reads. Not Cloudflare's: an edgezone route, listed in the README's
 * "Emulator-only routes".
 *
 * - `GET /` lists every name holding records: `[{name, caa, txt, http}]`.
 * - `GET /{name}` answers one name's records (empty lists when it has none).
 * - `PUT /{name}` replaces them: `{"caa": ["letsencrypt.org", {"tag": "issuewild", "value":
 *   "pki.goog"}], "txt": ["..."], "http": {"/.well-known/...": "body"}}`, each field optional
 *   (absent = none). A CAA string is an `issue` property; an object names its tag (`issue`,
 *   `issuewild`, `iodef`). `http` maps a path of the name's web server to the body it serves.
 * - `DELETE /{name}` removes every record of the name: `{name, deleted}`.
 * Names are DNS names (letters, digits, hyphens, underscores), lower-cased; the validation
 * names are `_acme-challenge.<hostname>` and `_cf-custom-hostname.<hostname>`.
 * Errors: a bad name or body is 400 9400 naming the field.
 */
import type { Context } from "hono";
import { Hono } from "hono";
import { z } from "zod";
import { dnsNameProblem } from "../../zone/custom-hostnames/names";
import { forgetActiveHostnames } from "../../zone/custom-hostnames/routing";
import { CODES } from "../../zone/failure";
import { ok } from "../envelope";
import { ApiError, unwrap } from "../errors";
import type { ApiEnv } from "../types";
import { parseBody } from "../validate";

const CODE = CODES.emulatorInvalid;

const CAA = z.union([
	z
		.string()
		.min(1)
		.max(255)
		.transform((value) => ({ tag: "issue", value })),
	z.strictObject({ tag: z.enum(["issue", "issuewild", "iodef"]), value: z.string().max(255) }),
]);

const RECORDS = z.strictObject({
	caa: z.array(CAA).max(20).default([]),
	txt: z.array(z.string().max(255)).max(20).default([]),
	http: z
		.record(
			z.string().regex(/^\/[\x21-\x7e]{0,1023}$/, "paths start with / and hold printable ASCII"),
			z.string().max(1024),
		)
		.refine((tokens) => Object.keys(tokens).length <= 20, "at most 20 HTTP tokens per name")
		.default({}),
});

/** The DNS name of the path, lower-cased; 400 9400 when it is not one. */
function nameOf(c: Context<ApiEnv>): string {
	const name = c.req.param("name") ?? "";
	const problem = dnsNameProblem(name);
	if (problem !== undefined)
		throw new ApiError(400, [{ code: CODE, message: `name ${problem}`, source: { pointer: "/name" } }]);
	return name.toLowerCase().replace(/\.$/, "");
}

/** Routes under `/zones/{zone_id}/emulator/dns`. */
export const dns = new Hono<ApiEnv>()
	.get("/", async (c) => ok(unwrap(await c.var.zoneState.dnsEntries())))
	.get("/:name", async (c) => ok(unwrap(await c.var.zoneState.dnsEntry(nameOf(c)))))
	.put("/:name", async (c) => {
		const name = nameOf(c);
		const records = await parseBody(c, RECORDS, CODE);
		const entry = unwrap(await c.var.zoneState.putDnsEntry(name, records));
		forgetActiveHostnames(c.var.zone.id);
		return ok(entry);
	})
	.delete("/:name", async (c) => {
		const name = nameOf(c);
		const deleted = unwrap(await c.var.zoneState.deleteDnsEntry(name));
		forgetActiveHostnames(c.var.zone.id);
		return ok({ name, deleted });
	});
