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
 * Authority: a name held by another zone of the emulator (that zone's name is the name or its
 * nearest parent, `zone-names.ts` `holdingZone`) is that zone's to answer, as the world's DNS
 * answers a name from the zone authoritative for it. PUT and DELETE of such a name need a
 * credential that reaches that zone too, else 403 10000 naming it (edgezone's rule; the code is
 * the API's "may not reach this zone"), and nothing is written. So a zone cannot prove ownership
 * of, or get a certificate for, another tenant's names. Names held by this zone or by none (a
 * customer's domain, not on the emulator) are the writing zone's, as before.
 * Errors: a bad name or body is 400 9400 naming the field.
 */
import type { Context } from "hono";
import { Hono } from "hono";
import { z } from "zod";
import { zoneRegistry } from "../../common/durable-objects";
import { forgetActiveHostnames } from "../../edge/custom-hostname-routing";
import { holdingZone } from "../../edge/zone-names";
import { dnsNameProblem } from "../../zone/custom-hostnames/names";
import { CODES } from "../../zone/failure";
import { ok } from "../envelope";
import { ApiError, unwrap } from "../errors";
import { reads, writes } from "../permissions";
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

/**
 * The DNS name of the path, once the caller may write it: 403 10000 when another zone holds the
 * name and the credential does not reach that zone (see the header). The registry is read at
 * once, not the edge's copy, so a zone created a moment ago is already authoritative.
 */
async function writableNameOf(c: Context<ApiEnv>): Promise<string> {
	const name = nameOf(c);
	const holder = holdingZone(name, await zoneRegistry(c.env).zoneNames());
	if (holder !== undefined && holder.id !== c.var.zone.id && !c.var.caller.canReach(holder.id))
		throw new ApiError(403, [
			{
				code: 10000,
				message: `${name} is in the zone ${holder.name}, which answers for it; this credential does not reach that zone, so it cannot write its records`,
				source: { pointer: "/name" },
			},
		]);
	return name;
}

/** Routes under `/zones/{zone_id}/emulator/dns`. */
export const dns = new Hono<ApiEnv>()
	.get("/", reads("Zone"), async (c) => ok(unwrap(await c.var.zoneState.dnsEntries())))
	.get("/:name", reads("Zone"), async (c) => ok(unwrap(await c.var.zoneState.dnsEntry(nameOf(c)))))
	.put("/:name", writes("Zone"), async (c) => {
		const name = await writableNameOf(c);
		const records = await parseBody(c, RECORDS, CODE);
		const entry = unwrap(await c.var.zoneState.putDnsEntry(name, records));
		forgetActiveHostnames(c.var.zone.id);
		return ok(entry);
	})
	.delete("/:name", writes("Zone"), async (c) => {
		const name = await writableNameOf(c);
		const deleted = unwrap(await c.var.zoneState.deleteDnsEntry(name));
		forgetActiveHostnames(c.var.zone.id);
		return ok({ name, deleted });
	});
