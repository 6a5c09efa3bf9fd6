/**
 * What keeps a stored object from running as the dashboard: the headers of every answer of the
 * Bucket page's same-origin proxy (`/zones/{zone_id}/bucket/o/...`, `gateway-call.ts`).
 *
 * The proxy answers on the dashboard's origin, whose pages may load same-origin scripts, and an
 * object's bytes and Content-Type are whatever a gateway token wrote. An HTML object opened in
 * the browser, or an SVG one (an SVG document runs its `<script>` elements when navigated to;
 * inside `<img>` it never does: SVG 2 §2.3, "Processing modes for SVG sub-resource documents",
 * https://www.w3.org/TR/SVG2/conform.html),
 * would run with the signed-in person's session. So every answer carries:
 * - `Content-Security-Policy: sandbox; default-src 'none'`: a document made from it gets an opaque
 *   origin and runs no script (sandbox without `allow-scripts`; CSP 3 §6.3.2,
 *   https://www.w3.org/TR/CSP3/#directive-sandbox, and the iframe sandboxing flags of
 *   https://html.spec.whatwg.org/multipage/browsers.html#sandboxing), loads nothing;
 * - `X-Content-Type-Options: nosniff`: the browser takes the stored type as it is, never guesses
 *   HTML or script from the bytes (https://fetch.spec.whatwg.org/#x-content-type-options-header);
 * - `Content-Disposition: attachment` (the stored value's parameters kept, such as `filename`),
 *   unless the type is one a browser shows as an image, a player or plain text, which no script
 *   runs in: the kinds the object page previews. SVG is not one of them: it is downloaded, while
 *   the sandbox alone would already keep its script from running.
 * `attachment` changes only what a navigation does; the page's previews read the proxy with
 * `fetch` (images, by Range) or `<audio>`/`<video>` (ranges the browser asks), and a download
 * link has its `download` attribute, so every preview works as before. The dashboard's own
 * policy (`app.tsx`) is not added to these answers: this one is stricter.
 */
import { mediaTypeEssence } from "../../common/media-type";

/** The proxy's Content-Security-Policy. */
const OBJECT_CSP = "sandbox; default-src 'none'";

// Types a browser shows without running anything of the object's: raster images (not SVG, and
// not any `+xml` type, which Chromium renders as an XML document that may hold XHTML scripts),
// the audio and video the object page plays, and text shown as text.
const INLINE = new Set([
	"image/png",
	"image/apng",
	"image/jpeg",
	"image/gif",
	"image/webp",
	"image/avif",
	"image/bmp",
	"image/x-icon",
	"image/vnd.microsoft.icon",
	"audio/mpeg",
	"audio/mp4",
	"audio/aac",
	"audio/ogg",
	"audio/opus",
	"audio/wav",
	"audio/wave",
	"audio/x-wav",
	"audio/flac",
	"audio/x-flac",
	"audio/webm",
	"video/mp4",
	"video/webm",
	"video/ogg",
	"video/quicktime",
	"text/plain",
	"application/json",
]);

/** Whether an answer of `contentType` may be shown in the browser rather than downloaded. */
function showsInline(contentType: string | null): boolean {
	return INLINE.has(mediaTypeEssence(contentType));
}

/**
 * The `Content-Disposition` of a proxied answer: the stored one when the type shows inline (or
 * it already says `attachment`); otherwise `attachment` with the stored parameters.
 */
export function dispositionOf(contentType: string | null, stored: string | null): string | null {
	if (showsInline(contentType)) return stored;
	if (stored === null || stored.trim() === "") return "attachment";
	return stored.replace(/^[^;]*/, "attachment");
}

/** The gateway's answer with the proxy's headers (see above); body and status unchanged. */
export function contain(response: Response): Response {
	const headers = new Headers(response.headers);
	headers.set("content-security-policy", OBJECT_CSP);
	headers.set("x-content-type-options", "nosniff");
	const disposition = dispositionOf(headers.get("content-type"), headers.get("content-disposition"));
	if (disposition === null) headers.delete("content-disposition");
	else headers.set("content-disposition", disposition);
	return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
