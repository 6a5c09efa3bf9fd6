/**
 * Origin Rules' route (`http_request_origin`): the matching rules merged in rule order, a later
 * rule's field over an earlier one's (developers.cloudflare.com/rules/origin-rules/faq/). Run
 * directly on a request's phase state, where the phase leaves the route; the proxy following it
 * is tested through HTTP in `origin/origin-rules.test.ts`.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { originRoute } from "../../src/edge/phases/origin-route";
import type { PhaseState } from "../../src/edge/phases/state";
import { requestBudget } from "../../src/rules-language";
import type { EdgeConfig } from "../../src/zone/edge-config";
import type { Rule } from "../../src/zone/phases/actions";

function routeRule(id: string, expression: string, action_parameters: object): Rule {
	return {
		id,
		ref: id,
		version: "1",
		last_updated: "2026-01-01T00:00:00Z",
		action: "route",
		expression,
		description: "",
		enabled: true,
		action_parameters,
	} as Rule;
}

function stateFor(originRules: Rule[], path: string): PhaseState {
	const config: EdgeConfig = {
		version: 1,
		logCustomFields: [],
		logpushJobs: [],
		firewallRules: [],
		firewallCustomRules: [],
		logpullRetention: false,
		urlNormalization: { type: "cloudflare", scope: "incoming" },
		ipGeolocation: true,
		managedTransforms: [],
		redirectRules: [],
		urlRewriteRules: [],
		originRules,
		requestHeaderRules: [],
		responseHeaderRules: [],
		workersRoutes: [],
		dnsRecords: [],
		saasOrigins: { customOrigins: {} },
	};
	const url = new URL(`http://app.example.com${path}`);
	return {
		env,
		zoneId: "0".repeat(32),
		rayId: "0123456789abcdef",
		receivedAt: Date.now(),
		view: { config, derived: new Map() },
		request: new Request(url),
		url,
		reader: "origin",
		context: { rayId: "0123456789abcdef", zoneName: "example.com", receivedAt: Date.now() },
		origin: url,
		headers: undefined,
		route: {},
		matches: [],
		work: requestBudget(),
	};
}

describe("Origin Rules", () => {
	const rules = [
		routeRule("a", 'starts_with(http.request.uri.path, "/api/")', { origin: { port: 8081 } }),
		routeRule("b", 'http.host eq "app.example.com"', {
			host_header: "api.internal",
			origin: { host: "localhost" },
		}),
		routeRule("c", 'http.request.uri.path eq "/api/v2"', { origin: { port: 3000 }, sni: { value: "api.internal" } }),
	];

	it("merge every matching rule's route, a later rule's field replacing an earlier one's", () => {
		const state = stateFor(rules, "/api/v1");
		expect(originRoute(state)).toBeUndefined();
		expect(state.route).toEqual({ host_header: "api.internal", origin: { host: "localhost", port: 8081 } });
		const v2 = stateFor(rules, "/api/v2");
		originRoute(v2);
		expect(v2.route).toEqual({
			host_header: "api.internal",
			origin: { host: "localhost", port: 3000 },
			sni: { value: "api.internal" },
		});
	});

	it("leave the route empty when no rule matches", () => {
		const state = stateFor(rules.slice(0, 1), "/");
		originRoute(state);
		expect(state.route).toEqual({});
	});
});
