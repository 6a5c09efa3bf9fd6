/**
 * The edge: every request outside `/client/v4`, in the order Cloudflare's edge runs it: the zone
 * by `Host`, its firewall, the request's destination (`destination.ts`), then the zone's log tap (`log-entry.ts`), which
 * counts the request's and the answer's bodies and queues the request's `http_requests` entry
 * when something reads the zone's logs. A `CF-Ray` header on every answer, the firewall's and the
 * gateway's errors and CORS preflights included (docs fundamentals/reference/cloudflare-ray-id,
 * https://developers.cloudflare.com/fundamentals/reference/cloudflare-ray-id/). Where the
 * deployment trusts them, the emulator's geo headers set the request's location for the rules and
 * the log alike (`geo.ts`); invalid ones are refused before the firewall runs. The rules see the
 * request's path as the zone's URL normalization leaves it, and the origin the URL as sent unless
 * the setting says otherwise (`request-path.ts`). Where the request goes once it passed the rules
 * (a Workers route's Worker, an R2 custom domain's bucket, a proxied record's origin, the S3
 * dialect, the gateway) is `destination.ts`'s choice.
 */
import { type Destined, destination } from "./destination";
import { firewall, type Verdict } from "./firewall";
import { gatewayErrorAnswer } from "./gateway/app";
import { badRequest } from "./gateway/errors";
import { geoOfCf, trustedGeo } from "./geo";
import { openLogTap } from "./log-entry";
import { cfRayHeader, newRayId } from "./ray";
import { type RequestContext, requestFields } from "./request-fields";
import { originUrl, rulesPath } from "./request-path";
import { isS3Request } from "./s3/auth/detect";
import { workerCf } from "./workers-route/request-cf";
import { zoneForHost } from "./zone-routing";
import { zoneView } from "./zone-view";

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
	// The zone's view is cached in the isolate (`zone-view.ts`): the firewall's read below is the same one.
	const view = await zoneView(env, zone.id, receivedAt);
	const normalization = view.config.urlNormalization;
	const speaksS3 = await isS3Request(request, url, env, receivedAt);
	const context: RequestContext = {
		rayId,
		zoneName: zone.name,
		receivedAt,
		geo: sent.kind === "geo" ? sent.geo : undefined,
		path: () => rulesPath(url, normalization, !speaksS3),
	};
	// A refused geo header answers as the firewall would have: no rule ran, the bucket is not reached.
	const verdict: Verdict =
		sent.kind === "invalid"
			? { answer: gatewayErrorAnswer(badRequest(sent.message), request.method), matches: [] }
			: await firewall(env, zone.id, (names) => requestFields(request, url, context, names), rayId, receivedAt);
	const tap = await openLogTap(env, ctx, zone.id, context);
	const forwarded = tap.request(request, url);
	const origin = originUrl(url, normalization);
	const cfRay = cfRayHeader(rayId, request);
	const destined: Destined =
		verdict.answer === undefined
			? await destination(
					{
						request: forwarded,
						url,
						originUrl: origin,
						zone,
						view,
						route: {},
						speaksS3,
						rayId,
						cfRay,
						country: () => (context.geo ?? geoOfCf(request.cf)).country,
						cf: () => workerCf(request.cf, context.geo),
						receivedAt,
					},
					env,
				)
			: { response: verdict.answer };
	// The tap reads the answer as the destination (or the firewall) made it, before CF-Ray.
	const answer = tap.answer(destined.response, verdict, cfRay, destined.origin);
	answer.headers.set("cf-ray", cfRay);
	return answer;
}
