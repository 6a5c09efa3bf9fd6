/**
 * Which S3 operation a request asks for, from its method, its path (path-style addressing:
 * `/<bucket>/<key>`) and its sub-resource query parameter, with the access it needs and its
 * handler (https://docs.aws.amazon.com/AmazonS3/latest/API/API_Operations_Amazon_Simple_Storage_Service.html).
 * An operation without a handler is answered 501 NotImplemented naming it: those R2 does not
 * implement (https://developers.cloudflare.com/r2/api/s3/api/), and those this dialect does not
 * do yet.
 */
import { assertKey } from "../gateway/keys";
import { deleteBucketCors, getBucketCors, putBucketCors } from "./bucket-cors";
import {
	getBucketAcl,
	getBucketEncryption,
	getBucketReplication,
	getBucketTagging,
	getBucketVersioning,
	getObjectLockConfiguration,
} from "./bucket-defaults";
import { deleteBucketLifecycle, getBucketLifecycle, putBucketLifecycle } from "./bucket-lifecycle";
import { createBucket, deleteBucket, getBucketLocation, headBucket, listBuckets } from "./bucket-operations";
import type { BucketNameContext, S3Context, ServiceContext } from "./context";
import { copyObject, uploadPartCopy } from "./copy";
import { deleteObjects } from "./delete-objects";
import { isTransportParameter } from "./detect";
import { S3Error } from "./errors";
import { listObjectsV1, listObjectsV2 } from "./list";
import {
	abortMultipartUpload,
	completeMultipartUpload,
	createMultipartUpload,
	listMultipartUploads,
	listParts,
	uploadPart,
} from "./multipart";
import { deleteObject, getObject, headObject, putObject } from "./object";
import type { S3Access } from "./permissions";

/** One operation: S3's name, the access it needs, and its handler when this dialect does it. */
export type S3Operation =
	| { scope: "service"; name: string; access: S3Access; handle: (c: ServiceContext) => Promise<Response> }
	| { scope: "bucket-name"; name: string; access: S3Access; handle: (c: BucketNameContext) => Promise<Response> }
	| { scope: "bucket"; name: string; access: S3Access; handle?: (c: S3Context) => Promise<Response> };

/** What a path names: the service (`/`), a bucket, or an object of a bucket. */
export type S3Address =
	| { kind: "service" }
	| { kind: "bucket"; bucket: string }
	| { kind: "object"; bucket: string; key: string };

/** Sub-resources of a bucket (S3's query flags), by the name S3 gives their operations. */
const BUCKET_SUBRESOURCES: Record<string, string> = {
	accelerate: "Accelerate",
	acl: "Acl",
	analytics: "AnalyticsConfiguration",
	cors: "Cors",
	encryption: "Encryption",
	"intelligent-tiering": "IntelligentTieringConfiguration",
	inventory: "InventoryConfiguration",
	lifecycle: "Lifecycle",
	logging: "Logging",
	metrics: "MetricsConfiguration",
	notification: "NotificationConfiguration",
	"object-lock": "ObjectLockConfiguration",
	ownershipControls: "OwnershipControls",
	policy: "Policy",
	policyStatus: "PolicyStatus",
	publicAccessBlock: "PublicAccessBlock",
	replication: "Replication",
	requestPayment: "RequestPayment",
	tagging: "Tagging",
	versioning: "Versioning",
	website: "Website",
};

/**
 * Sub-resources of an object, by method, with the name of their operation. A sub-resource with no
 * entry for the method asks for nothing more: R2 answers `HEAD /k?tagging` as HeadObject and
 * `GET /k?restore` as GetObject (workers-sdk, packages/miniflare/src/workers/r2/s3/detect.worker.ts).
 * R2 also answers `DELETE /k?tagging` as DeleteObject; edgezone refuses it instead (NotImplemented
 * naming DeleteObjectTagging), since a client asking to drop an object's tags never means to drop
 * the object.
 */
const OBJECT_SUBRESOURCES = new Map<string, Record<string, string>>([
	[
		"GET",
		{
			acl: "GetObjectAcl",
			attributes: "GetObjectAttributes",
			"legal-hold": "GetObjectLegalHold",
			retention: "GetObjectRetention",
			tagging: "GetObjectTagging",
			torrent: "GetObjectTorrent",
		},
	],
	[
		"PUT",
		{
			acl: "PutObjectAcl",
			"legal-hold": "PutObjectLegalHold",
			retention: "PutObjectRetention",
			tagging: "PutObjectTagging",
		},
	],
	["POST", { restore: "RestoreObject", select: "SelectObjectContent" }],
	["DELETE", { tagging: "DeleteObjectTagging" }],
]);

