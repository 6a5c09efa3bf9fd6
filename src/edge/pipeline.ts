/**
 * The edge: every request outside `/client/v4`, in the order Cloudflare's edge runs it
 * (ARCHITECTURE.md, "Request flow is one direction"): the zone by `Host`, its firewall, then
 * the bucket gateway; a `CF-Ray` header on every answer, the firewall's and the gateway's
 * errors and CORS preflights included (docs fundamentals/reference/cloudflare-ray-id).
 */
import { firewall } from "./firewall";
import { gateway } from "./gateway/app";
import { cfRayHeader, newRayId } from "./ray";
import { requestFields } from "./request-fields";
import { zoneForHost } from "./zone-routing";

/**
 * Answers one edge request; never throws (the firewall's answers are pages, and the gateway
 * turns every error into its answer).
 * @param url the request's URL, parsed once by the caller.
 */
export async function edge(request: Request, url: URL, env: Env): Promise<Response> {
	const receivedAt = Date.now();
	const rayId = newRayId();
	const zone = await zoneForHost(env, url.hostname, receivedAt);
	const fields = () => requestFields(request, url, { rayId, zoneName: zone.name, receivedAt });
	const verdict = await firewall(env, zone.id, fields, rayId, receivedAt);
	const response = verdict.answer ?? (await gateway(request, url, env));
	response.headers.set("cf-ray", cfRayHeader(rayId, request));
	return response;
}
