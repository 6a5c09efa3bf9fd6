/**
 * The dashboard's static assets, served from the Worker under `/assets/` so the
 * Content-Security-Policy can forbid inline code: a shared style sheet and script for every page,
 * and each page's own. Pages work without the scripts; they only add conveniences (a confirmation
 * before deleting, focus on the first refused field, live expression checks, upload progress).
 *
 * The files are plain CSS and browser JavaScript in `assets/`, checked by Biome and by tsc
 * (`assets/tsconfig.json`: checkJs with the DOM's types). wrangler.toml's `[[rules]]` bundles them
 * as Text modules (https://developers.cloudflare.com/workers/wrangler/bundling/), so
 * `wrangler dev`, `wrangler deploy` and the vitest pool all import them as strings; they are not
 * Workers static assets, which would answer on every host and shadow an object key of the bucket.
 */
import bucketJs from "./assets/bucket.js";
import dashCss from "./assets/dash.css";
import dashJs from "./assets/dash.js";
import expressionCheckJs from "./assets/expression-check.js";
import sslCss from "./assets/ssl.css";

const CSS = "text/css; charset=utf-8";
const JS = "text/javascript; charset=utf-8";

/** Each asset by its name under `/assets/`: the file's text and its Content-Type. */
export const ASSETS: Record<string, { body: string; type: string }> = {
	"dash.css": { body: dashCss, type: CSS },
	"dash.js": { body: dashJs, type: JS },
	"ssl.css": { body: sslCss, type: CSS },
	"bucket.js": { body: bucketJs, type: JS },
	"expression-check.js": { body: expressionCheckJs, type: JS },
};
