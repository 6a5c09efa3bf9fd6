/**
 * The one door to the Rules language (`src/rules-language`) for the control plane: whether an
 * expression compiles, and the texts each API wraps the engine's error in (wirefilter
 * `engine/src/ast/parse.rs`, `impl Display for ParseError`), so every API words expression errors
 * in one place.
 *
 * - Filters and firewall rules APIs: the engine's Display text unchanged
 *   (`Filter parsing error (L:C):\n<line>\n<carets> <reason>\n`); the real filters API also answers
 *   the engine text without prefix (developers.cloudflare.com/firewall/api/cf-filters/validation/).
 * - Rulesets API: `'<expr>' is not a valid value for expression because could not parse filter
 *   expression: <engine text>`, the newer wording users report (cloudflare-docs#28223).
 */
import type { Scheme } from "../rules-language";
import { compileCached } from "../rules-language/compiled-cache";

/**
 * The engine's error text for `expression`, or undefined when it compiles. Compiled through the
 * isolate's cache, so a write that restates a ruleset's unchanged rules compiles none of them.
 * @param scheme the fields of the expression's phase: a request phase's, unless a response phase's.
 */
export function expressionError(expression: string, scheme: Scheme = "request"): string | undefined {
	const compiled = compileCached(expression, true, scheme);
	return compiled.ok ? undefined : compiled.error.message;
}

/** The rulesets API's message for an expression that does not compile (cloudflare-docs#28223). */
export function rulesetExpressionMessage(expression: string, engineText: string): string {
	return `'${expression}' is not a valid value for expression because could not parse filter expression: ${engineText}`;
}
