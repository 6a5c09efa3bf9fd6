/**
 * CORS for the gateway (Fetch standard, "CORS protocol"), for both dialects, and for a bucket
 * served publicly (`../r2-domain/public-answer.ts`: its own rules only). A bucket with CORS
 * rules of its own (put with S3's PutBucketCors, kept in its ledger: src/edge/s3/cors/) has its
 * requests answered by those rules, as R2 applies a bucket's CORS policy
 * (https://developers.cloudflare.com/r2/buckets/cors/). Any other bucket has the default:
 * browsers may call it from the origins in `CORS_ORIGINS` (`*` or a comma-separated list), and a
 * page's `fetch` can then do all that RemoteBucket does: every method, every request header the
 * gateway reads, and every answer header it sends readable by the script.
 *
 * What R2 leaves to a bucket's CORS policy (`AllowedHeaders`, `ExposeHeaders`;
 * developers.cloudflare.com/r2/buckets/cors/) is fixed here to what the gateway uses, as listed
 * in docs/gateway.md. Request headers outside that list are left out of a preflight's answer, so a
 * browser refuses the request before sending it rather than the gateway ignoring the header.
 *
 * Applied to the handler's own Response, in place, rather than through a router's middleware:
 * re-creating a Response drops its `encodeBody: "manual"`, and the runtime would then compress
 * or decode object bodies on the way out (docs/gateway.md).
 */

import { headerList } from "../../common/http-token";
import { BUCKET_HEADER } from "../../wire/buckets";
import { CHECKSUMS, checksumHeader, storedChecksumHeader } from "../../wire/checksums";
import { ERROR_CODE_HEADER, ERROR_MESSAGE_HEADER } from "../../wire/error-codes";
import {
	DEFAULT_CONTENT_TYPE,
	HTTP_METADATA_HEADERS,
	RAW_BODY_HEADER,
	STORED_ENCODING_HEADER,
} from "../../wire/http-metadata";
import { STORAGE_CLASS_HEADER } from "../../wire/storage-class";
import { allowedOriginOf, type CorsRule, matchingRule } from "../s3/cors/rules";

/** Custom metadata travels in headers of this prefix, one per name, in both directions. */
const META_PREFIX = "x-amz-meta-";

/**
 * Request headers the gateway reads. `Authorization` must be named: Fetch's `*` wildcard in
 * `Access-Control-Allow-Headers` never covers it (Fetch standard, "CORS-preflight fetch").
 */
const REQUEST_HEADERS = [
	"authorization",
	"range",
	"if-match",
	"if-none-match",
	"if-modified-since",
	"if-unmodified-since",
	...HTTP_METADATA_HEADERS,
	...CHECKSUMS.map(({ name }) => checksumHeader(name)),
	// S3's switch for checksums on reads (src/wire/checksums.ts `wantsChecksums`).
	"x-amz-checksum-mode",
	STORAGE_CLASS_HEADER,
	// A raw-byte client's request for bodies as stored (docs/gateway.md, "Raw bodies").
	RAW_BODY_HEADER,
	BUCKET_HEADER,
	// The S3 dialect's (src/edge/s3/): SigV4 in headers, the request-body headers of aws-chunked
	// and flexible checksums, copies, and what the AWS SDKs add to every request in a browser.
	"x-amz-date",
	"x-amz-content-sha256",
	"x-amz-security-token",
	"x-amz-decoded-content-length",
	"x-amz-trailer",
	"x-amz-sdk-checksum-algorithm",
	"x-amz-checksum-crc32",
	"x-amz-checksum-crc32c",
	"x-amz-checksum-crc64nvme",
	"x-amz-copy-source",
	"x-amz-copy-source-range",
	"x-amz-copy-source-if-match",
	"x-amz-copy-source-if-none-match",
	"x-amz-copy-source-if-modified-since",
	"x-amz-copy-source-if-unmodified-since",
	"x-amz-metadata-directive",
	"x-amz-server-side-encryption-customer-algorithm",
	"x-amz-server-side-encryption-customer-key",
	"x-amz-server-side-encryption-customer-key-md5",
	// R2's extensions (https://developers.cloudflare.com/r2/api/s3/extensions/).
	"cf-copy-destination-if-match",
	"cf-copy-destination-if-none-match",
	"cf-copy-destination-if-modified-since",
	"cf-copy-destination-if-unmodified-since",
	"cf-create-bucket-if-missing",
	"x-amz-user-agent",
	"amz-sdk-invocation-id",
	"amz-sdk-request",
];

