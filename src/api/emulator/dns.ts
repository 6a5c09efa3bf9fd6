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
 * Which is which: only names no zone of this edgezone holds (a SaaS customer's own DNS). A name a
 * zone holds (that zone's name is the name or its nearest parent, `zone-names.ts` `holdingZone`)
 * is answered from that zone's DNS records, `/zones/{zone_id}/dns_records`, which validation
 * reads instead (`zone/dns.ts`); a PUT of such a name is 400 9401 naming that route, so nobody
 * writes a record that would never be read (a DELETE still clears an entry written before the
 * zone existed). CAA records of such a name too: the DNS records hold the CAA type.
 * Errors: a bad name or body is 400 9400 naming the field; a name a zone holds, 400 9401.
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
 * Refuses, 400 9401, records of `name` when a zone holds it: that zone's DNS records answer for
 * it instead (see the header), the writing zone's own names included. The registry is read at once, not the edge's copy, so a zone created a moment ago
 * already answers for its names.
 */
async function refuseHeld(c: Context<ApiEnv>, name: string): Promise<void> {
	const holder = holdingZone(name, await zoneRegistry(c.env).zoneNames());
	if (holder === undefined) return;
	throw new ApiError(400, [
		{
			code: CODES.emulatorDnsHeldByZone,
			message: `${name} is in the zone ${holder.name}, whose DNS records answer for it: create its records with /zones/${holder.id}/dns_records (the emulator DNS answers only for names no zone holds)`,
			source: { pointer: "/name" },
		},
	]);
}

/** Routes under `/zones/{zone_id}/emulator/dns`. */
export const dns = new Hono<ApiEnv>()
	.get("/", reads("Zone"), async (c) => ok(unwrap(await c.var.zoneState.dnsEntries())))
	.get("/:name", reads("Zone"), async (c) => ok(unwrap(await c.var.zoneState.dnsEntry(nameOf(c)))))
	.put("/:name", writes("Zone"), async (c) => {
		const name = nameOf(c);
		const records = await parseBody(c, RECORDS, CODE);
		await refuseHeld(c, name);
		const entry = unwrap(await c.var.zoneState.putDnsEntry(name, records));
		forgetActiveHostnames(c.var.zone.id);
		return ok(entry);
	})
	.delete("/:name", writes("Zone"), async (c) => {
		const name = nameOf(c);
		const deleted = unwrap(await c.var.zoneState.deleteDnsEntry(name));
		forgetActiveHostnames(c.var.zone.id);
		return ok({ name, deleted });
	});
