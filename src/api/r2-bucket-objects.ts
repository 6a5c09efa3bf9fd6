/**
 * `/accounts/{account_id}/r2/buckets/{bucket_name}/objects/{key}`: the R2 REST API's objects, as
 * `wrangler r2 object get/put/delete --remote` calls them (wrangler's `src/r2/helpers/object.ts`;
 * the routes are not in Cloudflare's public API reference): `GET` answers the object's bytes with
 * its HTTP metadata, `PUT` streams the body in (Content-Length required; `cf-r2-storage-class`;
 * Content-Type, Content-Disposition, Content-Encoding, Content-Language, Cache-Control, Expires)
 * and answers the object as JSON, `DELETE` answers `{}` whether or not the key existed. Every
 * answer has a body: wrangler takes a bodiless 200 as a failure. Errors are the envelope's, with
 * R2's codes (10007 NoSuchKey, which wrangler reads as "not found"). The bucket is any of the one
 * list (declared or created), through the binding that keeps storage classes, as every dialect.
 */
import type { Context } from "hono";
import { Hono } from "hono";
import { fromBindingError, missingContentLength } from "../edge/gateway/errors";
import { answerOptions, objectHeaders, writeMetadataFromHeaders } from "../edge/gateway/headers";
import { withStorageClasses } from "../edge/s3/storage-class/recorded";
import { withDefaultClass } from "../runtime-buckets/default-class";
import { objectToJson } from "../wire/object-json";
import { failure, ok } from "./envelope";
import { ApiError } from "./errors";
import { readsObjects, writesObjects } from "./permissions";
import { bucketOfPath } from "./r2-buckets";
import type { ApiEnv } from "./types";

/** The bucket (keeping storage classes) and the key the path names. */
async function addressed(c: Context<ApiEnv>): Promise<{ bucket: R2Bucket; key: string }> {
	const found = await bucketOfPath(c);
	const key = c.req.param("key") ?? "";
	const recorded = withStorageClasses(found.bucket, c.env, found.binding);
	return { bucket: withDefaultClass(recorded, found.created?.storageClass), key };
}

/** Runs `answer`, turning the binding's and the gateway helpers' errors into the envelope's. */
async function enveloped(answer: () => Promise<Response>): Promise<Response> {
	try {
		return await answer();
	} catch (error) {
		const known = fromBindingError(error);
		if (known === undefined) throw error;
		return failure(known.status, [{ code: known.code, message: known.message }]);
	}
}

/** 404 10007, as R2 answers a key it does not hold. */
const noSuchKey = () => new ApiError(404, [{ code: 10007, message: "The specified key does not exist." }]);

/** Routes under `/accounts/{account_id}/r2/buckets/{bucket_name}/objects`. */
export const r2BucketObjects = new Hono<ApiEnv>()
	.get("/:key{.+}", readsObjects, (c) =>
		enveloped(async () => {
			const { bucket, key } = await addressed(c);
			const object = await bucket.get(key);
			if (object === null) throw noSuchKey();
			return new Response(object.body, { headers: objectHeaders(object, answerOptions(c.req.raw.headers)) });
		}),
	)
	.put("/:key{.+}", writesObjects, (c) =>
		enveloped(async () => {
			const { bucket, key } = await addressed(c);
			const request = c.req.raw;
			if (request.body !== null && request.headers.get("content-length") === null) {
				throw missingContentLength("Send Content-Length with the object's bytes.");
			}
			const options: R2PutOptions = writeMetadataFromHeaders(request.headers);
			const storageClass = request.headers.get("cf-r2-storage-class");
			if (storageClass !== null) options.storageClass = storageClass;
			return ok(objectToJson(await bucket.put(key, request.body ?? "", options)));
		}),
	)
	.delete("/:key{.+}", writesObjects, (c) =>
		enveloped(async () => {
			const { bucket, key } = await addressed(c);
			await bucket.delete(key);
			return ok({});
		}),
	);
