/** Identifiers in the format of Cloudflare's API: 32 lower-case hex digits (`^[0-9a-f]{32}$`). */
import { toHex } from "./encoding";

/** A zone, account, ruleset or rule id: 32 lower-case hex digits. */
export const HEX_ID_PATTERN = /^[0-9a-f]{32}$/;

/** A random id of 16 bytes as 32 lower-case hex digits. */
export function randomHexId(): string {
	return toHex(crypto.getRandomValues(new Uint8Array(16)));
}
