// The rules of the firewall benchmark (scripts/bench-firewall.mjs), shared with its in-Node
// timing of the Rules language (scripts/bench/rules-timing.mjs), so both measure the same rules.
//
// Every expression is unique (the filters API refuses a duplicate) and none matches the
// benchmark's request, `GET /bench/1k.bin` with `Authorization: Bearer dev-token` to a zone's
// host from 127.0.0.1, so the firewall evaluates every rule of the zone on every request.
// `MATCHING_PATH` is the one path the first rule of every zone blocks: the sanity check.

/** The object every contender GETs, and the path the sanity check sends instead. */
export const OBJECT_KEY = "bench/1k.bin";
export const MATCHING_PATH = "/admin/0";

/**
 * Expression templates, one per operator family (`i` keeps each unique). Cycled in this order,
 * so 10 rules take each template once and 100 rules ten times.
 */
const TEMPLATES = [
	// eq
	(i) => `http.request.uri.path eq "/admin/${i}"`,
	// in, with addresses, CIDRs and an IPv6 range
	(i) => `ip.src in {198.51.100.${i % 256} 203.0.${i % 256}.0/24 192.0.2.0/28 2001:db8:${i.toString(16)}::/48}`,
	// contains, and or
	(i) => `http.request.uri.path contains "/wp-admin-${i}/" or http.user_agent contains "sqlmap/${i}"`,
	// matches (a regular expression)
	(i) => `http.request.uri.path matches "^/api/v${i}/(users|orders)/[0-9]+$"`,
	// wildcard
	(i) => `http.request.full_uri wildcard "http*://*.example.org/private-${i}/*"`,
	// functions: starts_with, lower
	(i) => `starts_with(lower(http.request.uri.path), "/secret-${i}")`,
	// not, and, in with a set of strings
	(i) =>
		`not (http.request.method in {"GET" "HEAD" "PUT" "POST" "DELETE" "OPTIONS"}) and http.request.uri.query contains "x${i}"`,
	// a header map, ends_with, and
	(i) => `any(http.request.headers["x-attack"][*] eq "${i}") or ends_with(http.request.uri.path, ".php${i}")`,
	// in with a set of strings, and a regex on the user agent
	(i) =>
		`http.host in {"blocked-${i}.example.net" "spam-${i}.example.org"} or http.user_agent matches "(?i)nikto-${i}"`,
	// numeric comparison, and the query arguments
	(i) =>
		`(http.request.uri.args["token"][0] eq "leak-${i}" and cf.edge.server_port ne ${1000 + i}) or ssl and http.request.uri.path eq "/tls-${i}"`,
];

/** The `n` expressions of a zone with `n` rules. */
export function expressions(n) {
	return Array.from({ length: n }, (_, i) => TEMPLATES[i % TEMPLATES.length](i));
}

const FIREWALL_ACTIONS = ["block", "challenge", "managed_challenge", "js_challenge", "log"];
const CUSTOM_ACTIONS = ["block", "managed_challenge", "log", "challenge", "js_challenge"];

/**
 * A zone's `n` rules, half firewall rules (filters API, then firewall rules API) and half WAF
 * custom rules (phase `http_request_firewall_custom`); the first firewall rule blocks
 * `MATCHING_PATH`. Returns `{ filters, customRules }`: filters as the filters API takes them,
 * each with the action of its firewall rule, and custom rules as the rulesets API takes them.
 */
export function zoneRules(n) {
	const all = expressions(n);
	const half = Math.ceil(n / 2);
	const filters = all.slice(0, half).map((expression, i) => ({
		expression,
		description: `bench rule ${i}`,
		action: FIREWALL_ACTIONS[i % FIREWALL_ACTIONS.length],
	}));
	const customRules = all.slice(half).map((expression, i) => {
		const action = CUSTOM_ACTIONS[i % CUSTOM_ACTIONS.length];
		const rule = { action, expression, description: `bench custom rule ${i}` };
		if (action === "block" && i % 2 === 0) {
			rule.action_parameters = {
				response: { status_code: 429, content: '{"error":"bench"}', content_type: "application/json" },
			};
		}
		return rule;
	});
	return { filters, customRules };
}

/** An expression of exactly `length` characters: the templates joined by `or`, padded in a last `eq`. */
export function longExpression(length = 4096) {
	const pad = (room) => `http.request.uri.path eq "/${"p".repeat(room)}"`;
	const minimum = pad(0).length + 4; // " or " before it
	let text = "";
	for (let i = 0; ; i++) {
		const clause = `(${TEMPLATES[i % TEMPLATES.length](i)})`;
		const next = text === "" ? clause : `${text} or ${clause}`;
		if (next.length + minimum > length) break;
		text = next;
	}
	const room = length - text.length - minimum;
	const result = `${text} or ${pad(room)}`;
	if (result.length !== length) throw new Error(`long expression is ${result.length} characters, not ${length}`);
	return result;
}