/**
 * The bucket configurations R2 answers the same for every bucket (`bucket-defaults.ts`), by the
 * sub-resource of their GET.
 */
const BUCKET_DEFAULTS: Record<string, [name: string, handle: (c: S3Context) => Promise<Response>]> = {
	acl: ["GetBucketAcl", getBucketAcl],
	encryption: ["GetBucketEncryption", getBucketEncryption],
	"object-lock": ["GetObjectLockConfiguration", getObjectLockConfiguration],
	replication: ["GetBucketReplication", getBucketReplication],
	tagging: ["GetBucketTagging", getBucketTagging],
	versioning: ["GetBucketVersioning", getBucketVersioning],
};

/** The entry of `table` for the first query parameter it has one for (own entries only: `?toString` names nothing). */
function firstIn<T>(query: URLSearchParams, table: Readonly<Record<string, T>>): T | undefined {
	for (const name of query.keys()) if (Object.hasOwn(table, name)) return table[name];
	return undefined;
}

const VERBS: Record<string, string> = { GET: "Get", PUT: "Put", DELETE: "Delete", POST: "Post" };

const unsupported = (name: string, access: S3Access = "read"): S3Operation => ({ scope: "bucket", name, access });
const handled = (name: string, access: S3Access, handle: (c: S3Context) => Promise<Response>): S3Operation => ({
	scope: "bucket",
	name,
	access,
	handle,
});

/**
 * The bucket and key of a URL, the key percent-decoded once: path-style (`/<bucket>/<key>`), or
 * virtual-host style when the Host named `virtualBucket` (`virtual-host.ts`), the whole path then
 * being the key.
 * @throws S3Error 400 InvalidURI for a malformed escape; the gateway's 400 InvalidObjectName for
 * a key over R2's 1024 bytes.
 */
export function addressOf(url: URL, virtualBucket?: string): S3Address {
	const path = url.pathname.slice(1);
	if (path === "" && virtualBucket === undefined) return { kind: "service" };
	const slash = virtualBucket === undefined ? path.indexOf("/") : -1;
	const rawBucket = virtualBucket ?? (slash < 0 ? path : path.slice(0, slash));
	const rawKey = virtualBucket !== undefined ? path : slash < 0 ? "" : path.slice(slash + 1);
	let bucket: string;
	let key: string;
	try {
		bucket = decodeURIComponent(rawBucket);
		key = decodeURIComponent(rawKey);
	} catch {
		throw new S3Error("InvalidURI", `Couldn't parse the specified URI: ${url.pathname}`);
	}
	if (key === "") return { kind: "bucket", bucket };
	assertKey(key);
	return { kind: "object", bucket, key };
}

/**
 * A PUT or DELETE of a bucket names no sub-resource: any query parameter but the transport's
 * (`isTransportParameter`) is refused together, as R2 refuses them rather than
 * creating or deleting a bucket (workers-sdk, packages/miniflare/src/workers/r2/s3/detect.worker.ts).
 * @throws S3Error 400 InvalidArgument naming them.
 */
function refuseParameters(method: string, query: URLSearchParams): void {
	const names = [...new Set(query.keys())].filter((name) => !isTransportParameter(name));
	if (names.length === 0) return;
	const named = names.map((name) => `"${name}"`).join(", ");
	throw new S3Error("InvalidArgument", `Unsupported search param(s) ${named} on a ${method} bucket route`);
}

