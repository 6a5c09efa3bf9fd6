/**
 * What the S3 client tests share (test/node/s3-sdk.node.ts, test/node/s3-cli.node.ts): the S3
 * credentials R2 derives from the API tokens of `.dev.vars.example` ("Access Key ID: the id of the
 * API token; Secret Access Key: the SHA-256 hash of the API token value",
 * https://developers.cloudflare.com/r2/api/tokens/), an `@aws-sdk/client-s3` client on wrangler
 * dev's address (path-style, region `auto`, as R2's docs configure it:
 * https://developers.cloudflare.com/r2/examples/aws/aws-sdk-js-v3/), and RemoteBucket, the native
 * dialect, to read back what S3 stored.
 */
import { createHash } from "node:crypto";
import { S3Client, type S3ClientConfig } from "@aws-sdk/client-s3";
import { apiTokenId, s3SecretOf } from "../../src/common/api-tokens.ts";

/** The bucket wrangler.toml binds as `BUCKET`, which the native dialect serves too. */
export const BUCKET = "edgezone-bucket";

/** API tokens of .dev.vars.example: every zone (R2 Admin Read & Write), read-only, one zone (Object). */
export const DEV_TOKEN = "edgezone_dev_token_000000000000000000000";
export const READ_TOKEN = "edgezone_dev_read_token_0000000000000000";
export const SCOPED_TOKEN = "edgezone_dev_scoped_token_00000000000000";

/** S3 credentials. */
export interface Credentials {
	accessKeyId: string;
	secretAccessKey: string;
}

/** The S3 credentials R2 derives from an API token (no token of .dev.vars.example declares an id). */
export async function credentialsOf(token: string = DEV_TOKEN): Promise<Credentials> {
	return { accessKeyId: await apiTokenId(token, undefined), secretAccessKey: await s3SecretOf(token) };
}

/** An S3 client of `endpoint` as a user configures one for R2, unchanged otherwise; `config` over it. */
export function s3Client(endpoint: string, credentials: Credentials, config: S3ClientConfig = {}): S3Client {
	return new S3Client({ endpoint, forcePathStyle: true, region: "auto", credentials, ...config });
}

/**
 * What these tests use of RemoteBucket (an `R2Bucket`). The client's own types are the Worker's,
 * which this Node-typed project does not load, so the module is imported by a computed name (as
 * test/node/remote-bucket.node.ts does) and read through this shape.
 */
interface NativeObject {
	key: string;
	size: number;
	etag: string;
	storageClass: string;
	httpMetadata: Record<string, unknown>;
	customMetadata: Record<string, string>;
	checksums: { toJSON(): Record<string, string> };
	arrayBuffer(): Promise<ArrayBuffer>;
}
interface NativeUpload {
	uploadId: string;
	uploadPart(partNumber: number, body: unknown): Promise<{ partNumber: number; etag: string }>;
	complete(parts: { partNumber: number; etag: string }[]): Promise<NativeObject>;
}
export interface NativeBucket {
	put(key: string, value: unknown, options?: object): Promise<NativeObject | null>;
	head(key: string): Promise<NativeObject | null>;
	get(key: string): Promise<NativeObject | null>;
	list(options?: object): Promise<{ objects: NativeObject[] }>;
	delete(keys: string | string[]): Promise<void>;
	createMultipartUpload(key: string, options?: object): Promise<NativeUpload>;
	resumeMultipartUpload(key: string, uploadId: string): NativeUpload;
}
const CLIENT = "../../src/client/index.ts";
const { RemoteBucket } = (await import(CLIENT)) as {
	RemoteBucket: new (options: { url: string; token: string }) => NativeBucket;
};

/** RemoteBucket on `url` with the read-write gateway token of .dev.vars.example. */
export const nativeBucket = (url: string): NativeBucket => new RemoteBucket({ url, token: "dev-token" });

/** Lower-case hex SHA-256 of bytes or a string's UTF-8: how these tests compare bodies. */
export const sha256Hex = (data: Uint8Array | string) => createHash("sha256").update(data).digest("hex");

/**
 * An object as the native dialect reads it back: everything S3 and the native dialect both store,
 * its body by SHA-256 (so a difference reads in a line).
 */
export async function storedObject(bucket: NativeBucket, key: string) {
	const object = await bucket.get(key);
	if (object === null) return null;
	return {
		size: object.size,
		etag: object.etag,
		storageClass: object.storageClass,
		httpMetadata: object.httpMetadata,
		customMetadata: object.customMetadata,
		checksums: object.checksums.toJSON(),
		sha256: sha256Hex(new Uint8Array(await object.arrayBuffer())),
	};
}

/** `length` bytes of a fixed pattern (`seed` varies it), the same on every run. */
export function patternBytes(length: number, seed = 1): Uint8Array<ArrayBuffer> {
	const bytes = new Uint8Array(length);
	for (let i = 0; i < length; i++) bytes[i] = (i * 31 + seed * 7 + (i >> 10)) & 255;
	return bytes;
}
