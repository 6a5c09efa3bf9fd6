/**
 * The issuance lifecycle of a certificate pack on the zone's clock, derived from stored instants
 * and the clock at read time (nothing runs in the background): `initializing` ->
 * `pending_validation` -> `pending_issuance` -> `pending_deployment` -> `active` (the ssl.status
 * values of the SDK's `CertificatePackListResponse.status`).
 *
 * Durations are edgezone's choice (Cloudflare documents none; advanced certificates usually issue
 * within minutes): 1 minute initializing, 4 validating, 5 issuing, 5 deploying, so an order is
 * active 15 minutes after it was placed. Validation always succeeds: edgezone zones are on
 * Cloudflare DNS, where Cloudflare adds the DCV records itself. Pure.
 */
import type { Status } from "cloudflare/resources/ssl/certificate-packs/certificate-packs";

const MINUTE = 60_000;

/** When each phase starts, in ms after the order. */
const PHASES: readonly [Status, number][] = [
	["initializing", 0],
	["pending_validation", 1 * MINUTE],
	["pending_issuance", 5 * MINUTE],
	["pending_deployment", 10 * MINUTE],
	["active", 15 * MINUTE],
];

/** How long after its order a pack's first certificate is issued and active. */
export const ISSUANCE_MS = 15 * MINUTE;

/**
 * The status of a pack ordered at `orderedAt` (ms) when the clock says `now` (ms). An order in
 * the clock's future (the clock was set back past it) is `initializing`.
 */
export function packStatus(orderedAt: number, now: number): Status {
	const elapsed = now - orderedAt;
	let status: Status = "initializing";
	for (const [phase, start] of PHASES) if (elapsed >= start) status = phase;
	return status;
}

/** Whether the DCV records of a pack in this status are still asked for. */
export function validating(status: Status): boolean {
	return status === "initializing" || status === "pending_validation";
}

/**
 * A stable id shaped like a UUID from `parts`: the id of one issued certificate (pack, key type,
 * issue instant), the same on every read. Two rounds of 64-bit FNV-1a; not for security.
 */
export function stableId(...parts: (string | number)[]): string {
	const text = parts.join("|");
	const round = (seed: bigint) => {
		let hash = seed;
		for (let i = 0; i < text.length; i++) {
			hash ^= BigInt(text.charCodeAt(i));
			hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
		}
		return hash.toString(16).padStart(16, "0");
	};
	const hex = round(0xcbf29ce484222325n) + round(0x84222325cbf29ce4n);
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** A DCV token for a host of a pack: 32 hex, stable. */
export function dcvToken(packId: string, host: string, kind: string): string {
	return stableId(packId, host, kind).replaceAll("-", "");
}
