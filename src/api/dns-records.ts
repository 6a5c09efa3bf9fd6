/**
 * `/zones/{zone_id}/dns_records`: the zone's DNS records (developers.cloudflare.com/api/resources/
 * dns/subresources/records/; TS SDK `client.dns.records.list/create/get/edit/update/delete/batch`,
 * github.com/cloudflare/cloudflare-typescript `src/resources/dns/records.ts`).
 *
 * Emulates: list (filters `name` (the same as `name.exact`), `name.exact|contains|startswith|
 * endswith`, the same four of `content` and of `comment` with plain `content` and `comment` (the
 * OpenAPI schema: "convenience alias for `comment.exact`"), `comment.present|absent`, all
 * case-insensitive, as the SDK's `RecordListParams` documents them; `type`, `proxied`; the tag
 * filters (`tag` and `tag.present|absent|exact|contains|startswith|endswith`, combined by
 * `tag_match`) and `search` (`dns-record-checks.ts`); the shadowing filters, about NS records
 * edgezone does not store, are refused, 400 naming the parameter; `match` `all` (AND, the default) or `any`
 * (OR); `order` type|name|content|ttl|proxied, default `type`; `direction`; `page` from 1 and
 * `per_page` 1 to 5,000,000, default 100, as the OpenAPI schema bounds them, github.com/cloudflare/
 * api-schemas), create, get, PATCH, PUT, DELETE (answering `{id}` in the envelope, as the SDK's
 * `delete` unwraps it), `POST .../batch` (`deletes`, `patches`, `puts`, `posts`) and the zone
 * file's export and import (`dns-zone-file.ts`). The record's
 * semantics are the Zone's (`zone/dns-records.ts`, `zone/dns-record-checks.ts`); this module
 * checks shapes and bounds. Permissions: the "DNS" group (Read to read, Edit, the API's "DNS
 * Write", to write), the group the endpoints' API reference pages accept.
 * Bounds: `name` 255 characters (OpenAPI `dns-records_name` maxLength); `content` 4,096 characters
 * ("Each DNS record has a maximum wire format size of 4,096 bytes", developers.cloudflare.com/dns/
 * manage-dns-records/reference/dns-record-types/); `ttl` 1 or 60..86400 ("Setting to 1 means
 * 'automatic'. Value must be between 60 and 86400", TS SDK `TTL`; 30 is Enterprise only); MX
 * `priority` 0..65535 (RFC 1035 §3.3.9, 16 bits); `comment` 500 characters without line breaks
 * (developers.cloudflare.com/dns/manage-dns-records/reference/record-attributes/ forbids `\n` and
 * `\r`; 500 is edgezone's); `tags` `name:value`, the name of letters, digits, underscores and
 * hyphens (OpenAPI `dns-records_tags`), at most 20 of 100 characters (edgezone's); a batch at most
 * MAX_RECORDS entries in all (the per-request limit of the Pro, Business and Enterprise plans,
 * 3,500 records; Free's is 200: developers.cloudflare.com/dns/manage-dns-records/how-to/batch-record-changes/). An invalid body
 * or query is 400 1004 naming the field; the record rules answer their own codes. A CAA record is
 * written with `data: {flags, tag, value}` (TS SDK `CAARecord.Data`) or, lacking it, a `content`
 * in the form the API shows (`0 issue "letsencrypt.org"`).
 */
import type { RecordBatchResponse, RecordDeleteResponse, RecordResponse } from "cloudflare/resources/dns/records";
import type { Context } from "hono";
import { Hono } from "hono";
import { z } from "zod";
import { forgetActiveHostnames } from "../edge/custom-hostname-routing";
import { RECORD_TYPES } from "../zone/dns-record-checks";
import { MAX_RECORDS } from "../zone/dns-records";
import { CODES } from "../zone/failure";
import { PATCH, RECORD } from "./dns-record-fields";
import { exportZoneFile, importZoneFile } from "./dns-zone-file";
import { ok } from "./envelope";
import { unwrap } from "./errors";
import { pageInfo } from "./pagination";
import { reads, writes } from "./permissions";
import type { ApiEnv } from "./types";
import { BOOLEAN_QUERY, HEX_ID, parseBody, parseParam, parseQuery } from "./validate";

