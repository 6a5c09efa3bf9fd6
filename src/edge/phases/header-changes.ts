/**
 * What a header rule (`rewrite` with `headers`) does to a set of headers, shared by the request
 * and the response header rules (developers.cloudflare.com/rules/transform/request-header-modification/
 * and response-header-modification/): `set` replaces every header of the name, `add` appends one,
 * `remove` removes every one; a `set` or `add` whose expression gives an empty or no value removes
 * the header ("an expression evaluating to an empty string or undefined removes the header"); an
 * expression's value is sent as its UTF-8 bytes.
 * Matching rules apply in rule order, against the field values as the phase began.
 */
import type { Evaluation, Scheme, ValueExpression } from "../../rules-language";
import type { Rule } from "../../zone/phases/actions";
import { type CompiledPhase, compilePhase, storedValue } from "./state";

/**
 * What a header's value may hold (RFC 9110 §5.5: no CR, LF or NUL; one byte per char): an
 * expression's value that does not fit changes nothing (edgezone's choice; Cloudflare's is not
 * documented).
 */
const HEADER_VALUE = /^[^\r\n\0\u0100-\uffff]*$/;

/** One header's change, its value compiled. */
interface HeaderChange {
	name: string;
	operation: "set" | "add" | "remove";
	value?: string | ValueExpression;
}

/** The header changes of the `rewrite` rules of `rules`, compiled. */
export function compileHeaderRules(rules: readonly Rule[], scheme: Scheme): CompiledPhase<HeaderChange[]> {
	return compilePhase(
		rules,
		(rule) => {
			if (rule.action !== "rewrite" || rule.action_parameters.headers === undefined) return undefined;
			const changes = Object.entries(rule.action_parameters.headers).map(([name, change]): HeaderChange => {
				if (change.operation === "remove") return { name, operation: "remove" };
				const value = change.value ?? storedValue(change.expression ?? "", scheme, true);
				return { name, operation: change.operation, value };
			});
			return {
				parameters: changes,
				values: changes.flatMap((c) => (typeof c.value === "object" ? [c.value] : [])),
			};
		},
		scheme,
	);
}

/**
 * Applies the changes of every rule of `phase` that matches `values` to `headers`, in order.
 * @returns whether a rule matched.
 */
export function applyHeaderRules(phase: CompiledPhase<HeaderChange[]>, values: Evaluation, headers: Headers): boolean {
	let matched = false;
	for (const { filter, parameters } of phase.rules) {
		if (!filter.matchesIn(values)) continue;
		matched = true;
		for (const { name, operation, value } of parameters) {
			// An expression's value goes out as its UTF-8 bytes, as a header's value is written.
			const text = typeof value === "object" ? value.bytesIn(values) : value;
			if (operation === "remove" || text === undefined || text === "") headers.delete(name);
			else if (!HEADER_VALUE.test(text)) continue;
			else if (operation === "set") headers.set(name, text);
			else headers.append(name, text);
		}
	}
	return matched;
}
