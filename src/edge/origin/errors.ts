/**
 * The pages the edge answers when the origin cannot be reached, with Cloudflare's statuses
 * (developers.cloudflare.com/support/troubleshooting/http-status-codes/cloudflare-5xx-errors/ and
 * .../cloudflare-1xxx-errors/):
 * - 521 "Web server is down": the origin refused the connection;
 * - 522 "Connection timed out": no answer within the connect timeout, or an address that reaches
 *   nothing (`address.ts`);
 * - 523 "Origin is unreachable": no route to the origin's address;
 * - 530 with error 1016 "Origin DNS error": the origin's name does not resolve (a CNAME to a name
 *   with no record, a custom hostname with no fallback origin);
 * - error 1000 "DNS points to prohibited IP", the error Cloudflare lists for a proxy loop, as 403:
 *   a request that already passed the edge (its `CDN-Loop` names `cloudflare`) would be sent to an
 *   origin again (the HTTP status of 1000 pages is edgezone's choice: Cloudflare's docs do not
 *   state it).
 * The pages are edgezone's markup in the shape of Cloudflare's (`security-pages.ts`), never cached.
 */
import { NO_STORE, page } from "../security-pages";

/** Why the origin gave no answer. */
export type OriginFailure = "refused" | "timeout" | "unreachable" | "unresolved" | "loop";

const PAGES: Record<OriginFailure, { status: number; code: number; title: string; text: string }> = {
	refused: {
		status: 521,
		code: 521,
		title: "Web server is down",
		text: "The web server refused the connection from Cloudflare: nothing is listening at the origin's address and port.",
	},
	timeout: {
		status: 522,
		code: 522,
		title: "Connection timed out",
		text: "The origin did not answer in time, or its address reaches nothing (a documentation address such as 192.0.2.1; set DEFAULT_ORIGIN_URL to send such records somewhere).",
	},
	unreachable: {
		status: 523,
		code: 523,
		title: "Origin is unreachable",
		text: "Cloudflare could not reach the origin's address.",
	},
	unresolved: {
		status: 530,
		code: 1016,
		title: "Origin DNS error",
		text: "Cloudflare could not resolve the origin's hostname.",
	},
	loop: {
		status: 403,
		code: 1000,
		title: "DNS points to prohibited IP",
		text: "This request already passed through the edge (CDN-Loop): sending it to the origin again would loop.",
	},
};

/** The answer for `failure`: its status and page, naming the error code and the Ray ID. */
export function originErrorAnswer(failure: OriginFailure, rayId: string): Response {
	const { status, code, title, text } = PAGES[failure];
	return new Response(page(`Error ${code} | ${title}`, `Error ${code}: ${title}`, text, rayId), {
		status,
		headers: { "content-type": "text/html; charset=UTF-8", "cache-control": NO_STORE },
	});
}
