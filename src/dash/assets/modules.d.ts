/**
 * The browser files of this folder are Text modules (wrangler.toml's `[[rules]]`): importing one
 * gives its text. https://developers.cloudflare.com/workers/wrangler/bundling/
 */
declare module "*.css" {
	const text: string;
	export default text;
}
