/**
 * An isolate's compiled expressions, by expression text: a rule's compiled form is kept while
 * the rule keeps its expression, so writing one rule (its description, its action, another
 * rule's expression) compiles no other rule again, at the edge (`edge/firewall.ts`, once per
 * configuration version) or on the API's write (`zone/expressions.ts`, which checks every rule
 * of a ruleset it is given). A compiled regex also keeps its lazy DFA's states across requests
 * (re2js), so an unchanged rule stays warm.
 *
 * Bounded by entries (`MAX_ENTRIES`), the least recently used going first: compiling is pure
 * (the same text always gives an equivalent filter or the same error), so an evicted entry only
 * costs its compilation again. Only `compile(expression)` with Cloudflare's fields (a request
 * phase's, or a response phase's: `fields.ts`) and no named lists is kept, with the limits on
 * regular expressions (an expression written) or without them (one stored before they were set,
 * `edge/firewall.ts`); a caller with other options calls `compile` itself.
 */
import type { Scheme } from "./fields.ts";
import { compile, schemeFields } from "./index.ts";

type Compiled = ReturnType<typeof compile>;

/**
 * Expressions kept: a zone holds at most 1,000 firewall rules and 100 custom rules
 * (`zone/limits.ts`), so a few zones' worth of rules stay compiled.
 */
const MAX_ENTRIES = 4096;

const entries = new Map<string, Compiled>();

/** What the cache did since the isolate started: answers it kept, and compilations it ran. */
const counts = { hits: 0, compilations: 0 };

/**
 * `compile(expression, { regexLimits, fields })`, from the isolate's cache when this text was
 * compiled so before.
 * @param regexLimits whether the limits on the expression's regular expressions apply (`parser.ts`).
 * @param scheme the phase's fields: a request phase's (Cloudflare's request fields) or a response phase's.
 */
export function compileCached(expression: string, regexLimits = true, scheme: Scheme = "request"): Compiled {
	const key = `${regexLimits ? "written" : "stored"} ${scheme} ${expression}`;
	const kept = entries.get(key);
	if (kept !== undefined) {
		counts.hits++;
		// Set anew: the Map's order is that of use, so its first key is the least recently used.
		entries.delete(key);
		entries.set(key, kept);
		return kept;
	}
	counts.compilations++;
	const compiled = compile(expression, { regexLimits, fields: schemeFields(scheme) });
	entries.set(key, compiled);
	if (entries.size > MAX_ENTRIES) {
		const [oldest] = entries.keys();
		if (oldest !== undefined) entries.delete(oldest);
	}
	return compiled;
}

/** How many `compileCached` calls were answered from the cache and how many compiled, in this isolate. */
export function compiledCacheCounts(): { readonly hits: number; readonly compilations: number } {
	return { ...counts };
}
