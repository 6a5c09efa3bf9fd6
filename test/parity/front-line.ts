/**
 * An emulation of what Cloudflare's front line does to an answer for a client that accepts no
 * content coding, as wrangler dev applies it (Miniflare's entry worker, `ensureAcceptableEncoding`;
 * BENCHMARKS.md, "Stored Content-Encoding"). Inside vitest the Worker is called directly, with no
 * front line, so tests that must show what passes it wrap their fetch with this.
 */
import type { FetchLike } from "../../src/client";

/** Types the front line compresses and decodes (its list starts with these); no type counts too. */
const COMPRESSIBLE = /^(text\/|application\/(json|javascript)|image\/svg\+xml|$)/;

/**
 * `fetch` with answers passed through the front line: one with `Content-Encoding: gzip` and a
 * compressible type, to a request whose Accept-Encoding does not take gzip, is decoded on the way
 * and loses its Content-Encoding and Content-Length. Bytes that are not gzip make the body fail
 * mid-stream, as the front line drops the connection.
 */
export function throughFrontLine(fetch: FetchLike): FetchLike {
	return async (input, init) => {
		const response = await fetch(input, init);
		const accepted = new Headers(init?.headers).get("accept-encoding") ?? "";
		const type = response.headers.get("content-type") ?? "";
		if (
			response.headers.get("content-encoding") !== "gzip" ||
			accepted.includes("gzip") ||
			!COMPRESSIBLE.test(type) ||
			response.body === null
		) {
			return response;
		}
		const headers = new Headers(response.headers);
		headers.delete("content-encoding");
		headers.delete("content-length");
		const body = response.body.pipeThrough(new DecompressionStream("gzip"));
		return new Response(body, { status: response.status, headers });
	};
}
