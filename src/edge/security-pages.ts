/**
 * The answers Cloudflare's edge gives instead of the origin's when a security rule acts:
 * the block page and the challenge page (docs waf/custom-rules, "block" and challenge
 * actions; cloudflare-challenges/challenge-types/challenge-pages/detect-response).
 *
 * Emulates: `block` as 403 with the block page and its Ray ID, or the rule's custom response
 * (`action_parameters.response`: status, content, content type); every challenge action as
 * 403 with `cf-mitigated: challenge`, the one header Cloudflare documents for telling a
 * challenge from an answer.
 * Gaps: a challenge cannot be solved locally (no challenge platform, no `cf_clearance`), so
 * the page says so and the request never reaches the bucket; the pages are edgezone's own
 * markup in the shape of Cloudflare's, not its exact HTML.
 */
import { html } from "hono/html";

/** A custom block response (WAF custom rules `action_parameters.response`). */
export interface BlockResponse {
	status_code: number;
	content: string;
	content_type: string;
}

/** The challenge actions; `managed_challenge` is the one Cloudflare recommends. */
export type ChallengeAction = "challenge" | "js_challenge" | "managed_challenge";

// Cloudflare's error pages are never cached, by a browser or anything in between.
export const NO_STORE = "private, max-age=0, no-store, no-cache, must-revalidate";

/** A whole HTML page in the shape of Cloudflare's error pages; every value is escaped (hono/html). */
export function page(title: string, heading: string, text: string, rayId: string): string {
	const markup = html`<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>${title}</title><meta name="robots" content="noindex, nofollow"></head>
<body>
<h1>${heading}</h1>
<p>${text}</p>
<p>Cloudflare Ray ID: <strong>${rayId}</strong> &bull; Served by edgezone, a local emulator of Cloudflare's edge</p>
</body>
</html>
`;
	// hono/html answers with a Promise only when a value is one; these are all strings.
	if (markup instanceof Promise) throw new TypeError("hono/html deferred a page made of strings");
	return markup.toString();
}

/** The answer of a `block` rule: its custom response, or 403 with the block page naming the Ray ID. */
export function blockAnswer(rayId: string, custom?: BlockResponse): Response {
	if (custom !== undefined) {
		return new Response(custom.content, {
			status: custom.status_code,
			headers: { "content-type": custom.content_type, "cache-control": NO_STORE },
		});
	}
	const body = page(
		"Attention Required! | Cloudflare",
		"Sorry, you have been blocked",
		"This website is using a security service to protect itself from online attacks. The action you just performed triggered the security solution.",
		rayId,
	);
	return new Response(body, {
		status: 403,
		headers: { "content-type": "text/html; charset=UTF-8", "cache-control": NO_STORE },
	});
}

/** The answer of a challenge rule: 403 with `cf-mitigated: challenge` and a page saying it cannot be solved here. */
export function challengeAnswer(rayId: string, action: ChallengeAction): Response {
	const body = page(
		"Just a moment...",
		"Verifying you are human",
		`A ${action.replaceAll("_", " ")} rule matched this request. On Cloudflare a visitor would solve the challenge here; edgezone cannot run challenges, so this request was not passed on.`,
		rayId,
	);
	return new Response(body, {
		status: 403,
		headers: { "content-type": "text/html; charset=UTF-8", "cf-mitigated": "challenge", "cache-control": NO_STORE },
	});
}

/**
 * The answer when the zone's comparisons would cost this request more than its budget
 * (`rules-language/work-budget.ts`, edgezone's limit, not Cloudflare's): 400, as a request too
 * large for the edge (Cloudflare refuses a URI over 32 KB with 414), with a page naming the limit.
 */
export function comparisonWorkAnswer(rayId: string, limit: number): Response {
	const body = page(
		"Request refused | edgezone",
		"This request is too costly for the zone's rules",
		`The zone's rules (their regular expressions, wildcards and searches) would take more than ${limit} units of work on this request, the most edgezone spends on one request so that no zone's rules can stall the others. This is a limit of the local emulator; Cloudflare would evaluate the rules. Shorten the request, or the zone's patterns.`,
		rayId,
	);
	return new Response(body, {
		status: 400,
		headers: { "content-type": "text/html; charset=UTF-8", "cache-control": NO_STORE },
	});
}