/**
 * Answer headers a script may need, exposed on every answer, with the `x-amz-meta-*` names of the
 * answer at hand added. Fetch's CORS-safelisted ones (Content-Length, Last-Modified, …) are named
 * too: older browsers predate Content-Length joining that list.
 */
const EXPOSED_HEADERS = [
	"etag",
	"last-modified",
	"content-length",
	"content-range",
	"accept-ranges",
	...HTTP_METADATA_HEADERS,
	"x-r2-version",
	"x-r2-uploaded",
	DEFAULT_CONTENT_TYPE,
	STORAGE_CLASS_HEADER,
	...CHECKSUMS.map(({ name }) => storedChecksumHeader(name)),
	STORED_ENCODING_HEADER,
	ERROR_CODE_HEADER,
	ERROR_MESSAGE_HEADER,
	"www-authenticate",
	"allow",
	// How many custom metadata entries an answer left out (src/wire/custom-metadata.ts).
	"x-amz-missing-meta",
	// The S3 dialect's answers.
	"x-amz-request-id",
	"x-amz-checksum-crc32",
	"x-amz-checksum-crc32c",
	"x-amz-checksum-crc64nvme",
	"x-amz-checksum-type",
	"x-amz-checksum-algorithm",
	"x-amz-mp-parts-count",
	"x-amz-expiration",
	"x-amz-server-side-encryption-customer-algorithm",
	"x-amz-server-side-encryption-customer-key-MD5",
	"cf-is-truncated",
	"cf-next-continuation-token",
	"date",
];

/** How long a browser may keep a preflight's answer, in seconds (R2's `MaxAgeSeconds` tops out at a day). */
const MAX_AGE = 86_400;

/** The CORS the gateway applies, as a bucket's CORS rule would say it (S3's `CORSRule`). */
interface CorsPolicy {
	/** `*`, or the listed origins. */
	origins: string[];
	/** Request headers a preflight allows; `x-amz-meta-*` for any custom metadata name. */
	allowedHeaders: string[];
	/** Answer headers a script may read; `x-amz-meta-*` for the answer's own metadata names. */
	exposedHeaders: string[];
	maxAgeSeconds: number;
}

/** The CORS of `CORS_ORIGINS`, or undefined when it allows no origin (no CORS headers are sent). */
export function corsPolicy(env: Env): CorsPolicy | undefined {
	const setting = env.CORS_ORIGINS.trim();
	const origins = setting === "*" ? ["*"] : setting.split(",").flatMap((origin) => origin.trim() || []);
	if (origins.length === 0) return undefined;
	return {
		origins,
		allowedHeaders: [...REQUEST_HEADERS, `${META_PREFIX}*`],
		exposedHeaders: [...EXPOSED_HEADERS, `${META_PREFIX}*`],
		maxAgeSeconds: MAX_AGE,
	};
}

/** The `Access-Control-Allow-Origin` value for `origin`, or null when it is not allowed. */
function allowedOrigin(origin: string, setting: string): string | null {
	if (setting.trim() === "*") return "*";
	return setting.split(",").some((allowed) => allowed.trim() === origin) ? origin : null;
}

/** The request headers a preflight allows: the gateway's own, and the custom metadata names asked for. */
function allowedHeaders(requested: string | null): string {
	const metadata = headerList(requested).filter(
		(name) => name.startsWith(META_PREFIX) && name.length > META_PREFIX.length,
	);
	return [...new Set([...REQUEST_HEADERS, ...metadata])].join(", ");
}

/**
 * The answer to a preflight of a bucket with CORS rules, as S3 answers one
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/cors.html): 200 with the matching rule's
 * origin, methods, the request headers asked for, its exposed headers and max age; 403 without
 * any when no rule allows the origin, the method and every header asked for (with no rules, none
 * does). `origin` is the request's `Origin`.
 */