/**
 * A record as the SDK types the API's answer, but for `comment`: the SDK types it as a string,
 * left out or (OPENPGPKEY's alone) always there, where the real API answers `"comment": null`
 * for a record without one (github.com/caddyserver/caddy/issues/7301).
 */
type AnsweredRecord = RecordResponse extends infer R
	? R extends unknown
		? Omit<R, "comment"> & { comment: string | null }
		: never
	: never;

/** A batch's answer, its records typed as `AnsweredRecord`. */
type AnsweredBatch = { [K in keyof RecordBatchResponse]?: AnsweredRecord[] };

const CODE = CODES.dnsRecordInvalid;

const BATCH = z
	.strictObject({
		// "deletes: only the id is used, other fields are ignored" (batch-record-changes).
		deletes: z.array(z.object({ id: HEX_ID })).default([]),
		patches: z.array(PATCH.extend({ id: HEX_ID })).default([]),
		puts: z.array(RECORD.extend({ id: HEX_ID })).default([]),
		posts: z.array(RECORD).default([]),
	})
	.refine((b) => b.deletes.length + b.patches.length + b.puts.length + b.posts.length <= MAX_RECORDS, {
		message: `a batch holds at most ${MAX_RECORDS} changes`,
	});

const TEXT = z.string().max(4096).optional();

/**
 * Filters of Cloudflare's list that edgezone does not apply: refused (400 naming the parameter)
 * rather than ignored, so that no client takes an unfiltered list for a filtered one.
 */
// Both name NS delegations, and edgezone stores no NS record.
const UNSUPPORTED_FILTERS = ["shadowed_by_name", "shadowing_name"] as const;
const NOT_SUPPORTED = z
	.unknown()
	.refine((v) => v === undefined, "this filter is not applied by edgezone")
	.optional();

// The SDK sends nested filters with dots (`name.exact=...`: `qs` with `allowDots`,
// cloudflare-typescript `src/internal/utils/query.ts`).
const LIST = z.object({
	name: TEXT,
	"name.exact": TEXT,
	"name.contains": TEXT,
	"name.startswith": TEXT,
	"name.endswith": TEXT,
	content: TEXT,
	"content.exact": TEXT,
	"content.contains": TEXT,
	"content.startswith": TEXT,
	"content.endswith": TEXT,
	comment: TEXT,
	"comment.exact": TEXT,
	"comment.contains": TEXT,
	"comment.startswith": TEXT,
	"comment.endswith": TEXT,
	"comment.present": TEXT,
	"comment.absent": TEXT,
	tag: TEXT,
	"tag.present": TEXT,
	"tag.absent": TEXT,
	"tag.exact": TEXT,
	"tag.contains": TEXT,
	"tag.startswith": TEXT,
	"tag.endswith": TEXT,
	tag_match: z.enum(["any", "all"]).default("all"),
	search: TEXT,
	...Object.fromEntries(UNSUPPORTED_FILTERS.map((name) => [name, NOT_SUPPORTED])),
	type: z.enum(RECORD_TYPES).optional(),
	proxied: BOOLEAN_QUERY.optional(),
	match: z.enum(["any", "all"]).default("all"),
	order: z.enum(["type", "name", "content", "ttl", "proxied"]).default("type"),
	direction: z.enum(["asc", "desc"]).default("asc"),
	page: z.coerce.number().int().min(1).default(1),
	per_page: z.coerce.number().int().min(1).max(5_000_000).default(100),
});

/** The record id of the path (32 hex; 7003 otherwise). */
const idOf = (c: Context<ApiEnv>) => parseParam(c, "dns_record_id", HEX_ID);

