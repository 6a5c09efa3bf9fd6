/**
 * The error table (src/wire/error-codes.ts) as the gateway answers it: every row is reachable,
 * either by a request the gateway refuses itself or by a binding error passed through.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { fromBindingError, GatewayError } from "../../src/edge/gateway/errors";
import { R2_ERRORS, type R2ErrorName } from "../../src/wire/error-codes";
import { errorOf, gw, put, RO, streamOf, withVars } from "./helpers";

/** Requests the gateway refuses itself, one per row it raises; binding rows are below. */
const REQUESTS: [R2ErrorName, () => Promise<Response>][] = [
	["InvalidRequest", () => gw("/errors/x", { headers: { range: "bytes=x" } })],
	[
		"InternalError",
		() => withVars({ GATEWAY_TOKENS: "{" }, "/errors/x", { headers: { authorization: "Bearer test-rw" } }),
	],
	["Unauthorized", () => gw("/errors/x", { token: null })],
	["AccessDenied", () => gw("/errors/denied", { method: "PUT", body: "x", token: RO })],
	["NoSuchBucket", () => gw("/errors/x", { headers: { "x-r2-bucket": "no-such-bucket" } })],
	["NoSuchKey", () => gw("/errors/missing")],
	["InvalidDigest", () => gw("/errors/digest", { method: "PUT", body: "x", headers: { "content-md5": "x" } })],
	["InvalidObjectName", () => gw(`/${"k".repeat(1025)}`)],
	["InvalidMaxKeys", () => gw("/?list&limit=0")],
	["NoSuchUpload", () => gw("/errors/x?uploadId=nope&partNumber=1", { method: "PUT", body: "x" })],
	["PreconditionFailed", () => gw("/errors/cond", { method: "PUT", body: "x", headers: { "if-match": '"nope"' } })],
	[
		"MissingContentLength",
		() =>
			gw("/errors/chunked", {
				method: "PUT",
				body: streamOf(new TextEncoder().encode("x")),
				headers: { "if-none-match": "*" },
				duplex: "half",
			} as RequestInit),
	],
	[
		"BadDigest",
		() => gw("/errors/bad", { method: "PUT", body: "x", headers: { "content-md5": "AAAAAAAAAAAAAAAAAAAAAA==" } }),
	],
	["InvalidRange", () => gw("/errors/range", { headers: { range: "bytes=-0" } })],
	["MethodNotAllowed", () => gw("/errors/x", { method: "PATCH" })],
];

/** Rows only the binding raises: its message form, `"<op>: <message> (<code>)"`. */
const BINDING_ONLY: R2ErrorName[] = [
	"EntityTooSmall",
	"MetadataTooLarge",
	"InvalidPart",
	"InvalidArgument",
	"BadUpload",
	"EntityTooLarge",
];

describe("error table", () => {
	it("reaches every row of the error table, by a request or as binding-only", () => {
		const reached = new Set([...REQUESTS.map(([name]) => name), ...BINDING_ONLY]);
		expect([...reached].sort()).toEqual(Object.keys(R2_ERRORS).sort());
	});

	it.each(REQUESTS)("answers %s with its status and code", async (name, send) => {
		await put("errors/range", "r");
		const response = await send();
		const { status, code } = R2_ERRORS[name];
		expect(response.status).toBe(status);
		expect(response.headers.get("x-r2-error-code")).toBe(String(code));
		expect((await errorOf(response)).code).toBe(code);
	});

	it("stores nothing for the refused writes", async () => {
		for (const key of ["errors/denied", "errors/digest", "errors/cond", "errors/chunked", "errors/bad"]) {
			expect(await env.BUCKET.head(key), key).toBeNull();
		}
	});
});

describe("fromBindingError", () => {
	const passed = (Object.keys(R2_ERRORS) as R2ErrorName[]).filter((name) => "binding" in R2_ERRORS[name]);

	it.each(passed)("maps the binding's %s to its row, with the binding's message", (name) => {
		const { status, code } = R2_ERRORS[name];
		const error = fromBindingError(new Error(`put: Something the binding said: (a) (${code})`));
		expect(error).toBeInstanceOf(GatewayError);
		expect(error?.kind).toBe(name);
		expect(error?.status).toBe(status);
		expect(error?.code).toBe(code);
		expect(error?.message).toBe("Something the binding said: (a)");
	});

	it.each(BINDING_ONLY)("passes %s through", (name) => {
		expect(passed).toContain(name);
	});

	it.each([
		["a code the table does not have", new Error("get: Something new (99999)")],
		["a message without a code", new Error("get: no code")],
		["a thrown string", "put: x (10007)"],
	])("leaves %s to the caller (a 500)", (_, error) => {
		expect(fromBindingError(error)).toBeUndefined();
	});

	it.each([new TypeError("You cannot specify multiple hashing algorithms."), new RangeError("Invalid range")])(
		"answers the binding's argument check %s as a 400",
		(error) => {
			const mapped = fromBindingError(error);
			expect([mapped?.status, mapped?.code, mapped?.message]).toEqual([400, 400, error.message]);
		},
	);
});
