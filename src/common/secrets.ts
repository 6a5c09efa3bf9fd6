/**
 * Comparing secrets (API keys and tokens, gateway tokens) without telling anything by timing.
 *
 * A secret becomes a fixed-size buffer holding its length and its UTF-8 bytes, and buffers are
 * compared with `crypto.subtle.timingSafeEqual`, so neither where two secrets differ nor their
 * lengths changes how long a comparison takes. Callers compare against every known secret
 * without stopping at the first match, so the number of comparisons does not depend on which
 * secret matched, or whether one did.
 */

/** The longest secret accepted, in bytes of UTF-8. */
export const MAX_SECRET_BYTES = 1024;

const encoder = new TextEncoder();

/**
 * A secret as a fixed-size buffer of `2 + MAX_SECRET_BYTES` bytes: two bytes of length, the
 * bytes, zeros. Undefined for a secret over MAX_SECRET_BYTES.
 */
export function fixedSecret(secret: string): Uint8Array | undefined {
	const bytes = encoder.encode(secret);
	if (bytes.byteLength > MAX_SECRET_BYTES) return undefined;
	const fixed = new Uint8Array(2 + MAX_SECRET_BYTES);
	fixed[0] = bytes.byteLength >> 8;
	fixed[1] = bytes.byteLength & 0xff;
	fixed.set(bytes, 2);
	return fixed;
}

/** A buffer that no `fixedSecret` equals (its length field is past the maximum). */
const NO_SECRET = (() => {
	const fixed = new Uint8Array(2 + MAX_SECRET_BYTES);
	fixed[0] = 0xff;
	fixed[1] = 0xff;
	return fixed;
})();

/**
 * Whether two secrets are equal, in time that depends on neither. `presented` may be undefined
 * (absent or too long): the comparison still runs, against a buffer nothing equals.
 */
export function sameSecret(presented: Uint8Array | undefined, known: Uint8Array): boolean {
	return crypto.subtle.timingSafeEqual(presented ?? NO_SECRET, known);
}
