/**
 * The fields of a DNS record as a client writes them (`POST`, `PUT`, `PATCH /dns_records`, a
 * batch's entries and each record of an import), with the bounds the records endpoints' module
 * header gives and its sources (`dns-records.ts`). The record's own rules are the Zone's
 * (`zone/dns-record-checks.ts`).
 */
import { z } from "zod";
import { RECORD_TYPES } from "../zone/dns-record-checks";
import type { RecordData } from "../zone/record-data/components";

const TYPE = z.enum(RECORD_TYPES, {
	error: `type must be one of ${RECORD_TYPES.join(", ")} (the types edgezone stores)`,
});
const TTL = z.union([z.literal(1), z.number().int().min(60).max(86400)], {
	error: "ttl must be 1 (automatic) or 60 to 86400 seconds",
});
const TAG = z
	.string()
	.max(100)
	.regex(/^[A-Za-z0-9_-]+(?::.*)?$/, "a tag is name:value, its name of letters, digits, underscores and hyphens");
/**
 * A record's components, any type's (the TS SDK's `data` of `CAARecord`, `SRVRecord`,
 * `HTTPSRecord` and the rest: `zone/record-data/components.ts`). Which a type needs, and their
 * values, are checked with the record (`zone/record-data/`), so a bad CAA flag answers Cloudflare's
 * 9053, a flag sent as text too (as observed for `"flags": "0"`,
 * gist.github.com/graemer957/a73d706a8c0f0739744fedd5227e3f59). Text is bounded as a record's
 * content is.
 */
const NUMBER = z.number().optional();
const TEXT = z.string().max(4096).optional();
const DATA = z.strictObject({
	flags: z.union([z.number(), z.string().max(255)]).optional(),
	tag: z.string().max(255).optional(),
	value: TEXT,
	priority: NUMBER,
	weight: NUMBER,
	port: NUMBER,
	target: TEXT,
	order: NUMBER,
	preference: NUMBER,
	service: z.string().max(255).optional(),
	regex: z.string().max(255).optional(),
	replacement: z.string().max(255).optional(),
	lat_degrees: NUMBER,
	lat_minutes: NUMBER,
	lat_seconds: NUMBER,
	lat_direction: z.string().max(1).optional(),
	long_degrees: NUMBER,
	long_minutes: NUMBER,
	long_seconds: NUMBER,
	long_direction: z.string().max(1).optional(),
	altitude: NUMBER,
	size: NUMBER,
	precision_horz: NUMBER,
	precision_vert: NUMBER,
	algorithm: NUMBER,
	type: NUMBER,
	fingerprint: TEXT,
	usage: NUMBER,
	selector: NUMBER,
	matching_type: NUMBER,
	certificate: TEXT,
	key_tag: NUMBER,
	digest_type: NUMBER,
	digest: TEXT,
	protocol: NUMBER,
	public_key: TEXT,
}) satisfies z.ZodType<RecordData>;

const SETTINGS = z.strictObject({
	ipv4_only: z.boolean().optional(),
	ipv6_only: z.boolean().optional(),
	flatten_cname: z.boolean().optional(),
});

/** The fields of a record as a client writes them, none required. */
const FIELDS = {
	name: z.string().min(1).max(255),
	type: TYPE,
	content: z.string().max(4096),
	ttl: TTL,
	proxied: z.boolean(),
	priority: z.number().int().min(0).max(65535),
	data: DATA,
	comment: z
		.string()
		.max(500)
		.refine((c) => !/[\r\n]/.test(c), "a comment cannot hold line breaks"),
	tags: z
		.array(TAG)
		.max(20)
		.refine((tags) => new Set(tags.map((t) => t.toLowerCase())).size === tags.length, "lists a tag twice"),
	settings: SETTINGS,
};

/**
 * A whole record (create, PUT): name, type and content required (the `data` of a type made of
 * components instead, its content derived: "Formatted CAA content. See 'data' to set CAA
 * properties.", TS SDK `CAARecord.content`), the rest Cloudflare's defaults (`ttl` 1, not proxied).
 */
export const RECORD = z.strictObject({
	name: FIELDS.name,
	type: FIELDS.type,
	content: FIELDS.content.optional(),
	ttl: FIELDS.ttl.default(1),
	proxied: FIELDS.proxied.default(false),
	priority: FIELDS.priority.optional(),
	data: FIELDS.data.optional(),
	comment: FIELDS.comment.nullable().optional(),
	tags: FIELDS.tags.default([]),
	settings: FIELDS.settings.default({}),
});

/** The fields a PATCH changes. */
export const PATCH = z.strictObject({
	name: FIELDS.name.optional(),
	type: FIELDS.type.optional(),
	content: FIELDS.content.optional(),
	ttl: FIELDS.ttl.optional(),
	proxied: FIELDS.proxied.optional(),
	priority: FIELDS.priority.optional(),
	data: FIELDS.data.optional(),
	comment: FIELDS.comment.nullable().optional(),
	tags: FIELDS.tags.optional(),
	settings: FIELDS.settings.optional(),
});