/** The operation on a bucket. */
function bucketOperation(method: string, query: URLSearchParams): S3Operation {
	// R2 answers a HEAD of a bucket as HeadBucket whatever its query (detect.worker.ts, above).
	if (method === "HEAD") return handled("HeadBucket", "read", headBucket);
	const verb = Object.hasOwn(VERBS, method) ? VERBS[method] : method;
	if (method === "GET" && query.has("location")) return handled("GetBucketLocation", "read", getBucketLocation);
	if (method === "GET" && query.has("uploads")) return handled("ListMultipartUploads", "read", listMultipartUploads);
	if (method === "GET" && query.has("versions")) return unsupported("ListObjectVersions");
	if (method === "POST" && query.has("delete")) return handled("DeleteObjects", "write", deleteObjects);
	if (query.has("cors")) {
		if (method === "GET") return handled("GetBucketCors", "read-bucket-config", getBucketCors);
		if (method === "PUT") return handled("PutBucketCors", "manage-buckets", putBucketCors);
		if (method === "DELETE") return handled("DeleteBucketCors", "manage-buckets", deleteBucketCors);
	}
	if (query.has("lifecycle")) {
		if (method === "GET") return handled("GetBucketLifecycleConfiguration", "read-bucket-config", getBucketLifecycle);
		if (method === "PUT") return handled("PutBucketLifecycleConfiguration", "manage-buckets", putBucketLifecycle);
		if (method === "DELETE") return handled("DeleteBucketLifecycle", "manage-buckets", deleteBucketLifecycle);
	}
	const configuration = method === "GET" ? firstIn(query, BUCKET_DEFAULTS) : undefined;
	if (configuration !== undefined) return handled(configuration[0], "read-bucket-config", configuration[1]);
	const sub = firstIn(query, BUCKET_SUBRESOURCES);
	if (sub !== undefined) return unsupported(`${verb}Bucket${sub}`, method === "GET" ? "read" : "write");
	switch (method) {
		case "GET": {
			const listType = query.get("list-type");
			if (listType === "2") return handled("ListObjectsV2", "read", listObjectsV2);
			if (listType === null) return handled("ListObjects", "read", listObjectsV1);
			return unsupported(`ListObjectsV${listType}`);
		}
		case "PUT":
			refuseParameters(method, query);
			return { scope: "bucket-name", name: "CreateBucket", access: "manage-buckets", handle: createBucket };
		case "DELETE":
			refuseParameters(method, query);
			return handled("DeleteBucket", "manage-buckets", deleteBucket);
		default:
			throw new S3Error("MethodNotAllowed", undefined, { Method: method, ResourceType: "BUCKET" });
	}
}

/** The operation on an object. */
function objectOperation(request: Request, query: URLSearchParams): S3Operation {
	const method = request.method;
	if (query.has("uploadId")) {
		if (method === "GET") return handled("ListParts", "read", listParts);
		if (method === "POST") return handled("CompleteMultipartUpload", "write", completeMultipartUpload);
		if (method === "DELETE") return handled("AbortMultipartUpload", "write", abortMultipartUpload);
		if (method === "PUT" && query.has("partNumber")) {
			return request.headers.has("x-amz-copy-source")
				? handled("UploadPartCopy", "write", uploadPartCopy)
				: handled("UploadPart", "write", uploadPart);
		}
	}
	if (method === "POST" && query.has("uploads")) {
		return handled("CreateMultipartUpload", "write", createMultipartUpload);
	}
	const sub = firstIn(query, OBJECT_SUBRESOURCES.get(method) ?? {});
	if (sub !== undefined) return unsupported(sub, method === "GET" ? "read" : "write");
	switch (method) {
		case "GET":
			return handled("GetObject", "read", getObject);
		case "HEAD":
			return handled("HeadObject", "read", headObject);
		case "PUT":
			if (request.headers.has("x-amz-copy-source")) return handled("CopyObject", "write", copyObject);
			return handled("PutObject", "write", putObject);
		case "DELETE":
			return handled("DeleteObject", "write", deleteObject);
		default:
			throw new S3Error("MethodNotAllowed", undefined, { Method: method, ResourceType: "OBJECT" });
	}
}

/**
 * The operation a request asks for at `address`.
 * @throws S3Error 405 MethodNotAllowed for a method S3 has no operation for there.
 */
export function operationOf(request: Request, url: URL, address: S3Address): S3Operation {
	if (address.kind === "service") {
		if (request.method === "GET") {
			return { scope: "service", name: "ListBuckets", access: "list-buckets", handle: listBuckets };
		}
		throw new S3Error("MethodNotAllowed", undefined, { Method: request.method, ResourceType: "SERVICE" });
	}
	if (address.kind === "bucket") return bucketOperation(request.method, url.searchParams);
	return objectOperation(request, url.searchParams);
}
