/**
 * Ray IDs: the identifier Cloudflare gives every request, sent as `CF-Ray` and logged as
 * `RayID` (docs fundamentals/reference/cloudflare-ray-id): 16 hex digits, and on the
 * header a `-` and the IATA code of the data center that answered.
 */
/** 32 random bits as 8 lower-case hex digits. */
const hex32 = () =>
	Math.floor(Math.random() * 0x1_0000_0000)
		.toString(16)
		.padStart(8, "0");

/**
 * A new Ray ID: 64 random bits as 16 lower-case hex digits. An identifier, not a secret (every
 * answer shows it), so `Math.random` serves: it stays in JavaScript, where `crypto.getRandomValues`
 * crosses into the runtime on every request.
 */
export function newRayId(): string {
	return hex32() + hex32();
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
