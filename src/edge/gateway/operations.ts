/**
 * Which binding operation a request asks for: the method and the query flags pick it, the path
 * is the key (docs/gateway.md, "Operations"; the same scheme as R2's S3 API, `?uploads`,
 * `?uploadId`, `?delete`).
 *
 * Each operation names the query parameters it takes, and a request naming any other is a 400
 * that names it, never a different operation: `DELETE /k?partNumber=1` is refused rather than
 * deleting `k`, and a parameter given twice is refused rather than one of its values picked.
 *
 * One exception, deliberate: `GET` and `HEAD` of an object ignore parameters the gateway gives no
 * meaning to, so cache busters (`/app.js?v=3`) read the object. R2's public buckets (r2.dev and
 * custom domains) serve the object whatever the query string, and S3's GetObject ignores
 * parameters it does not know. What they do not ignore is refused here instead: the names of the
 * gateway's own operations (`/?prefix=a` without `list` would otherwise read the empty key) and
 * S3's sub-resources and overrides of GetObject (`versionId`, `response-content-type`, `acl`, …;
 * docs.aws.amazon.com/AmazonS3/latest/API/API_GetObject.html), whose answer would be another one.
 */
import type { Access } from "./auth";
import type { GatewayContext } from "./context";
import { badRequest, methodNotAllowed } from "./errors";
import { KEY_PARAM } from "./keys";
import { deleteObjects, listObjects } from "./list";
import { abortMultipartUpload, completeMultipartUpload, createMultipartUpload, uploadPart } from "./multipart";
import { deleteObject, getObject, headObject, putObject } from "./object";

/** One operation: how a request spells it, the access it needs and its handler. */
interface Operation {
	method: "GET" | "HEAD" | "PUT" | "POST" | "DELETE";
	/** The request's shape, for error messages. */
	form: string;
	/** Whether it acts on the bucket, and so takes only the path `/`. */
	bucket?: true;
	/** Query parameters whose presence picks this operation (all of them). */
	flags: readonly string[];
	/** Further query parameters it takes. */
	params?: readonly string[];
	/** Whether parameters outside RESERVED are ignored rather than refused (reads of an object). */
	ignoresOthers?: true;
	access: Access;
	handle: (c: GatewayContext) => Promise<Response>;
}

const LIST_PARAMS = ["prefix", "delimiter", "cursor", "startAfter", "limit", "include"];

/** Per method, the most specific spelling first: the first whose flags are all present is the operation. */
const OPERATIONS: readonly Operation[] = [
	{
		method: "GET",
		form: "GET /?list&prefix=&delimiter=&cursor=&startAfter=&limit=&include=",
		bucket: true,
		flags: ["list"],
		params: LIST_PARAMS,
		access: "list",
		handle: listObjects,
	},
	{ method: "GET", form: "GET /{key}", flags: [], ignoresOthers: true, access: "read", handle: getObject },
	{ method: "HEAD", form: "HEAD /{key}", flags: [], ignoresOthers: true, access: "read", handle: headObject },
	{
		method: "PUT",
		form: "PUT /{key}?uploadId={id}&partNumber={n}",
		flags: ["uploadId", "partNumber"],
		access: "write",
		handle: uploadPart,
	},
	{ method: "PUT", form: "PUT /{key}", flags: [], access: "write", handle: putObject },
	{ method: "POST", form: "POST /?delete", bucket: true, flags: ["delete"], access: "write", handle: deleteObjects },
	{ method: "POST", form: "POST /{key}?uploads", flags: ["uploads"], access: "write", handle: createMultipartUpload },
	{
		method: "POST",
		form: "POST /{key}?uploadId={id}",
		flags: ["uploadId"],
		access: "write",
		handle: completeMultipartUpload,
	},
	{
		method: "DELETE",
		form: "DELETE /{key}?uploadId={id}",
		flags: ["uploadId"],
		access: "write",
		handle: abortMultipartUpload,
	},
	{ method: "DELETE", form: "DELETE /{key}", flags: [], access: "write", handle: deleteObject },
];

/** The methods the gateway answers, for `Allow` and CORS. */
export const METHODS: readonly string[] = [...new Set(OPERATIONS.map((operation) => operation.method))];

/** Parameters that may repeat: `include` is a list, given comma-separated or repeated. */
const REPEATABLE = new Set(["include"]);

/**
 * Parameters a read of an object never ignores: every name the gateway gives a meaning, and the
 * S3 GetObject parameters that ask for another answer than the object's current bytes.
 */
const RESERVED = new Set([
	...OPERATIONS.flatMap((operation) => [...operation.flags, ...(operation.params ?? [])]),
	KEY_PARAM,
	"versionId",
	"versions",
	"acl",
	"attributes",
	"legal-hold",
	"retention",
	"tagging",
	"torrent",
	"response-cache-control",
	"response-content-disposition",
	"response-content-encoding",
	"response-content-language",
	"response-content-type",
	"response-expires",
]);

const notTaken = (name: string) => `does not take the query parameter "${name}" here`;

/** What is wrong with a query for `operation`: parameters it does not take, and ones given more than once. */
function queryProblems(query: URLSearchParams, operation: Operation): string[] {
	const taken = new Set([...operation.flags, ...(operation.params ?? []), ...(operation.bucket ? [] : [KEY_PARAM])]);
	const names = [...query.keys()];
	const unknown = names.filter((name) => !taken.has(name) && (operation.ignoresOthers !== true || RESERVED.has(name)));
	const repeated = names.filter((name, i) => taken.has(name) && !REPEATABLE.has(name) && names.indexOf(name) !== i);
	return [
		...[...new Set(unknown)].map(notTaken),
		...[...new Set(repeated)].map((name) => `takes the query parameter "${name}" once`),
	];
}

/** 400 naming what `method` does not take, with the forms it does take. */
function refuse(method: string, problems: string[], forms: Operation[]): never {
	const spellings = forms.map((operation) => operation.form).join(" or ");
	throw badRequest(`${method} ${problems.join(", and ")}: ${method} is ${spellings} (docs/gateway.md, "Operations").`);
}

/**
 * The operation of a request.
 * @throws GatewayError 405 for a method the gateway does not answer, or a POST naming no
 * operation; 400 for a query parameter its operation does not take, or a bucket operation on an
 * object path (`/photos?list`).
 */
export function operationOf(method: string, url: URL): Operation {
	const query = url.searchParams;
	const forms = OPERATIONS.filter((operation) => operation.method === method);
	if (forms.length === 0) throw methodNotAllowed(method, METHODS.join(", "));
	const operation = forms.find((candidate) => candidate.flags.every((flag) => query.has(flag)));
	if (operation === undefined) {
		// A POST with no flag: a POST to a key is not an operation of the binding (there is no append).
		const names = [...new Set(query.keys())];
		if (names.length > 0) refuse(method, names.map(notTaken), forms);
		const others = METHODS.filter((other) => other !== method);
		throw methodNotAllowed(method, others.join(", "));
	}
	if (operation.bucket && url.pathname !== "/") {
		throw badRequest(`?${operation.flags[0]} is an operation on the bucket: send it to /, with prefix= to narrow it.`);
	}
	const problems = queryProblems(query, operation);
	if (problems.length > 0) refuse(method, problems, forms);
	return operation;
}
