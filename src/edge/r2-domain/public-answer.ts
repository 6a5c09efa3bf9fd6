/**
 * A bucket served publicly on a host, as R2's public buckets answer: on a connected custom domain
 * or the bucket's `r2.dev` URL (https://developers.cloudflare.com/r2/buckets/public-buckets/),
 * with no credential.
 *
 * - GET and HEAD of `/<key>` read the object through the gateway's own read path
 *   (`../gateway/object.ts`: one binding call, ranges and conditionals, 200/206/304/412/416);
 *   the request reaches it with only its Range and conditional headers, so nothing of the
 *   gateway's own dialect (`x-r2-*`, checksum mode, SSE-C) applies.
 * - The answer carries the object's HTTP headers (Content-Type, Cache-Control, ETag,
 *   Last-Modified, Accept-Ranges, ...) and none of the gateway's `x-r2-*` or S3's `x-amz-*`:
 *   the headers Miniflare's public-bucket worker sends (workers-sdk
 *   `packages/miniflare/src/workers/r2/public.worker.ts`, `serveR2Object`), the local oracle
 *   of R2's public answers, which Cloudflare's docs do not spell out.
 * - No listing: "public buckets do not let you list the bucket contents at the root" (the docs
 *   page above); `/`, like a missing key, is R2's 404, `404 Not Found` as text (Miniflare's).
 * - Other methods are 405 with `Allow: GET, HEAD` (edgezone's choice: the real status is not
 *   public; Miniflare answers 401).
 * - The bucket's CORS policy (`wrangler r2 bucket cors set`, S3's PutBucketCors) answers browsers,
 *   "to use CORS with a public bucket" (https://developers.cloudflare.com/r2/buckets/cors/): a
 *   request with an `Origin` gets the headers of the first rule allowing its origin and method,
 *   a preflight (`OPTIONS` with `Access-Control-Request-Method`) 200 with the rule's headers, or
 *   403 when no rule allows it. "A request without an Origin HTTP request header will not return
 *   any CORS response headers" (same page), nor does any request to a bucket without a policy:
 *   the gateway's own default (`CORS_ORIGINS`) is not a public bucket's.
 * - The bucket is a declared one or one created at run time (`src/runtime-buckets/`).
 * - An `r2.dev` host is Cloudflare's, not a zone's: "WAF custom rules, caching, access controls,
 *   or bot management ... are not available when using the r2.dev development url" (the docs
 *   page above), so the edge answers it before any zone's phases or log (`r2DevAnswer`). One that
 *   serves no bucket (its URL turned off, or never on) is 401 (edgezone's choice: the real answer
 *   is not public; Miniflare's public-bucket worker answers what it refuses with 401).
 * Gap: nothing is cached.
 */

import type { MaybePromise } from "../../common/maybe-promise";
import { createdBucketServed } from "../../runtime-buckets/catalog";
import { bucketPreflight, preflightOrigin, withBucketCors } from "../gateway/cors";
import { fromBindingError, type GatewayError } from "../gateway/errors";
import { keyFromUrl } from "../gateway/keys";
import { getObject, headObject } from "../gateway/object";
import { type NamedBucket, servedBuckets } from "../s3/buckets";
import { publicCorsRules } from "../s3/cors/cached-rules";
import { type PublicBucket, publicBucketOf } from "./hosts";

/** The request headers a public read passes on: Range and the conditionals. */
const READ_HEADERS = ["range", "if-match", "if-none-match", "if-modified-since", "if-unmodified-since"];

/** Answer headers of the gateway's and S3's dialects, which a public answer leaves out. */
const DIALECT_HEADER = /^x-(r2|amz)-/;

/**
 * The public answer to a request whose host serves a bucket (a custom domain or `r2.dev` URL that
 * is on), or undefined when the host serves none (at once while the isolate's copy of the hosts
 * is fresh); the edge then goes on to the gateway.
 * @param url the URL the bucket is sent (after the zone's URL normalization).
 * @param now the time of the request, in ms since the epoch.
 */
export function r2DomainAnswer(
	request: Request,
	url: URL,
	env: Env,
	now: number,
): MaybePromise<Response | undefined> | undefined {
	const bucket = publicBucketOf(env, url.hostname, now);
	if (bucket instanceof Promise)
		return bucket.then((known) => (known === undefined ? undefined : publicAnswer(request, url, env, known)));
	return bucket === undefined ? undefined : publicAnswer(request, url, env, bucket);
}

