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
 * The `CF-Ray` header value: the Ray ID and the data center, `request.cf.colo` where the
 * runtime gives one (Miniflare does), else `LCL`, marking an answer of a local edge.
 */
export function cfRayHeader(rayId: string, request: Request): string {
	const colo = (request.cf as { colo?: unknown } | undefined)?.colo;
	return `${rayId}-${typeof colo === "string" && colo !== "" ? colo : "LCL"}`;
}
