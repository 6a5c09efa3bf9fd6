/**
 * A created bucket's default storage class applied to what is written to it: a PutObject or a
 * multipart upload that names no class gets the bucket's, as R2 gives an object uploaded without
 * one (https://developers.cloudflare.com/r2/buckets/storage-classes/, "the bucket's default
 * storage class"). Wraps the binding that keeps storage classes (`withStorageClasses`), so the
 * class it adds is recorded where the binding forgets it. The class is set on the options object
 * the caller passed, on purpose: a multipart upload's creator records the upload's class in the
 * bucket's ledger from those options (S3's ListMultipartUploads answers it, and its completion
 * records the object's class from it).
 */
import type { BucketStorageClass } from "./names";

/** `bucket` writing `storageClass` when a write names none; `bucket` itself for `Standard`, the binding's own default. */
export function withDefaultClass(bucket: R2Bucket, storageClass: BucketStorageClass | undefined): R2Bucket {
	if (storageClass === undefined || storageClass === "Standard") return bucket;
	const withClass = <T extends { storageClass?: string }>(options: T | undefined): T => {
		const given = options ?? ({} as T);
		given.storageClass ??= storageClass;
		return given;
	};
	const members: Partial<R2Bucket> = {
		put: ((key: string, value: Parameters<R2Bucket["put"]>[1], options?: R2PutOptions) =>
			bucket.put(key, value, withClass(options))) as R2Bucket["put"],
		createMultipartUpload: (key, options) => bucket.createMultipartUpload(key, withClass(options)),
	};
	return new Proxy(bucket, {
		get(target, property) {
			if (typeof property === "string" && property in members) return members[property as keyof R2Bucket];
			const value: unknown = Reflect.get(target, property, target);
			return typeof value === "function" ? value.bind(target) : value;
		},
	});
}