/** Whether `host` (lower case, no port) is under `r2.dev`, Cloudflare's own domain of public buckets. */
export function isR2DevHost(host: string): boolean {
	return host.endsWith(".r2.dev");
}

/**
 * The answer to a request whose host is under `r2.dev` (`isR2DevHost`): the bucket's public answer
 * while its r2.dev URL is on, else 401 (the header).
 * @param now the time of the request, in ms since the epoch.
 */
export function r2DevAnswer(request: Request, url: URL, env: Env, now: number): MaybePromise<Response> {
	const refused = () => text(401, "401 Unauthorized", request.method === "HEAD");
	const answer = r2DomainAnswer(request, url, env, now);
	if (answer === undefined) return refused();
	return Promise.resolve(answer).then((response) => response ?? refused());
}

/**
 * The bucket `known` names: the declared one of its name, which wins over a created one as in the
 * catalog (`src/runtime-buckets/catalog.ts`), else the one created at run time that the host was
 * read with; undefined when neither is served.
 */
function servedBucket(env: Env, known: PublicBucket): NamedBucket | undefined {
	const declared = servedBuckets(env).find((served) => served.name === known.name);
	if (declared !== undefined || known.created === null) return declared;
	return createdBucketServed(env, known.created);
}

/** The answer of the bucket `known`, served publicly on the request's host, with its CORS (the header). */
async function publicAnswer(request: Request, url: URL, env: Env, known: PublicBucket): Promise<Response> {
	const served = servedBucket(env, known);
	const rules = served === undefined ? [] : await publicCorsRules(request, env, served.binding);
	const origin = preflightOrigin(request);
	if (origin !== null) return bucketPreflight(request, origin, rules);
	return withBucketCors(request, await objectAnswer(request, url, env, served?.bucket), rules);
}

/** The bucket's answer to `request` at the path of `url`; undefined `bucket`: it is gone. */
async function objectAnswer(request: Request, url: URL, env: Env, bucket: R2Bucket | undefined): Promise<Response> {
	const head = request.method === "HEAD";
	if (request.method !== "GET" && !head) {
		return text(405, "405 Method Not Allowed", head, new Headers({ allow: "GET, HEAD" }));
	}
	const path = new URL(url.pathname, url.origin);
	if (bucket === undefined || path.pathname === "/") return notFound(head);
	const headers = new Headers();
	for (const header of READ_HEADERS) {
		const value = request.headers.get(header);
		if (value !== null) headers.set(header, value);
	}
	const read = new Request(path, { method: request.method, headers });
	try {
		const context = { request: read, url: path, key: keyFromUrl(path), bucket, env };
		return publicOnly(await (head ? headObject(context) : getObject(context)));
	} catch (error) {
		const known = fromBindingError(error);
		if (known === undefined) {
			console.error("r2 custom domain: unexpected error", error);
			return text(500, "500 Internal Server Error", head);
		}
		return errorAnswer(known, head);
	}
}

/** `answer` without the dialects' headers, its body as it is (`encodeBody: "manual"`, as the gateway sent it). */
function publicOnly(answer: Response): Response {
	const headers = new Headers();
	for (const [name, value] of answer.headers) if (!DIALECT_HEADER.test(name)) headers.set(name, value);
	return new Response(answer.body, { status: answer.status, headers, encodeBody: "manual" });
}

/** A gateway error as a public answer: its status with a line of text, and its Content-Range (416). */
function errorAnswer(error: GatewayError, head: boolean): Response {
	if (error.kind === "NoSuchKey") return notFound(head);
	const headers = new Headers();
	const range = error.headers.get("content-range");
	if (range !== null) headers.set("content-range", range);
	for (const validator of ["etag", "last-modified"]) {
		const value = error.headers.get(validator);
		if (value !== null) headers.set(validator, value);
	}
	return text(error.status, `${error.status} ${error.message}`, head, headers);
}

/** R2's 404 for a missing key or the bucket's root. */
const notFound = (head: boolean) => text(404, "404 Not Found", head);

/** A plain-text answer; HEAD's has no body (RFC 9110 §9.3.2). */
function text(status: number, body: string, head: boolean, headers = new Headers()): Response {
	headers.set("content-type", "text/plain;charset=UTF-8");
	return new Response(head ? null : body, { status, headers });
}