/** Routes under `/zones/{zone_id}/dns_records`; `/export`, `/import` and `/batch` before `/:dns_record_id`. */
export const dnsRecords = new Hono<ApiEnv>()
	// TXT records verify custom hostnames (zone/dns.ts): after a write the edge asks which are active again.
	.use(async (c, next) => {
		await next();
		if (c.req.method !== "GET") forgetActiveHostnames(c.var.zone.id);
	})
	.get("/", reads("DNS"), async (c) => {
		const q = parseQuery(c, LIST, CODE);
		const page = unwrap(
			await c.var.zoneState.listDnsRecords(
				{
					name: {
						exact: q["name.exact"] ?? q.name,
						contains: q["name.contains"],
						startswith: q["name.startswith"],
						endswith: q["name.endswith"],
					},
					content: {
						exact: q["content.exact"] ?? q.content,
						contains: q["content.contains"],
						startswith: q["content.startswith"],
						endswith: q["content.endswith"],
					},
					comment: {
						exact: q["comment.exact"] ?? q.comment,
						contains: q["comment.contains"],
						startswith: q["comment.startswith"],
						endswith: q["comment.endswith"],
						present: q["comment.present"] !== undefined,
						absent: q["comment.absent"] !== undefined,
					},
					// `tag=name` is `tag.present=name`, `tag=name:value` is `tag.exact=name:value` (OpenAPI).
					tag: {
						present: q["tag.present"] ?? (q.tag?.includes(":") ? undefined : q.tag),
						absent: q["tag.absent"],
						exact: q["tag.exact"] ?? (q.tag?.includes(":") ? q.tag : undefined),
						contains: q["tag.contains"],
						startswith: q["tag.startswith"],
						endswith: q["tag.endswith"],
					},
					tagMatch: q.tag_match,
					search: q.search,
					type: q.type,
					proxied: q.proxied,
					match: q.match,
					order: q.order,
					direction: q.direction,
				},
				q.page,
				q.per_page,
			),
		);
		return ok(page.items satisfies AnsweredRecord[], pageInfo(q.page, q.per_page, page.items.length, page.total));
	})
	.get("/export", reads("DNS"), exportZoneFile)
	.post("/import", writes("DNS"), importZoneFile)
	.post("/batch", writes("DNS"), async (c) => {
		const body = await parseBody(c, BATCH, CODE);
		const result = await c.var.zoneState.batchDnsRecords(
			{
				deletes: body.deletes.map((d) => d.id),
				patches: body.patches.map(({ id, ...patch }) => ({ id, patch })),
				puts: body.puts.map(({ id, ...input }) => ({ id, input })),
				posts: body.posts,
			},
			c.var.zone.name,
		);
		return ok(unwrap(result) satisfies AnsweredBatch);
	})
	.post("/", writes("DNS"), async (c) => {
		const body = await parseBody(c, RECORD, CODE);
		return ok(unwrap(await c.var.zoneState.createDnsRecord(body, c.var.zone.name)) satisfies AnsweredRecord);
	})
	.get("/:dns_record_id", reads("DNS"), async (c) =>
		ok(unwrap(await c.var.zoneState.getDnsRecord(idOf(c))) satisfies AnsweredRecord),
	)
	.patch("/:dns_record_id", writes("DNS"), async (c) => {
		const id = idOf(c);
		const body = await parseBody(c, PATCH, CODE);
		return ok(unwrap(await c.var.zoneState.editDnsRecord(id, body, c.var.zone.name)) satisfies AnsweredRecord);
	})
	.put("/:dns_record_id", writes("DNS"), async (c) => {
		const id = idOf(c);
		const body = await parseBody(c, RECORD, CODE);
		return ok(unwrap(await c.var.zoneState.overwriteDnsRecord(id, body, c.var.zone.name)) satisfies AnsweredRecord);
	})
	.delete("/:dns_record_id", writes("DNS"), async (c) => {
		const { id } = unwrap(await c.var.zoneState.deleteDnsRecord(idOf(c)));
		return ok({ id } satisfies RecordDeleteResponse);
	});
