/**
 * One request on its way through the zone's phases (`order.ts`): what the visitor sent, and what
 * the phases made of it so far — the URL the rules and the origin see, the route Origin Rules
 * chose, the request headers a transform changed, the firewall's matches — with the helpers every
 * phase shares: its compiled rules, once per configuration version, and its field values, whose
 * comparisons and calls spend one budget of work for all the phases of the request.
 */
import {
	ComparisonWorkExceeded,
	compileValueExpression,
	type Evaluation,
	evaluation,
	type Filter,
	type Scheme,
	type ValueExpression,
	type WorkBudget,
} from "../../rules-language";
import { compileCached } from "../../rules-language/compiled-cache";
import type { EdgeConfig } from "../../zone/edge-config";
import type { Verdict } from "../firewall";
import type { OriginRoute } from "../origin/route";
import { type RequestContext, requestFields } from "../request-fields";
import type { PathReader } from "../request-path";
import { responseFields } from "../response-fields";
import { comparisonWorkAnswer } from "../security-pages";
import { derived, type ZoneView } from "../zone-view";

/** A request between the edge's phases; the phases update the fields below `reader`. */
export interface PhaseState {
	readonly env: Env;
	readonly zoneId: string;
	/** The request's Ray ID (16 hex digits). */
	readonly rayId: string;
	/** When the edge received it, in ms since the epoch. */
	readonly receivedAt: number;
	/** The zone's view at the request's configuration version. */
	readonly view: ZoneView;
	/** The request as the visitor sent it: the log tap records its headers. */
	readonly request: Request;
	/** Its URL as sent, parsed once. */
	readonly url: URL;
	/** Who reads its path at the destination (`request-path.ts`): an origin, the S3 dialect or the gateway's. */
	readonly reader: PathReader;
	/** What the rules' fields read besides the request: the path and query the `http.request.uri*` fields see. */
	context: RequestContext;
	/** The URL the destination is sent: normalized (scope `both`) and rewritten. */
	origin: URL;
	/** The request headers the destination is sent, when a request header rule changed them. */
	headers: Headers | undefined;
	/** Where Origin Rules send the request (`origin/route.ts`); empty when none matched. */
	route: OriginRoute;
	/** The firewall's matches, for the log. */
	matches: Verdict["matches"];
	/** The request's budget of comparison work, shared by the phases' evaluations. */
	readonly work: WorkBudget;
}

/** A rule of a phase, compiled: its id, its filter, and what it does. */
interface CompiledPhaseRule<P> {
	readonly id: string;
	readonly filter: Filter;
	readonly parameters: P;
}

/** A phase's rules compiled, with every field their filters and value expressions read. */
export interface CompiledPhase<P> {
	readonly rules: readonly CompiledPhaseRule<P>[];
	readonly fields: readonly string[];
}

/**
 * A stored filter expression compiled (it was checked on write; one that no longer compiles
 * never matches), from the isolate's cache, as the firewall's (`firewall.ts`).
 */
function filterOf(expression: string, scheme: Scheme): Filter {
	const written = compileCached(expression, true, scheme);
	const result = written.ok ? written : compileCached(expression, false, scheme);
	if (result.ok) return result.filter;
	return { expression, fields: [], matches: () => false, matchesIn: () => false };
}

/**
 * A stored value expression compiled; one that no longer compiles gives no value.
 * @param scheme the fields of its phase: a request phase's, unless a response phase's.
 * @param transform whether it is a Transform Rule's (`compileValueExpression`).
 */
export function storedValue(expression: string, scheme: Scheme = "request", transform = false): ValueExpression {
	const compiled = compileValueExpression(expression, scheme, transform);
	return compiled.ok ? compiled.value : { expression, fields: [], valueIn: () => undefined, bytesIn: () => undefined };
}

/**
 * Compiles the rules of one phase: `parameters` turns each rule into what the phase does, and
 * names the value expressions it compiled, whose fields the phase's evaluation must hold.
 * @param scheme the phase's fields: a request phase's, unless a response phase's.
 */
export function compilePhase<R extends { id: string; expression: string }, P>(
	rules: readonly R[],
	parameters: (rule: R) => { parameters: P; values?: readonly ValueExpression[] } | undefined,
	scheme: Scheme = "request",
): CompiledPhase<P> {
	const fields = new Set<string>();
	const compiled: CompiledPhaseRule<P>[] = [];
	for (const rule of rules) {
		const made = parameters(rule);
		if (made === undefined) continue;
		const filter = filterOf(rule.expression, scheme);
		for (const field of [...filter.fields, ...(made.values ?? []).flatMap((v) => v.fields)]) fields.add(field);
		compiled.push({ id: rule.id, filter, parameters: made.parameters });
	}
	return { rules: compiled, fields: [...fields] };
}

/** The phase's compiled rules for the request's configuration version (`derived`, once per version). */
export function phaseRules<P>(state: PhaseState, compile: (config: EdgeConfig) => CompiledPhase<P>): CompiledPhase<P> {
	return derived(state.view, compile);
}

/**
 * The request's field values as the phase sees them (the URL rewritten by earlier phases; the
 * visitor's headers), for the fields `phase` reads, spending the request's shared budget; in a
 * response phase, with the `response`'s fields (`response-fields.ts`).
 */
export function phaseValues(state: PhaseState, phase: CompiledPhase<unknown>, response?: Response): Evaluation {
	const values = requestFields(state.request, state.url, state.context, phase.fields);
	return evaluation(
		response === undefined ? values : { ...values, ...responseFields(response, phase.fields) },
		undefined,
		state.work,
	);
}

/**
 * Runs `body`; when the request's comparisons would pass its budget (`work-budget.ts`), answers
 * the edge's 400 as the firewall does.
 */
export function withinBudget(state: PhaseState, body: () => Response | undefined): Response | undefined {
	try {
		return body();
	} catch (error) {
		if (!(error instanceof ComparisonWorkExceeded)) throw error;
		console.error(`edgezone rules: zone ${state.zoneId}: ${error.message}; request ${state.rayId} refused`);
		return comparisonWorkAnswer(state.rayId, error.limit);
	}
}
