/**
 * The edge: every request outside `/client/v4`, in the order Cloudflare's edge runs it
 * (ARCHITECTURE.md, "Request flow is one direction"): the zone by `Host`, its firewall, then
 * the bucket gateway; a `CF-Ray` header on every answer, the firewall's and the gateway's
 * errors and CORS preflights included (docs fundamentals/reference/cloudflare-ray-id); then the
 * request's `http_requests` log entry, when the zone has something that reads it (`log-entry.ts`).
 * Where the deployment trusts them, the emulator's geo headers set the request's location for
 * the rules and the log alike (`geo.ts`); invalid ones are refused before the firewall runs.
 */
import { firewall, type Verdict } from "./firewall";
import { gateway, gatewayErrorAnswer } from "./gateway/app";
import { badRequest } from "./gateway/errors";
import { geoOfCf, trustedGeo } from "./geo";
import { countBody, logged, logSettingsOf, readHeads } from "./log-entry";
import { cfRayHeader, newRayId } from "./ray";
import { requestFields } from "./request-fields";
import { zoneForHost } from "./zone-routing";

/**
 * Answers one edge request; never throws (the firewall's answers are pages, and the gateway
 * turns every error into its answer).
 * @param url the request's URL, parsed once by the caller.
 */
export async function edge(request: Request, url: URL, env: Env, ctx: ExecutionContext): Promise<Response> {
	const receivedAt = Date.now();
	const rayId = newRayId();
	const zone = await zoneForHost(env, url.hostname, receivedAt);
	const sent = trustedGeo(request, env);
	const geo = sent.kind === "geo" ? sent.geo : undefined;
	const fields = (names: readonly string[]) =>
		requestFields(request, url, { rayId, zoneName: zone.name, receivedAt, geo }, names);
	// A refused geo header answers as the firewall would have: no rule ran, the bucket is not reached.
	const verdict: Verdict =
		sent.kind === "invalid"
			? { answer: gatewayErrorAnswer(badRequest(sent.message), request.method), matches: [] }
			: await firewall(env, zone.id, fields, rayId, receivedAt);
	const log = await logSettingsOf(env, zone.id, receivedAt);
	const body = log && countBody(request);
	const response = verdict.answer ?? (await gateway(body?.request ?? request, url, env));
	// The entry reads the response as the gateway (or the firewall) made it, before CF-Ray.
	const heads = log && readHeads(log, request, response);
	const cfRay = cfRayHeader(rayId, request);
	response.headers.set("cf-ray", cfRay);
	if (log === undefined || heads === undefined || body === undefined) return response;
	const answeredByFirewall = verdict.answer !== undefined;
	const facts = { request, url, rayId, zoneId: zone.id, zoneName: zone.name, receivedAt, cfRay, heads };
	const located = { geo: geo ?? geoOfCf(request.cf) };
	const known = { matches: verdict.matches, answeredByFirewall, settings: log, requestBodyBytes: body.bytes };
	return logged(env, ctx, { ...facts, ...located, ...known }, response);
}
