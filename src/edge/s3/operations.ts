/**
 * Which S3 operation a request asks for, from its method, its path (path-style addressing:
 * `/<bucket>/<key>`) and its sub-resource query parameter, with the access it needs and its
 * handler (https://docs.aws.amazon.com/AmazonS3/latest/API/API_Operations_Amazon_Simple_Storage_Service.html).
 * An operation without a handler is answered 501 NotImplemented naming it: those R2 does not
 * implement (https://developers.cloudflare.com/r2/api/s3/api/), and those this dialect does not
 * do yet.
 *
 * The operations are one table (`S3_OPERATIONS`): each entry says how a request spells it, S3's
 * name, the access it needs (`S3Access`, which `authorize` in `permissions.ts` checks for every
 * request, `app.ts`) and its handler. A request is the first entry its spelling matches, so an
 * operation that is not in the table is never served, and none is in it without an access.
 */
import { assertKey } from "../gateway/keys";
import { isTransportParameter } from "./auth/detect";
import type { S3Access } from "./auth/permissions";
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

/** How a request spells an operation. */
interface Spelling {
	method: "GET" | "HEAD" | "PUT" | "POST" | "DELETE";
	/** What the path names. */
	target: S3Address["kind"];
	/**
	 * The query parameters that pick it, all of them; `name=value` picks that value. `{name}` in
	 * the operation's name is the parameter's value (`ListObjectsV{list-type}`).
	 */
	flags: readonly string[];
	/** A header whose presence picks it. */
	header?: "x-amz-copy-source";
	/**
	 * It takes no query parameter but the transport's (`isTransportParameter`): any other is
	 * refused together, as R2 refuses them on a PUT or DELETE of a bucket rather than creating or
	 * deleting it (workers-sdk, packages/miniflare/src/workers/r2/s3/detect.worker.ts).
	 */
	bare?: true;
}

/** An entry of the operation table: its spelling and the operation. */
export type S3TableEntry = Spelling & S3Operation;

type Method = Spelling["method"];
type Handler = (c: S3Context) => Promise<Response>;

const onBucket = (method: Method, flags: string[], name: string, access: S3Access, handle?: Handler): S3TableEntry => ({
	target: "bucket",
	method,
	flags,
	scope: "bucket",
	name,
	access,
	handle,
});

const onObject = (
	method: Method,
	flags: string[],
	name: string,
	access: S3Access,
	handle?: Handler,
	header?: Spelling["header"],
): S3TableEntry => ({
	target: "object",
	method,
	flags,
	...(header === undefined ? {} : { header }),
	scope: "bucket",
	name,
	access,
	handle,
});

const VERBS: Record<Method, string> = { GET: "Get", HEAD: "Head", PUT: "Put", DELETE: "Delete", POST: "Post" };

/**
 * Sub-resources of a bucket (S3's query flags) R2 does not implement, by the name S3 gives their
 * operations; each is named with its method's verb (`GetBucketWebsite`), bucket configuration: an
 * Admin access to read it, Admin Read & Write for any other method. A HEAD of a bucket has none:
 * R2 answers it as HeadBucket whatever its query (detect.worker.ts, above).
 */
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
const OBJECT_SUBRESOURCES: Partial<Record<Method, Record<string, string>>> = {
	GET: {
		acl: "GetObjectAcl",
		attributes: "GetObjectAttributes",
		"legal-hold": "GetObjectLegalHold",
		retention: "GetObjectRetention",
		tagging: "GetObjectTagging",
		torrent: "GetObjectTorrent",
	},
	PUT: {
		acl: "PutObjectAcl",
		"legal-hold": "PutObjectLegalHold",
		retention: "PutObjectRetention",
		tagging: "PutObjectTagging",
	},
	POST: { restore: "RestoreObject", select: "SelectObjectContent" },
	DELETE: { tagging: "DeleteObjectTagging" },
};

/** The operations this dialect does on a bucket's sub-resources, and the ones R2 answers the same for every bucket (`bucket-defaults.ts`). */
const BUCKET_CONFIGURATIONS: S3TableEntry[] = [
	onBucket("GET", ["location"], "GetBucketLocation", "read", getBucketLocation),
	onBucket("GET", ["uploads"], "ListMultipartUploads", "read", listMultipartUploads),
	onBucket("GET", ["versions"], "ListObjectVersions", "read"),
	onBucket("POST", ["delete"], "DeleteObjects", "write", deleteObjects),
	onBucket("GET", ["cors"], "GetBucketCors", "read-bucket-config", getBucketCors),
	onBucket("PUT", ["cors"], "PutBucketCors", "manage-buckets", putBucketCors),
	onBucket("DELETE", ["cors"], "DeleteBucketCors", "manage-buckets", deleteBucketCors),
	onBucket("GET", ["lifecycle"], "GetBucketLifecycleConfiguration", "read-bucket-config", getBucketLifecycle),
	onBucket("PUT", ["lifecycle"], "PutBucketLifecycleConfiguration", "manage-buckets", putBucketLifecycle),
	onBucket("DELETE", ["lifecycle"], "DeleteBucketLifecycle", "manage-buckets", deleteBucketLifecycle),
	onBucket("GET", ["acl"], "GetBucketAcl", "read-bucket-config", getBucketAcl),
	onBucket("GET", ["encryption"], "GetBucketEncryption", "read-bucket-config", getBucketEncryption),
	onBucket("GET", ["object-lock"], "GetObjectLockConfiguration", "read-bucket-config", getObjectLockConfiguration),
	onBucket("GET", ["replication"], "GetBucketReplication", "read-bucket-config", getBucketReplication),
	onBucket("GET", ["tagging"], "GetBucketTagging", "read-bucket-config", getBucketTagging),
	onBucket("GET", ["versioning"], "GetBucketVersioning", "read-bucket-config", getBucketVersioning),
];

