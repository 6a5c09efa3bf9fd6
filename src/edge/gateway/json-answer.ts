/**
 * JSON answers of the gateway: `application/json`, the body ending in a newline so that curl
 * output does not run into the prompt (JSON parsers ignore it: RFC 8259 §2 allows whitespace
 * after the value), and `encodeBody: "manual"`, which the gateway's answers all carry.
 */

/**
 * An answer holding `body` as JSON.
 * @param headers further headers (the object's ETag, an error's headers); Content-Type is set here.
 */
export function jsonAnswer(body: unknown, init: { status?: number; headers?: HeadersInit } = {}): Response {
	const headers = new Headers(init.headers);
	headers.set("content-type", "application/json");
	return new Response(`${JSON.stringify(body)}\n`, { status: init.status ?? 200, headers, encodeBody: "manual" });
}
