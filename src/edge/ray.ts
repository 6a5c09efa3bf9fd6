/**
 * Ray IDs: the identifier Cloudflare gives every request, sent as `CF-Ray` and logged as
 * `RayID` (docs fundamentals/reference/cloudflare-ray-id): 16 hex digits, and on the
 * header a `-` and the IATA code of the data center that answered.
 */
import { toHex } from "../common/encoding";

/** A new Ray ID: 8 random bytes as 16 lower-case hex digits. */
export function newRayId(): string {
	return toHex(crypto.getRandomValues(new Uint8Array(8)));
}

/**
 * The data center of this isolate's requests, read from the first one: an isolate runs in one
 * data center, and reading `request.cf` deserializes the whole object, which measured 5–7% of the
 * Worker's time on a 1 KiB GET under `wrangler dev` (BENCHMARKS.md).
 */
let isolateColo: string | undefined;

/**
 * The `CF-Ray` header value: the Ray ID and the data center, `request.cf.colo` where the
 * runtime gives one (Miniflare does), else `LCL`, marking an answer of a local edge.
 */
export function cfRayHeader(rayId: string, request: Request): string {
	if (isolateColo === undefined) {
		const colo = (request.cf as { colo?: unknown } | undefined)?.colo;
		isolateColo = typeof colo === "string" && colo !== "" ? colo : "LCL";
	}
	return `${rayId}-${isolateColo}`;
}