const sameSpelling = (a: Spelling, b: Spelling) =>
	a.target === b.target && a.method === b.method && a.header === b.header && a.flags.join("&") === b.flags.join("&");

/** `entries` without those an earlier one spells the same way (and so would never be reached). */
const reachable = (entries: S3TableEntry[]) =>
	entries.filter((entry, i) => !entries.slice(0, i).some((earlier) => sameSpelling(earlier, entry)));

/**
 * Every operation, in the order a request is matched against them: the first whose method,
 * target, flags and header the request has is its operation, so the more specific spellings
 * come first and an operation without flags (ListObjects, PutObject, ...) last.
 */
export const S3_OPERATIONS: readonly S3TableEntry[] = reachable([
	{
		target: "service",
		method: "GET",
		flags: [],
		scope: "service",
		name: "ListBuckets",
		access: "list-buckets",
		handle: listBuckets,
	},
	// R2 answers a HEAD of a bucket as HeadBucket whatever its query (detect.worker.ts, above).
	onBucket("HEAD", [], "HeadBucket", "read", headBucket),
	...BUCKET_CONFIGURATIONS,
	...Object.entries(BUCKET_SUBRESOURCES).flatMap(([flag, sub]) =>
		(["GET", "PUT", "DELETE", "POST"] as const).map((method) =>
			onBucket(
				method,
				[flag],
				`${VERBS[method]}Bucket${sub}`,
				method === "GET" ? "read-bucket-config" : "manage-buckets",
			),
		),
	),
	onBucket("GET", ["list-type=2"], "ListObjectsV2", "read", listObjectsV2),
	onBucket("GET", ["list-type"], "ListObjectsV{list-type}", "read"),
	onBucket("GET", [], "ListObjects", "read", listObjectsV1),
	{ ...onBucket("PUT", [], "CreateBucket", "manage-buckets"), scope: "bucket-name", handle: createBucket, bare: true },
	{ ...onBucket("DELETE", [], "DeleteBucket", "manage-buckets", deleteBucket), bare: true },
	onObject("GET", ["uploadId"], "ListParts", "read", listParts),
	onObject("POST", ["uploadId"], "CompleteMultipartUpload", "write", completeMultipartUpload),
	onObject("DELETE", ["uploadId"], "AbortMultipartUpload", "write", abortMultipartUpload),
	onObject("PUT", ["uploadId", "partNumber"], "UploadPartCopy", "write", uploadPartCopy, "x-amz-copy-source"),
	onObject("PUT", ["uploadId", "partNumber"], "UploadPart", "write", uploadPart),
	onObject("POST", ["uploads"], "CreateMultipartUpload", "write", createMultipartUpload),
	...Object.entries(OBJECT_SUBRESOURCES).flatMap(([method, subs]) =>
		Object.entries(subs).map(([flag, name]) =>
			onObject(method as Method, [flag], name, method === "GET" ? "read" : "write"),
		),
	),
	onObject("GET", [], "GetObject", "read", getObject),
	onObject("HEAD", [], "HeadObject", "read", headObject),
	onObject("PUT", [], "CopyObject", "write", copyObject, "x-amz-copy-source"),
	onObject("PUT", [], "PutObject", "write", putObject),
	onObject("DELETE", [], "DeleteObject", "write", deleteObject),
]);

/** Whether a query has `flag`: a parameter by its own name (`?toString` names nothing else), or `name=value`. */
function hasFlag(query: URLSearchParams, flag: string): boolean {
	const equals = flag.indexOf("=");
	return equals < 0 ? query.has(flag) : query.get(flag.slice(0, equals)) === flag.slice(equals + 1);
}

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
 * Refuses every query parameter but the transport's (`isTransportParameter`) together, for an
 * operation that takes none (`bare`).
 * @throws S3Error 400 InvalidArgument naming them.
 */
function refuseParameters(method: string, query: URLSearchParams): void {
	const names = [...new Set(query.keys())].filter((name) => !isTransportParameter(name));
	if (names.length === 0) return;
	const named = names.map((name) => `"${name}"`).join(", ");
	throw new S3Error("InvalidArgument", `Unsupported search param(s) ${named} on a ${method} bucket route`);
}

/**
 * The operation a request asks for at `address`: the first entry of `S3_OPERATIONS` its
 * spelling matches.
 * @throws S3Error 405 MethodNotAllowed for a method S3 has no operation for there; 400
 * InvalidArgument for a parameter an operation that takes none was sent (`bare`).
 */
export function operationOf(request: Request, url: URL, address: S3Address): S3Operation {
	const query = url.searchParams;
	const entry = S3_OPERATIONS.find(
		(candidate) =>
			candidate.target === address.kind &&
			candidate.method === request.method &&
			candidate.flags.every((flag) => hasFlag(query, flag)) &&
			(candidate.header === undefined || request.headers.has(candidate.header)),
	);
	if (entry === undefined) {
		throw new S3Error("MethodNotAllowed", undefined, {
			Method: request.method,
			ResourceType: address.kind.toUpperCase(),
		});
	}
	if (entry.bare) refuseParameters(request.method, query);
	if (!entry.name.includes("{")) return entry;
	return { ...entry, name: entry.name.replace(/\{([^}]+)\}/g, (_, name: string) => query.get(name) ?? "") };
}
