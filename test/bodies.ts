/**
 * Reading an answer's body in the tests, with nothing of the Worker imported: a test file that
 * needs only this does not load `src/` into its isolate.
 */

/**
 * An answer's body as UTF-8 text, read as bytes: `Response.text()` warns about a body typed
 * `application/octet-stream` (what the gateway sends for objects without a type), which workerd
 * does not count as text.
 */
export async function textOf(response: Response): Promise<string> {
	return new TextDecoder().decode(await response.arrayBuffer());
}
