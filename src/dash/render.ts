/** Renders a page's JSX as an HTML document answer. */
import type { Context } from "hono";
import type { Child } from "hono/jsx";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** `<!DOCTYPE html>` and the rendered node, with `status` (200 by default). */
export async function render(c: Context, node: Child, status: ContentfulStatusCode = 200): Promise<Response> {
	const html = node === null || node === undefined ? "" : await node.toString();
	return c.html(`<!DOCTYPE html>${html}`, status);
}
