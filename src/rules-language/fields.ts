/**
 * The field scheme: Cloudflare's request fields and their types.
 *
 * Emulates: the fields of the Rules language as Cloudflare documents them (cloudflare-docs
 * `ruleset-engine/rules-language/fields/*.mdx`). "String" there is the engine's
 * `Bytes`, "Number" is `Int`.
 * Gaps: Enterprise-only and phase-restricted fields beyond those listed here are unknown to the
 * scheme, so they are `unknown identifier`, as on a zone without the feature.
 *
 * The response fields ({@link RESPONSE_FIELDS}) exist only in the response phases' scheme
 * ({@link RESPONSE_PHASE_FIELDS}): a request phase runs before there is a response, so there they
 * are `unknown identifier` too.
 */
import type { FieldType } from "./types.ts";

const STRING_ARRAY: FieldType = { array: "Bytes" };
const STRING_ARRAY_MAP: FieldType = { map: { array: "Bytes" } };

/** Field name -> type. */
export const FIELDS: Readonly<Record<string, FieldType>> = Object.freeze({
	"http.host": "Bytes",
	"http.cookie": "Bytes",
	"http.referer": "Bytes",
	"http.user_agent": "Bytes",
	"http.x_forwarded_for": "Bytes",
	"http.request.method": "Bytes",
	"http.request.version": "Bytes",
	"http.request.uri": "Bytes",
	"http.request.uri.path": "Bytes",
	"http.request.uri.path.extension": "Bytes",
	"http.request.uri.query": "Bytes",
	"http.request.uri.args": STRING_ARRAY_MAP,
	"http.request.uri.args.names": STRING_ARRAY,
	"http.request.uri.args.values": STRING_ARRAY,
	"http.request.full_uri": "Bytes",
	"raw.http.request.full_uri": "Bytes",
	"raw.http.request.uri": "Bytes",
	"raw.http.request.uri.path": "Bytes",
	"raw.http.request.uri.path.extension": "Bytes",
	"raw.http.request.uri.query": "Bytes",
	"raw.http.request.uri.args": STRING_ARRAY_MAP,
	"raw.http.request.uri.args.names": STRING_ARRAY,
	"raw.http.request.uri.args.values": STRING_ARRAY,
	"http.request.headers": STRING_ARRAY_MAP,
	"http.request.headers.names": STRING_ARRAY,
	"http.request.headers.values": STRING_ARRAY,
	"http.request.headers.truncated": "Bool",
	"http.request.cookies": STRING_ARRAY_MAP,
	"http.request.timestamp.sec": "Int",
	"http.request.timestamp.msec": "Int",
	"ip.src": "Ip",
	"ip.src.country": "Bytes",
	"ip.geoip.country": "Bytes",
	"ip.src.asnum": "Int",
	"ip.geoip.asnum": "Int",
	"ip.src.continent": "Bytes",
	"ip.geoip.continent": "Bytes",
	"ip.src.city": "Bytes",
	"ip.src.region": "Bytes",
	"ip.src.region_code": "Bytes",
	"ip.src.postal_code": "Bytes",
	"ip.src.metro_code": "Bytes",
	"ip.src.lat": "Bytes",
	"ip.src.lon": "Bytes",
	"ip.src.subdivision_1_iso_code": "Bytes",
	"ip.src.subdivision_2_iso_code": "Bytes",
	"ip.src.is_in_european_union": "Bool",
	ssl: "Bool",
	"cf.client.bot": "Bool",
	"cf.bot_management.verified_bot": "Bool",
	"cf.threat_score": "Int",
	"cf.edge.server_port": "Int",
	"cf.edge.server_ip": "Ip",
	"cf.ray_id": "Bytes",
	"cf.zone.name": "Bytes",
});

/**
 * The response fields (docs fields/reference/http.response.code, http.response.headers,
 * http.response.headers.names, http.response.headers.values, raw.http.response.headers*,
 * http.response.content_type.media_type): the status and headers of the answer.
 */
const RESPONSE_FIELDS: Readonly<Record<string, FieldType>> = Object.freeze({
	"http.response.code": "Int",
	"http.response.content_type.media_type": "Bytes",
	"http.response.headers": STRING_ARRAY_MAP,
	"http.response.headers.names": STRING_ARRAY,
	"http.response.headers.values": STRING_ARRAY,
	"raw.http.response.headers": STRING_ARRAY_MAP,
	"raw.http.response.headers.names": STRING_ARRAY,
	"raw.http.response.headers.values": STRING_ARRAY,
});

/** The scheme of a response phase (`http_response_headers_transform`): the request's fields and the response's. */
const RESPONSE_PHASE_FIELDS: Readonly<Record<string, FieldType>> = Object.freeze({
	...FIELDS,
	...RESPONSE_FIELDS,
});

/** The scheme an expression is written in: a request phase's, or a response phase's. */
export type Scheme = "request" | "response";

/** The fields of `scheme`. */
export function schemeFields(scheme: Scheme): Readonly<Record<string, FieldType>> {
	return scheme === "response" ? RESPONSE_PHASE_FIELDS : FIELDS;
}

/**
 * Fields "only available in rewrite expressions of Transform Rules" (docs fields/reference/
 * ip.src.timezone.name): in a Transform Rule's value expressions, not in a filter nor in a
 * redirect's target.
 */
const TRANSFORM_VALUE_FIELDS: Readonly<Record<string, FieldType>> = Object.freeze({
	"ip.src.timezone.name": "Bytes",
});

const TRANSFORM_REQUEST_FIELDS = Object.freeze({ ...FIELDS, ...TRANSFORM_VALUE_FIELDS });
const TRANSFORM_RESPONSE_FIELDS = Object.freeze({ ...RESPONSE_PHASE_FIELDS, ...TRANSFORM_VALUE_FIELDS });

/** The fields a Transform Rule's value expression reads in `scheme`: its filter's and TRANSFORM_VALUE_FIELDS. */
export function transformValueFields(scheme: Scheme): Readonly<Record<string, FieldType>> {
	return scheme === "response" ? TRANSFORM_RESPONSE_FIELDS : TRANSFORM_REQUEST_FIELDS;
}
