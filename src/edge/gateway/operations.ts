/**
 * Which binding operation a request asks for: the method and the query flags pick it, the path
 * is the key (docs/gateway.md, "Operations"; the same scheme as R2's S3 API, `?uploads`,
 * `?uploadId`, `?delete`).
 */
import type { Access } from "./auth";
import type { GatewayContext } from "./context";
import { badRequest, methodNotAllowed } from "./errors";
import { deleteObjects, listObjects } from "./list";
import { abortMultipartUpload, completeMultipartUpload, createMultipartUpload, uploadPart } from "./multipart";
import { deleteObject, getObject, headObject, putObject } from "./object";

/** One operation: the access it needs and its handler. */
interface Operation {
	access: Access;
	handle: (c: GatewayContext) => Promise<Response>;
}

const OPERATIONS = {
	head: { access: "read", handle: headObject },
	get: { access: "read", handle: getObject },
	put: { access: "write", handle: putObject },
	delete: { access: "write", handle: deleteObject },
	list: { access: "list", handle: listObjects },
	deleteObjects: { access: "write", handle: deleteObjects },
	createMultipartUpload: { access: "write", handle: createMultipartUpload },
	uploadPart: { access: "write", handle: uploadPart },
	completeMultipartUpload: { access: "write", handle: completeMultipartUpload },
	abortMultipartUpload: { access: "write", handle: abortMultipartUpload },
} satisfies Record<string, Operation>;

/** The methods the gateway answers, for `Allow` and CORS. */
export const METHODS = ["GET", "HEAD", "PUT", "POST", "DELETE"];

/**
 * The operation of a request.
 * @throws GatewayError 400 for a bucket flag on an object path (`/photos?list`), 405 for a method
 * the path does not take.
 */
export function operationOf(method: string, url: URL): Operation {
	const query = url.searchParams;
	const bucketPath = url.pathname === "/";
	const bucketFlag = query.has("list") ? "list" : query.has("delete") && method === "POST" ? "delete" : undefined;
	if (bucketFlag !== undefined && !bucketPath) {
		throw badRequest(`?${bucketFlag} is an operation on the bucket: send it to /, with prefix= to narrow it.`);
	}
	switch (method) {
		case "HEAD":
			return OPERATIONS.head;
		case "GET":
			return bucketFlag === "list" ? OPERATIONS.list : OPERATIONS.get;
		case "PUT":
			if (query.has("partNumber") || query.has("uploadId")) {
				if (!query.has("uploadId")) throw badRequest("partNumber needs the uploadId of its upload.");
				if (!query.has("partNumber")) throw badRequest("A part upload needs partNumber as well as uploadId.");
				return OPERATIONS.uploadPart;
			}
			return OPERATIONS.put;
		case "DELETE":
			return query.has("uploadId") ? OPERATIONS.abortMultipartUpload : OPERATIONS.delete;
		case "POST":
			if (bucketFlag === "delete") return OPERATIONS.deleteObjects;
			if (query.has("uploads")) return OPERATIONS.createMultipartUpload;
			if (query.has("uploadId")) return OPERATIONS.completeMultipartUpload;
			throw methodNotAllowed(method, "GET, HEAD, PUT, DELETE");
		default:
			throw methodNotAllowed(method, METHODS.join(", "));
	}
}
