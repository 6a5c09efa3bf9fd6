/**
 * S3 requests to the Worker's front door, signed with aws4fetch (github.com/mhart/aws4fetch) as
 * an S3 client signs them, with the credentials R2 derives from an API token: Access Key ID the
 * token's id, Secret Access Key the hex SHA-256 of its value (developers.cloudflare.com/r2/api/tokens/).
 */
import { env, exports } from "cloudflare:workers";
import { AwsClient } from "aws4fetch";
import { XMLParser } from "fast-xml-parser";
import { expect } from "vitest";
import { apiTokenId } from "../../src/common/api-tokens";
import { toHex } from "../../src/common/encoding";
import { TOKEN } from "../api/credentials";

/** The origin of every S3 request in the tests (path-style addressing). */
export const ORIGIN = "http://s3.test";

/** The bucket wrangler.toml declares for `BUCKET`, and its binding. */
export const BUCKET = "edgezone-bucket";
export const bucket = (): R2Bucket => env.BUCKET;

/** Lower-case hex SHA-256 of a string or bytes. */
export async function sha256Hex(data: string | Uint8Array<ArrayBuffer>): Promise<string> {
	const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
	return toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)));
}

/** The S3 credentials of an API token; `id` when its entry declares one. */
export async function credentialsOf(
	token: string,
	id?: string,
): Promise<{ accessKeyId: string; secretAccessKey: string }> {
	return { accessKeyId: id ?? (await apiTokenId(token, undefined)), secretAccessKey: await sha256Hex(token) };
}

/** An aws4fetch client signing as `token` (TOKEN, an admin token, unless told). */
export async function clientOf(
	token: string = TOKEN,
	options: { id?: string; secretAccessKey?: string; accessKeyId?: string } = {},
): Promise<AwsClient> {
	const derived = await credentialsOf(token, options.id);
	return new AwsClient({
		accessKeyId: options.accessKeyId ?? derived.accessKeyId,
		secretAccessKey: options.secretAccessKey ?? derived.secretAccessKey,
		service: "s3",
		region: "auto",
	});
}

type SignInit = RequestInit & { aws?: { signQuery?: boolean; datetime?: string; allHeaders?: boolean } };

/** A signed S3 request to `path` (on `origin`, ORIGIN unless told) through `exports.default.fetch`. */
export async function s3(path: string, init: SignInit = {}, client?: AwsClient, origin = ORIGIN): Promise<Response> {
	const signer = client ?? (await clientOf());
	const request = await signer.sign(`${origin}${path}`, init);
	return exports.default.fetch(request);
}

/** A presigned URL for `path` (GET unless told), valid `expires` seconds from `datetime`. */
export async function presign(
	path: string,
	options: { method?: string; expires?: number; datetime?: string } = {},
): Promise<string> {
	const url = new URL(`${ORIGIN}${path}`);
	if (options.expires !== undefined) url.searchParams.set("X-Amz-Expires", String(options.expires));
	const client = await clientOf();
	const signed = await client.sign(url.toString(), {
		method: options.method ?? "GET",
		aws: { signQuery: true, datetime: options.datetime },
	});
	return signed.url;
}

/** An X-Amz-Date `ms` milliseconds from now. */
export const amzDate = (ms = 0) => new Date(Date.now() + ms).toISOString().replace(/[:-]|\.\d{3}/g, "");

const parser = new XMLParser({
	ignoreAttributes: false,
	parseTagValue: false,
	isArray: (name) => ["Contents", "CommonPrefixes", "Bucket"].includes(name),
});

/**
 * An object's bytes as UTF-8, whatever its Content-Type: `Response.text()` on an object stored
 * without a text type draws workerd's "does not appear to be text" warning.
 */
export async function textOf(response: Response): Promise<string> {
	return new TextDecoder().decode(await response.arrayBuffer());
}

/** An S3 `<Error>` document, parsed. */
interface S3ErrorXml {
	Error: Record<string, string>;
}

/**
 * An XML answer's document, parsed into the shape the caller names (every value a string;
 * Contents, CommonPrefixes and Bucket always arrays).
 */
export async function xmlOf<T>(response: Response): Promise<T> {
	expect(response.headers.get("content-type")).toBe("application/xml");
	return parser.parse(await response.text());
}

/**
 * Asserts an S3 error answer: its status, `x-amz-request-id`, and (but for HEAD, which has no
 * body) the XML `<Error>` with its code. Consumes the body.
 * @returns the `<Error>` element, or undefined for HEAD.
 */
export async function expectS3Error(
	response: Response,
	status: number,
	code: string,
): Promise<Record<string, string> | undefined> {
	expect(response.status).toBe(status);
	expect(response.headers.get("x-amz-request-id")).toMatch(/^[0-9a-f]{16}$/);
	if (response.body === null) return undefined;
	const { Error: error } = await xmlOf<S3ErrorXml>(response);
	expect(error.Code).toBe(code);
	expect(error.RequestId).toBe(response.headers.get("x-amz-request-id"));
	return error;
}
