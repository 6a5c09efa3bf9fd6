/**
 * A bucket created at run time, as a whole `R2Bucket`: the keys under one prefix (its namespace,
 * `<id>/`) of the backing binding `RUNTIME_BUCKETS`. Every key goes in with the prefix and every
 * key comes out without it (an object's, a listing's delimited prefixes, an upload's), so the
 * dialects, which take an `R2Bucket`, serve it as they serve a declared one.
 *
 * The prefix takes part of R2's 1,024-byte key limit (https://developers.cloudflare.com/r2/platform/limits/):
 * a created bucket's keys are 33 bytes shorter at most, which the binding refuses as it refuses
 * any key too long. A listing's `cursor` is the binding's, of the prefixed listing, passed
 * through unchanged.
 */

/** `value` (an object or upload the binding answered) with `key` answered in its stead; all else its own. */
function rekeyed<T extends object>(value: T, key: string, overrides: Record<string, unknown> = {}): T {
	return new Proxy(value, {
		get(target, property) {
			if (property === "key") return key;
			if (typeof property === "string" && Object.hasOwn(overrides, property)) return overrides[property];
			const member: unknown = Reflect.get(target, property, target);
			return typeof member === "function" ? member.bind(target) : member;
		},
	});
}

/**
 * The bucket of the namespace `prefix` (ending in `/`) in `backing` (module comment).
 * @param backing the R2 binding that holds every created bucket.
 */
export function namespacedBucket(backing: R2Bucket, prefix: string): R2Bucket {
	const outer = (key: string) => key.slice(prefix.length);
	const object = <T extends R2Object | null>(found: T): T =>
		found === null ? found : rekeyed(found, outer(found.key));
	const upload = (inner: R2MultipartUpload): R2MultipartUpload =>
		rekeyed(inner, outer(inner.key), {
			complete: async (parts: R2UploadedPart[]) => object(await inner.complete(parts)),
		});
	const bucket: R2Bucket = {
		head: async (key) => object(await backing.head(prefix + key)),
		get: (async (key: string, options?: R2GetOptions) =>
			object(await backing.get(prefix + key, options))) as R2Bucket["get"],
		put: (async (key: string, value: Parameters<R2Bucket["put"]>[1], options?: R2PutOptions) =>
			object(await backing.put(prefix + key, value, options))) as R2Bucket["put"],
		delete: (keys) => backing.delete(typeof keys === "string" ? prefix + keys : keys.map((key) => prefix + key)),
		list: async (options) => {
			const listing: R2ListOptions = { ...options, prefix: prefix + (options?.prefix ?? "") };
			if (options?.startAfter !== undefined) listing.startAfter = prefix + options.startAfter;
			const page = await backing.list(listing);
			return {
				...page,
				objects: page.objects.map((found) => object(found)),
				delimitedPrefixes: page.delimitedPrefixes.map(outer),
			};
		},
		createMultipartUpload: async (key, options) => upload(await backing.createMultipartUpload(prefix + key, options)),
		resumeMultipartUpload: (key, uploadId) => upload(backing.resumeMultipartUpload(prefix + key, uploadId)),
	};
	return bucket;
}