export function bucketPreflight(request: Request, origin: string, rules: readonly CorsRule[]): Response {
	const headers = new Headers({ vary: "Origin, Access-Control-Request-Headers, Access-Control-Request-Method" });
	const requested = headerList(request.headers.get("access-control-request-headers"));
	const method = request.headers.get("access-control-request-method") ?? "";
	const rule = matchingRule(rules, { origin, method, headers: requested });
	if (rule === undefined) return new Response(null, { status: 403, headers });
	headers.set("access-control-allow-origin", allowedOriginOf(rule, origin));
	headers.set("access-control-allow-methods", rule.allowedMethods.join(", "));
	if (requested.length > 0) headers.set("access-control-allow-headers", requested.join(", "));
	if (rule.exposeHeaders.length > 0) headers.set("access-control-expose-headers", rule.exposeHeaders.join(", "));
	if (rule.maxAgeSeconds !== undefined) headers.set("access-control-max-age", String(rule.maxAgeSeconds));
	return new Response(null, { status: 200, headers });
}

/**
 * The `Origin` of a CORS preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`,
 * Fetch standard, "CORS-preflight request"), or null when the request is not one.
 */
export function preflightOrigin(request: Request): string | null {
	if (request.method !== "OPTIONS" || !request.headers.has("access-control-request-method")) return null;
	return request.headers.get("origin");
}

/**
 * The answer to a CORS preflight (`preflightOrigin`), or null when the request is not one. For a bucket with CORS rules (`rules`, from its ledger:
 * src/edge/s3/cors/), as its rules say (`bucketPreflight`). Otherwise `CORS_ORIGINS`'s: 204
 * allowing the gateway's methods and request headers, for a day; for an origin not allowed, 204
 * without them, which the browser takes as a refusal.
 */
export function preflight(
	request: Request,
	env: Env,
	methods: readonly string[],
	rules: readonly CorsRule[] = [],
): Response | null {
	const origin = preflightOrigin(request);
	if (origin === null) return null;
	if (rules.length > 0) return bucketPreflight(request, origin, rules);
	// The answer depends on the origin and on the custom metadata names requested.
	const headers = new Headers({ vary: "Origin, Access-Control-Request-Headers" });
	const allowed = allowedOrigin(origin, env.CORS_ORIGINS);
	if (allowed !== null) {
		headers.set("access-control-allow-origin", allowed);
		headers.set("access-control-allow-methods", methods.join(", "));
		headers.set("access-control-allow-headers", allowedHeaders(request.headers.get("access-control-request-headers")));
		headers.set("access-control-max-age", String(MAX_AGE));
	}
	return new Response(null, { status: 204, headers });
}

/**
 * Adds to `response`, in place, the CORS headers a bucket's `rules` give an actual request (S3's
 * way): with an `Origin`, `Vary: Origin`, and for the first rule allowing the origin and the
 * method, the allowed origin and the rule's exposed headers; nothing more when no rule does, and
 * nothing at all without rules.
 */
export function withBucketCors(request: Request, response: Response, rules: readonly CorsRule[]): Response {
	const origin = request.headers.get("origin");
	if (origin === null || rules.length === 0) return response;
	const headers = response.headers;
	headers.append("vary", "Origin");
	const rule = matchingRule(rules, { origin, method: request.method });
	if (rule === undefined) return response;
	headers.set("access-control-allow-origin", allowedOriginOf(rule, origin));
	if (rule.exposeHeaders.length > 0) headers.set("access-control-expose-headers", rule.exposeHeaders.join(", "));
	return response;
}

/**
 * Adds the CORS headers of an actual request to `response`, in place. For a bucket with CORS
 * rules, those of the first rule allowing the origin and the method (S3's way): the allowed
 * origin and the rule's exposed headers; none when no rule does. Otherwise `CORS_ORIGINS`'s: the
 * allowed origin, and the answer headers a script may read (EXPOSED_HEADERS and the answer's own
 * `x-amz-meta-*`).
 */
export function withCors(request: Request, env: Env, response: Response, rules: readonly CorsRule[] = []): Response {
	const origin = request.headers.get("origin");
	if (origin === null) return response;
	if (rules.length > 0) return withBucketCors(request, response, rules);
	const headers = response.headers;
	headers.append("vary", "Origin");
	const allowed = allowedOrigin(origin, env.CORS_ORIGINS);
	if (allowed === null) return response;
	headers.set("access-control-allow-origin", allowed);
	const metadata = [...headers.keys()].filter((name) => name.startsWith(META_PREFIX));
	headers.set("access-control-expose-headers", [...EXPOSED_HEADERS, ...metadata].join(", "));
	return response;
}
