/**
 * The rules of Cloudflare's dashboard Rules > Overview that edgezone runs, one kind per phase
 * (https://developers.cloudflare.com/rules/): Redirect Rules (Single Redirects), URL Rewrite
 * Rules, Request and Response Header Transform Rules, Origin Rules. For each, its section's title,
 * the form's values to the API's rule body and back, where the API's errors belong in the form,
 * and the one-line summary of what a rule does. Pure: the API validates what is sent and the page
 * shows its messages.
 */
import type { EntrypointRule } from "../log-field-rules";

/** A rule form as typed: every field a string, checkboxes "true" or "". */
export type RuleValues = Record<string, string>;

/** A kind of rule: its phase, titles, action, and the translations between its form and its rule. */
export interface RuleKind {
	phase: string;
	/** The section's title, as Cloudflare's dashboard names the product. */
	title: string;
	/** The rule's name in buttons and headings ("redirect rule"). */
	noun: string;
	action: string;
	/** `action_parameters` of the form's values. */
	parameters(values: RuleValues): Record<string, unknown>;
	/** The form's values of a rule's `action_parameters`. */
	valuesOf(parameters: Record<string, unknown>): RuleValues;
	/** The form field an `action_parameters` pointer (after `/action_parameters`) is about. */
	fieldOf(pointer: string, values: RuleValues): string | undefined;
	/** What the rule does, in one line. */
	summary(parameters: Record<string, unknown>): string;
}

type Part = { value?: string; expression?: string } | undefined;

/** A `value` or `expression` part of `kind` "static" or "dynamic"; undefined for "preserve". */
function partOf(kind: string | undefined, text: string | undefined): Part {
	if (kind === "dynamic") return { expression: text ?? "" };
	if (kind === "static") return { value: text ?? "" };
	return undefined;
}

/** The kind and text of a part: "dynamic" for an expression, "static" for a value, "preserve" for none. */
function kindOf(part: Part): [string, string] {
	if (part === undefined) return ["preserve", ""];
	return part.expression !== undefined ? ["dynamic", part.expression] : ["static", part.value ?? ""];
}

const shown = (part: Part) =>
	part?.expression !== undefined ? `dynamic ${part.expression}` : `"${part?.value ?? ""}"`;

const redirect: RuleKind = {
	phase: "http_request_dynamic_redirect",
	title: "Redirect Rules",
	noun: "redirect rule",
	action: "redirect",
	parameters: (v) => ({
		from_value: {
			target_url: partOf(v.target_kind, v.target),
			status_code: Number(v.status_code),
			preserve_query_string: v.preserve_query === "true",
		},
	}),
	valuesOf: (p) => {
		const from = (p.from_value ?? {}) as { target_url?: Part; status_code?: number; preserve_query_string?: boolean };
		const [kind, target] = kindOf(from.target_url);
		return {
			target_kind: kind === "preserve" ? "static" : kind,
			target,
			status_code: String(from.status_code ?? 301),
			preserve_query: from.preserve_query_string ? "true" : "",
		};
	},
	fieldOf: (pointer) =>
		pointer.startsWith("/from_value/status_code")
			? "status_code"
			: pointer.startsWith("/from_value/target_url")
				? "target"
				: undefined,
	summary: (p) => {
		const from = (p.from_value ?? {}) as { target_url?: Part; status_code?: number; preserve_query_string?: boolean };
		const query = from.preserve_query_string ? ", query kept" : "";
		return `${from.status_code ?? 301} to ${shown(from.target_url)}${query}`;
	},
};

const urlRewrite: RuleKind = {
	phase: "http_request_transform",
	title: "URL Rewrite Rules",
	noun: "URL rewrite rule",
	action: "rewrite",
	parameters: (v) => {
		const path = partOf(v.path_kind, v.path);
		const query = partOf(v.query_kind, v.query);
		return { uri: { ...(path ? { path } : {}), ...(query ? { query } : {}) } };
	},
	valuesOf: (p) => {
		const uri = (p.uri ?? {}) as { path?: Part; query?: Part };
		const [pathKind, path] = kindOf(uri.path);
		const [queryKind, query] = kindOf(uri.query);
		return { path_kind: pathKind, path, query_kind: queryKind, query };
	},
	fieldOf: (pointer) => (pointer.startsWith("/uri/query") ? "query" : pointer.startsWith("/uri") ? "path" : undefined),
	summary: (p) => {
		const uri = (p.uri ?? {}) as { path?: Part; query?: Part };
		return [uri.path && `path ${shown(uri.path)}`, uri.query && `query ${shown(uri.query)}`]
			.filter((x) => x !== undefined)
			.join("; ");
	},
};

/** Header rows a header rule form offers: its rule's headers and blank rows up to this many. */
const HEADER_ROWS = 3;

/** How many header rows `values` holds (`name_0`, `name_1`, ...). */
export function headerRows(values: RuleValues): number {
	let n = 0;
	while (values[`name_${n}`] !== undefined) n++;
	return Math.max(n, HEADER_ROWS);
}

