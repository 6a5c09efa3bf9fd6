/**
 * The phase `http_request_origin` (Origin Rules) and its action `route` (SDK `RouteRule`;
 * developers.cloudflare.com/rules/origin-rules/parameters/ and features/).
 *
 * Emulates: `host_header`, `origin.host`, `origin.port` and `sni.value`, in any combination, at
 * least one; host names and the SNI are DNS names; the port is 1–65,535 (features: "must be
 * between 1 and 65,535"). Several matching rules merge at the edge (`edge/phases/origin-route.ts`).
 * Bounded as WAF custom rules are (`checkCustomRules`).
 * Gaps: Cloudflare requires `origin.host` and `sni.value` to be hostnames of the same account;
 * edgezone checks only that they are DNS names (the real refusal's text is not public).
 */
import { z } from "zod";
import { COMPILED_EXPRESSION } from "./firewall-custom";
import { actionRule } from "./rule";

/** A DNS name (RFC 1035 labels of letters, digits and `-`, optionally a final dot), at most 253 characters. */
const HOSTNAME = z
	.string()
	.max(253)
	.regex(
		/^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/,
		"must be a hostname",
	);

const ROUTE_PARAMETERS = z
	.strictObject({
		host_header: HOSTNAME.optional(),
		origin: z
			.strictObject({
				host: HOSTNAME.optional(),
				port: z
					.number()
					.int()
					.min(1, "the port must be between 1 and 65535")
					.max(65535, "the port must be between 1 and 65535")
					.optional(),
			})
			.refine((o) => o.host !== undefined || o.port !== undefined, "origin needs host, port or both")
			.optional(),
		sni: z.strictObject({ value: HOSTNAME }).optional(),
	})
	.refine(
		(p) => p.host_header !== undefined || p.origin !== undefined || p.sni !== undefined,
		"a route rule needs at least one of host_header, origin, sni",
	);

/** A `route` rule. */
export const ROUTE_RULE = actionRule("route", ROUTE_PARAMETERS, COMPILED_EXPRESSION);
