/**
 * `/zones`: create, list, get, edit and delete zones (developers.cloudflare.com/api/resources/
 * zones/; SDK `client.zones.*`).
 *
 * Emulates: `POST /zones` (`name`, `account.id`, `type`), `GET /zones` (filters `name`
 * with the `contains:` / `starts_with:` / `ends_with:` forms, `status`, `account.id`,
 * `account.name`; page-based `result_info`, `result: []` past the last page),
 * `GET/PATCH/DELETE /zones/{zone_id}`. Only credentials reaching every zone may create
 * zones; lists show only the zones a credential may reach.
 * Gaps: no DNS, plans or name-server checks: zones are active at once.
 * Size limits (a longer value is a 400 1001 at its pointer): a zone name and each vanity name
 * server 253 characters (RFC 1035 §2.3.4: 255 octets on the wire; SDK `Zone.name`: "up to
 * 253 characters"); at most 5
 * vanity name servers (docs dns/nameservers/custom-nameservers: a set has "no more than five");
 * the `name` filter a name plus its operator prefix; `account.name` 256, edgezone's choice.
 * Worst case zone row: about 1 KB of fixed fields plus 6 names of 253 ASCII characters.
 */
import type { ZoneDeleteResponse, Zone as ZoneObject } from "cloudflare/resources/zones/zones";
import { Hono } from "hono";
import { z } from "zod";
import { zoneRegistry } from "../common/durable-objects";
import { forgetZoneNames } from "../edge/zone-names";
import { CODES } from "../zone/failure";
import { ok } from "./envelope";
import { forbidden, unwrap } from "./errors";
import { reads, writes } from "./permissions";
import type { ApiEnv } from "./types";
import { HEX_ID, parseBody, parseQuery } from "./validate";

// RFC 1035 §2.3.1 host names: dot-separated labels of letters, digits and inner hyphens.
const ZONE_NAME = z
	.string()
	.max(253)
	.transform((name) => name.toLowerCase())
	.pipe(
		z
			.string()
			.regex(
				/^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/,
				"must be a domain name such as example.com",
			),
	);
// A longest name after the longest operator prefix the filter knows (`nameFilter`, zone/registry.ts).
const NAME_FILTER_MAX = "starts_with:".length + 253;
const TYPE = z.enum(["full", "partial", "secondary", "internal"]);

const CREATE = z.strictObject({
	name: ZONE_NAME,
	account: z.strictObject({ id: HEX_ID.optional() }),
	type: TYPE.default("full"),
});

const EDIT = z.strictObject({
	paused: z.boolean().optional(),
	type: TYPE.optional(),
	vanity_name_servers: z.array(ZONE_NAME).max(5).optional(),
});

// The real list: page >= 1, per_page 5..50 (default 20); the SDK sends `account.id` with dots.
const LIST = z.object({
	name: z.string().min(1).max(NAME_FILTER_MAX).optional(),
	status: z.enum(["initializing", "pending", "active", "moved"]).optional(),
	"account.id": HEX_ID.optional(),
	"account.name": z.string().min(1).max(256).optional(),
	order: z.enum(["name", "status", "account.id", "account.name"]).default("name"),
	direction: z.enum(["asc", "desc"]).default("asc"),
	page: z.coerce.number().int().min(1).default(1),
	per_page: z.coerce.number().int().min(5).max(50).default(20),
});

/** Routes of `/zones` and `/zones/{zone_id}`; the zone routes run after `zoneAccess`. */
export const zones = new Hono<ApiEnv>()
	.get("/", reads("Zone"), async (c) => {
		const q = parseQuery(c, LIST, CODES.zoneInvalid);
		const { zones: page, total } = unwrap(
			await zoneRegistry(c.env).list({
				visible: c.var.caller.zones,
				name: q.name,
				status: q.status,
				accountId: q["account.id"],
				accountName: q["account.name"],
				order: q.order,
				direction: q.direction,
				page: q.page,
				perPage: q.per_page,
			}),
		);
		return ok(page satisfies ZoneObject[], {
			page: q.page,
			per_page: q.per_page,
			count: page.length,
			total_count: total,
			total_pages: Math.ceil(total / q.per_page),
		});
	})
	.post("/", writes("Zone"), async (c) => {
		// Beyond Zone Edit, creating needs a credential reaching every zone.
		if (c.var.caller.zones !== "*") throw forbidden();
		const body = await parseBody(c, CREATE, CODES.zoneInvalid);
		const zone = unwrap(
			await zoneRegistry(c.env).create({
				name: body.name,
				accountId: body.account.id ?? c.env.DEFAULT_ACCOUNT_ID,
				type: body.type,
			}),
		);
		forgetZoneNames();
		return ok(zone satisfies ZoneObject);
	})
	.get("/:zone_id", reads("Zone"), (c) => ok(c.var.zone satisfies ZoneObject))
	.patch("/:zone_id", writes("Zone"), async (c) => {
		const body = await parseBody(c, EDIT, CODES.zoneInvalid);
		return ok(unwrap(await zoneRegistry(c.env).edit(c.var.zone.id, body)) satisfies ZoneObject);
	})
	.delete("/:zone_id", writes("Zone"), async (c) => {
		const deleted = unwrap(await zoneRegistry(c.env).delete(c.var.zone.id));
		forgetZoneNames();
		// The registry no longer lists the zone; its state goes next. A failure here leaves
		// unreachable data only, because a zone id is never issued twice.
		await c.var.zoneState.destroy();
		return ok(deleted satisfies ZoneDeleteResponse);
	});
