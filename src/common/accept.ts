/**
 * Whether an `Accept` header asks for an HTML page rather than the JSON an API client reads.
 * The header is parsed by Hono's parser (`hono/utils/accept`: media ranges, parameters, q-values).
 */
import { parseAccept } from "hono/utils/accept";

/**
 * The q-value a header gives `type` (lower case, `main/sub`): that of the most specific range
 * that matches it (RFC 9110 §12.5.1, https://www.rfc-editor.org/rfc/rfc9110#section-12.5.1),
 * 0 when none does. `*\/*` counts only when `wildcard` is true.
 */
function qualityOf(ranges: { type: string; q: number }[], type: string, wildcard: boolean): number {
	const [main] = type.split("/");
	let best: { specificity: number; q: number } = { specificity: 0, q: 0 };
	for (const range of ranges) {
		const name = range.type.toLowerCase();
		const specificity = name === type ? 3 : name === `${main}/*` ? 2 : wildcard && name === "*/*" ? 1 : 0;
		if (specificity > best.specificity) best = { specificity, q: range.q };
	}
	return best.q;
}

/**
 * True when the header names `text/html` (or `text/*`) with a q-value above 0 and above the one
 * it gives `application/json`, as a browser's navigation does (`text/html,...,*\/*;q=0.8`).
 * `*\/*` alone (curl's default), no header, or a tie with JSON are false: an API client keeps
 * its JSON.
 * @param accept the `Accept` header's value, or null when it is absent.
 */
export function prefersHtml(accept: string | null): boolean {
	if (accept === null) return false;
	const ranges = parseAccept(accept);
	const html = qualityOf(ranges, "text/html", false);
	return html > 0 && html > qualityOf(ranges, "application/json", true);
}
