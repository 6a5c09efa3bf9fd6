/**
 * The edge: every request outside `/client/v4`, in the order Cloudflare's edge runs it: the zone
 * by `Host`, its request phases in Cloudflare's order (`phases/order.ts`: URL normalization,
 * Single Redirects, URL rewrites, Origin Rules, the firewall, request header rules), the
 * destination — today the bucket gateway (its S3 dialect for SigV4-signed requests, `s3/app.ts`)
 * — sent the rewritten URL, the transformed headers and the Origin Rules' route, then the
 * response phases (response header rules) and the zone's log tap (`log-entry.ts`), which
 * counts the request's and the answer's bodies and queues the request's `http_requests` entry
 * when something reads the zone's logs, with the headers the visitor sent. A `CF-Ray` header on
 * every answer, the phases' and the gateway's errors and CORS preflights included (docs
 * fundamentals/reference/cloudflare-ray-id,
 * https://developers.cloudflare.com/fundamentals/reference/cloudflare-ray-id/). Where the
 * deployment trusts them, the emulator's geo headers set the request's location for the rules and
 * the log alike (`geo.ts`); invalid ones are refused before any phase runs.
 */

import { requestBudget } from "../rules-language";
import type { Verdict } from "./firewall";
import { gateway, gatewayErrorAnswer } from "./gateway/app";
import { badRequest } from "./gateway/errors";
import { trustedGeo } from "./geo";
import { openLogTap } from "./log-entry";
import type { OriginRoute } from "./origin/route";
import { runRequestPhases, runResponsePhases } from "./phases/order";
import type { PhaseState } from "./phases/state";
import { cfRayHeader, newRayId } from "./ray";
import { s3 } from "./s3/app";
import { isS3Request } from "./s3/detect";
import { zoneForHost } from "./zone-routing";
import { zoneView } from "./zone-view";

/** What the request phases send the destination: the request (its headers transformed), its URL (rewritten) and its route. */
interface Outbound {
	request: Request;
	url: URL;
	route: OriginRoute;
}

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
	// The zone's view is cached in the isolate (`zone-view.ts`): every phase's read is this one.
	const view = await zoneView(env, zone.id, receivedAt);
	const speaksS3 = await isS3Request(request, url, env, receivedAt);
	const state: PhaseState = {
		env,
		zoneId: zone.id,
		rayId,
		receivedAt,
		view,
		request,
		url,
		speaksS3,
		context: { rayId, zoneName: zone.name, receivedAt, geo: sent.kind === "geo" ? sent.geo : undefined },
		origin: url,
		headers: undefined,
		route: {},
		matches: [],
		work: requestBudget(),
	};
	const tap = await openLogTap(env, ctx, zone.id, state.context);
	// A refused geo header answers before any phase: no rule ran, the bucket is not reached.
	const answered =
		sent.kind === "invalid"
			? gatewayErrorAnswer(badRequest(sent.message), request.method)
			: await runRequestPhases(state);
	const forwarded = tap.request(request, url);
	const outbound: Outbound = {
		request: state.headers === undefined ? forwarded : new Request(forwarded, { headers: state.headers }),
		url: state.origin,
		route: state.route,
	};
	// A SigV4- or SigV2-signed request, or an unsigned one plainly an S3 client's, speaks S3 (s3/detect.ts);
	// every other one the gateway's own dialect.
	const response = answered ?? (await bucket(outbound, env, rayId, speaksS3));
	const verdict: Verdict = { answer: answered, matches: state.matches };
	const cfRay = cfRayHeader(rayId, request);
	// The tap (`http_log_custom_fields`, the last response phase) reads the answer as the
	// destination (or a phase) made it and the response header rules changed it, before CF-Ray.
	const answer = tap.answer(runResponsePhases(state, response), verdict, cfRay);
	answer.headers.set("cf-ray", cfRay);
	return answer;
}

/** Today's destinations, the bucket gateway and its S3 dialect: the zone's origin, which no Origin Rule moves. */
function bucket(outbound: Outbound, env: Env, rayId: string, speaksS3: boolean): Promise<Response> {
	return speaksS3 ? s3(outbound.request, outbound.url, env, rayId) : gateway(outbound.request, outbound.url, env);
}
