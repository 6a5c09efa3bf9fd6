/**
 * What workerd prints, unasked, for things the tests do on purpose; `vitest.config.ts` drops
 * these lines from the test output so that a line nobody expected stands out. The plugin drops
 * lines of the same kind itself (`ignoreMessages` in @cloudflare/vitest-plugin's pool:
 * "disconnected: operation canceled", "disconnected: WebSocket was aborted", …) but takes no list
 * of ours, so the filter sits on the streams the pool writes workerd's logs to (stdout for
 * workerd's own exception lines, stderr for warnings).
 *
 * Each entry is a fragment of one line workerd logs, with the tests that cause it:
 * - `read end of pipe was aborted`: the gateway refuses an upload whose body streams (no
 *   Content-Length) before reading it, as it should (a refusal does not wait for a body it will
 *   not store); the test's side of the body's pipe is then aborted (test/gateway/errors.test.ts,
 *   chunked.test.ts).
 * - `reader canceled` in workerd's identity-transform-stream: the gateway cancels the body of an
 *   object it will not send, when a range proves unsatisfiable after the `get` (416), and
 *   Miniflare's R2 simulator, still writing that body, logs the cancel (test/gateway/ranges,
 *   test/s3/objects).
 * - `fixed-length pipe ended prematurely`, then `Error: Network connection lost.` twice as
 *   uncaught (in promise), and `Can't read from request stream because client disconnected.` when
 *   the body came from the request: a body refused as it streams (a wrong signed hash, checksum,
 *   chunk signature or length) ends with an error instead of its last bytes, so that `R2Bucket.put`
 *   or `uploadPart` reading it fails and stores nothing (src/edge/s3/body/body.ts); the runtime and
 *   Miniflare's R2 simulator log the aborted upload. A bare `env.BUCKET.put` of a FixedLengthStream
 *   that errors logs the same three lines, no edgezone code involved (test/s3/checksums,
 *   aws-chunked, objects, multipart).
 * - `Called .text() … "application/x-ndjson`: the `cloudflare` SDK reads Logpull's ndjson answer
 *   with `.text()`, and workerd's text heuristic (src/workerd/util/mimetype.c++, `isText`) counts
 *   only text/*, JSON, XML and JavaScript types as text (test/api/logpull-sdk.test.ts).
 * - `the echo Worker was asked to throw`, twice: the echo fixture behind a Workers route throws on
 *   purpose, and workerd logs the uncaught exception (test/edge/workers-route.test.ts, 1101).
 * - `Connection refused`, `Network connection lost.`, `failed to lookup address information` and
 *   the opaque `internal error` it becomes, `WebSocket disconnected between frames`: the origin
 *   tests reach a port nothing listens on, a name that does not resolve, and close a WebSocket
 *   passed through (test/edge/origin/); workerd logs each failed fetch the edge turns into 521,
 *   530 or a closed socket.
 * - `contains non-ASCII characters`: a header rule's or a redirect's value from an expression goes
 *   into the header as its UTF-8 bytes (`/café`), and workerd warns that a browser would refuse
 *   such a value (test/edge/rules-phases.test.ts).
 */

/** Fragments of the expected lines; a line containing one is dropped, with its `stack:` line. */
const EXPECTED_RUNTIME_LINES = [
	"disconnected: read end of pipe was aborted",
	"identity-transform-stream.c++:291: disconnected: reader canceled",
	"disconnected: fixed-length pipe ended prematurely",
	"Uncaught (in promise); stack = Error: Network connection lost.",
	"Uncaught (in promise); stack = TypeError: Can't read from request stream because client disconnected.",
	"the echo Worker was asked to throw",
	"Called .text() on an HTTP body which does not appear to be text. The body's Content-Type is \"application/x-ndjson",
	"disconnected: Connection refused (os error 111)",
	"disconnected: jsg.Error: Network connection lost.",
	"failed to lookup address information",
	"stack = Error: internal error; reference = ",
	"failed: jsg.Error: internal error; reference = ",
	"WebSocket disconnected between frames without sending `Close`",
	"contains non-ASCII characters",
] as const;

/** A stream as Node's `process.stderr` is, as far as the filter needs it. */
interface Writable {
	write(chunk: unknown, ...rest: unknown[]): boolean;
}

/**
 * Drops the expected lines from what is written to `stream` from now on: a write whose text
 * contains one of EXPECTED_RUNTIME_LINES, and the `stack:` write that follows it when workerd
 * sends the stack apart. Everything else is written unchanged.
 */
export function dropExpectedRuntimeLines(stream: Writable): void {
	const write = stream.write.bind(stream);
	let dropped = false;
	stream.write = (chunk: unknown, ...rest: unknown[]): boolean => {
		const text = typeof chunk === "string" ? chunk : chunk instanceof Uint8Array ? new TextDecoder().decode(chunk) : "";
		const expected =
			EXPECTED_RUNTIME_LINES.some((line) => text.includes(line)) || (dropped && text.startsWith("stack: "));
		dropped = expected;
		if (!expected) return write(chunk, ...rest);
		// Node calls a write's callback, the last argument, once the chunk is flushed; a dropped chunk is done at once.
		const callback = rest.at(-1);
		if (typeof callback === "function") callback();
		return true;
	};
}
