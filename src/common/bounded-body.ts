/**
 * A request body read whole, but no further than a limit: what a parser that needs the whole body
 * (JSON, a form) reads, so that no body costs more memory than its route allows. A
 * `Content-Length` past the limit is refused before a byte is read.
 */

/** The bytes of `request`'s body (empty without one), or undefined once they pass `limit` bytes. */
export async function boundedBody(request: Request, limit: number): Promise<Uint8Array | undefined> {
	if (Number(request.headers.get("Content-Length")) > limit) return undefined;
	if (request.body === null) return new Uint8Array();
	const chunks: Uint8Array[] = [];
	let bytes = 0;
	for await (const chunk of request.body) {
		bytes += chunk.byteLength;
		if (bytes > limit) return undefined;
		chunks.push(chunk);
	}
	const whole = new Uint8Array(bytes);
	let at = 0;
	for (const chunk of chunks) {
		whole.set(chunk, at);
		at += chunk.byteLength;
	}
	return whole;
}
