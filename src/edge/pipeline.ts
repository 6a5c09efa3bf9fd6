/**
 * The edge: every request outside `/client/v4`, in the order Cloudflare's edge runs it: the zone
 * by `Host`, its request phases in Cloudflare's order (`phases/order.ts`: URL normalization,
 * Single Redirects, URL rewrites, Origin Rules, the firewall, request header rules), the
 * destination (`destination.ts`: a Workers route's Worker, an R2 custom domain's bucket, a proxied
 * record's origin, the S3 dialect, the gateway), sent the rewritten URL, the transformed headers
 * and the Origin Rules' route, then the response phases (response header rules) and the zone's
 * log tap (`log-entry.ts`), which counts the request's and the answer's bodies and queues the
 * request's `http_requests` entry when something reads the zone's logs, with the headers the
 * visitor sent. A `CF-Ray` header on every answer, the phases' and the destinations' errors and
 * CORS preflights included (https://developers.cloudflare.com/fundamentals/reference/cloudflare-ray-id/).
 * Where the deployment trusts them, the emulator's geo headers set the request's location for the
 * rules and the log alike (`geo.ts`); invalid ones are refused before any phase runs.
 * A host under `r2.dev` is Cloudflare's, no zone's: its public bucket answers it, with no phase
 * and no log entry (`r2-domain/public-answer.ts`).
 */
import { requestBudget } from "../rules-language";
import { type Destined, destination, originRecord } from "./destination";
import type { Verdict } from "./firewall";
import { gatewayErrorAnswer } from "./gateway/app";
import { badRequest } from "./gateway/errors";
import { trustedGeo } from "./geo";
import { openLogTap } from "./log-entry";
import { runRequestPhases, runResponsePhases } from "./phases/order";
import type { PhaseState } from "./phases/state";
import { isR2DevHost, r2DevAnswer } from "./r2-domain/public-answer";
import { cfRayHeader, newRayId } from "./ray";
import { isS3Request } from "./s3/auth/detect";
import { workerScript } from "./workers-route/route";
import { zoneForHost } from "./zone-routing";
import { zoneView } from "./zone-view";

/**
 * Answers one edge request; never throws (the phases' answers are pages, and each destination
 * turns every error into its answer).
 * @param url the request's URL, parsed once by the caller.
 */
export async function edge(request: Request, url: URL, env: Env, ctx: ExecutionContext): Promise<Response> {
	const receivedAt = Date.now();
	const rayId = newRayId();
	if (isR2DevHost(url.hostname)) {
		const answer = await r2DevAnswer(request, url, env, receivedAt);
		answer.headers.set("cf-ray", cfRayHeader(rayId, request));
		return answer;
	}
	// Each lookup answers at once from the isolate's caches (MaybePromise): an await of a known
	// value would still cost a turn of the microtask queue, so only promises are awaited.
	const routing = zoneForHost(env, url.hostname, receivedAt);
	const zone = routing instanceof Promise ? await routing : routing;
	const sent = trustedGeo(request, env);
	// The zone's view is cached in the isolate (`zone-view.ts`): every phase's read is this one.
	const viewing = zoneView(env, zone.id, receivedAt);
	const view = viewing instanceof Promise ? await viewing : viewing;
	// A Worker on a matching route takes the request whatever it is, and a proxied host's requests
	// all go to its origin: neither is asked whether it speaks S3, and each reads its path as an
	// origin does (`request-path.ts`).
	const script = workerScript(view, url);
	const origin = script === undefined ? originRecord(zone, view, url.hostname) : undefined;
	const readsAsOrigin = script !== undefined || origin !== undefined;
	const detected = readsAsOrigin ? false : isS3Request(request, url, env, receivedAt);
	const speaksS3 = detected instanceof Promise ? await detected : detected;
	const state: PhaseState = {
		env,
		zoneId: zone.id,
		rayId,
		receivedAt,
		view,
		request,
		url,
		reader: readsAsOrigin ? "origin" : speaksS3 ? "s3" : "gateway",
		context: { rayId, zoneName: zone.name, receivedAt, geo: sent.kind === "geo" ? sent.geo : undefined },
		origin: url,
		headers: undefined,
		route: {},
		matches: [],
		work: requestBudget(),
	};
	const tapping = openLogTap(env, ctx, zone.id, state.context);
	const tap = tapping instanceof Promise ? await tapping : tapping;
	// A refused geo header answers before any phase: no rule ran, the destination is not reached.
	const phased =
		sent.kind === "invalid" ? gatewayErrorAnswer(badRequest(sent.message), request.method) : runRequestPhases(state);
	const answered = phased instanceof Promise ? await phased : phased;
	const forwarded = tap.request(request, url, state.headers);
	const cfRay = cfRayHeader(rayId, request);
	const destined: Destined =
		answered === undefined
			? await destination(
					{
						request: state.headers === undefined ? forwarded : new Request(forwarded, { headers: state.headers }),
						url,
						originUrl: state.origin,
						workerScript: script,
						originRecord: origin,
						zone,
						view,
						route: state.route,
						speaksS3,
						rayId,
						cfRay,
						geo: state.context.geo,
						receivedAt,
					},
					env,
				)
			: { response: answered };
	const verdict: Verdict = { answer: answered, matches: state.matches };
	// The tap (`http_log_custom_fields`, the last response phase) reads the answer as the
	// destination (or a phase) made it and the response header rules changed it, before CF-Ray.
	const answer = tap.answer(runResponsePhases(state, destined.response), verdict, cfRay, destined.origin);
	answer.headers.set("cf-ray", cfRay);
	return answer;
}