function headerKind(phase: string, title: string, noun: string): RuleKind {
	return {
		phase,
		title,
		noun,
		action: "rewrite",
		parameters: (v) => {
			const headers: Record<string, unknown> = {};
			for (let i = 0; i < headerRows(v); i++) {
				const name = (v[`name_${i}`] ?? "").trim();
				if (name === "") continue;
				const operation = v[`operation_${i}`] ?? "set";
				headers[name] =
					operation === "remove" ? { operation } : { operation, ...partOf(v[`kind_${i}`], v[`value_${i}`]) };
			}
			return { headers };
		},
		valuesOf: (p) => {
			const values: RuleValues = {};
			const entries = Object.entries((p.headers ?? {}) as Record<string, { operation: string } & Part>);
			entries.forEach(([name, change], i) => {
				const [kind, value] = kindOf(change);
				values[`name_${i}`] = name;
				values[`operation_${i}`] = change.operation;
				values[`kind_${i}`] = kind === "preserve" ? "static" : kind;
				values[`value_${i}`] = value;
			});
			for (let i = entries.length; i < Math.max(entries.length + 1, HEADER_ROWS); i++) values[`name_${i}`] = "";
			return values;
		},
		fieldOf: (pointer, values) => {
			const name = /^\/headers\/([^/]+)/.exec(pointer)?.[1];
			if (name === undefined) return "name_0";
			for (let i = 0; i < headerRows(values); i++) {
				if ((values[`name_${i}`] ?? "").trim() === name)
					return pointer.includes("/value") || pointer.includes("/expression") ? `value_${i}` : `name_${i}`;
			}
			return "name_0";
		},
		summary: (p) =>
			Object.entries((p.headers ?? {}) as Record<string, { operation: string } & Part>)
				.map(([name, change]) =>
					change.operation === "remove" ? `remove ${name}` : `${change.operation} ${name}: ${shown(change)}`,
				)
				.join("; "),
	};
}

const origin: RuleKind = {
	phase: "http_request_origin",
	title: "Origin Rules",
	noun: "origin rule",
	action: "route",
	parameters: (v) => {
		const host = (v.origin_host ?? "").trim();
		const port = (v.origin_port ?? "").trim();
		const originPart = {
			...(host === "" ? {} : { host }),
			...(port === "" ? {} : { port: Number.isFinite(Number(port)) ? Number(port) : port }),
		};
		return {
			...((v.host_header ?? "").trim() === "" ? {} : { host_header: (v.host_header ?? "").trim() }),
			...(Object.keys(originPart).length === 0 ? {} : { origin: originPart }),
			...((v.sni ?? "").trim() === "" ? {} : { sni: { value: (v.sni ?? "").trim() } }),
		};
	},
	valuesOf: (p) => {
		const route = p as { host_header?: string; origin?: { host?: string; port?: number }; sni?: { value: string } };
		return {
			host_header: route.host_header ?? "",
			origin_host: route.origin?.host ?? "",
			origin_port: route.origin?.port === undefined ? "" : String(route.origin.port),
			sni: route.sni?.value ?? "",
		};
	},
	fieldOf: (pointer) =>
		pointer.startsWith("/host_header")
			? "host_header"
			: pointer.startsWith("/origin/port")
				? "origin_port"
				: pointer.startsWith("/origin")
					? "origin_host"
					: pointer.startsWith("/sni")
						? "sni"
						: "host_header",
	summary: (p) => {
		const route = p as { host_header?: string; origin?: { host?: string; port?: number }; sni?: { value: string } };
		return [
			route.host_header && `Host header ${route.host_header}`,
			route.origin?.host && `DNS record ${route.origin.host}`,
			route.origin?.port !== undefined && `port ${route.origin.port}`,
			route.sni && `SNI ${route.sni.value}`,
		]
			.filter((x) => typeof x === "string")
			.join("; ");
	},
};

/** The kinds, in the order Cloudflare's Rules > Overview lists its products, by the path segment of their pages. */
export const RULE_KINDS: Readonly<Record<string, RuleKind>> = {
	redirects: redirect,
	"url-rewrites": urlRewrite,
	"request-headers": headerKind("http_request_late_transform", "Request Header Transform Rules", "request header rule"),
	"response-headers": headerKind(
		"http_response_headers_transform",
		"Response Header Transform Rules",
		"response header rule",
	),
	origin,
};

/** The rule body the API takes of a form's values. */
export function ruleBodyOf(kind: RuleKind, values: RuleValues): EntrypointRule {
	return {
		action: kind.action,
		expression: values.expression ?? "",
		description: values.description ?? "",
		enabled: values.enabled === "true",
		action_parameters: kind.parameters(values),
	};
}

/** A form's values of a stored rule. */
export function valuesOfRule(kind: RuleKind, rule: EntrypointRule): RuleValues {
	return {
		description: rule.description ?? "",
		expression: rule.expression,
		enabled: rule.enabled === false ? "" : "true",
		...kind.valuesOf(rule.action_parameters ?? {}),
	};
}

/** The form field an API error's pointer is about (a PUT's `/rules/0/...` or a rule endpoint's `/...`). */
export function ruleFieldOf(kind: RuleKind, pointer: string, values: RuleValues): string | undefined {
	const inRule = pointer.replace(/^\/rules\/\d+/, "");
	if (inRule.startsWith("/expression")) return "expression";
	if (inRule.startsWith("/description")) return "description";
	if (inRule.startsWith("/action_parameters")) return kind.fieldOf(inRule.slice("/action_parameters".length), values);
	return undefined;
}
