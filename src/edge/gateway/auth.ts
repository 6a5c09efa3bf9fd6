/**
 * Bearer-token authorization of the gateway (RFC 6750 §2.1).
 *
 * Tokens come from the `GATEWAY_TOKENS` secret, a JSON object of token to `"read-write"` or
 * `"read-only"`. A presented token is compared with every known token in constant time
 * (`crypto.subtle.timingSafeEqual`) over fixed-size buffers that hold its length and bytes, so
 * neither the comparison, nor where it stops, nor the tokens' lengths tell an attacker anything.
 */
import { z } from "zod";
import { GatewayError } from "./errors";

/** What an operation needs: reading objects (open with PUBLIC_READ), listing, or writing. */
export type Access = "read" | "list" | "write";

/** The longest token accepted, in bytes of UTF-8. */
const MAX_TOKEN_BYTES = 1024;

const encode = (token: string) => new TextEncoder().encode(token);

const Tokens = z.record(
	z
		.string()
		.min(1)
		.refine((token) => encode(token).byteLength <= MAX_TOKEN_BYTES, {
			message: `a token is at most ${MAX_TOKEN_BYTES} bytes`,
		}),
	z.enum(["read-write", "read-only"]),
);

interface KnownToken {
	padded: Uint8Array;
	canWrite: boolean;
}

/** A token's bytes (at most MAX_TOKEN_BYTES) as a fixed-size buffer: two bytes of length, the bytes, zeros. */
function pad(bytes: Uint8Array): Uint8Array {
	const padded = new Uint8Array(2 + MAX_TOKEN_BYTES);
	padded[0] = bytes.byteLength >> 8;
	padded[1] = bytes.byteLength & 0xff;
	padded.set(bytes, 2);
	return padded;
}

/** Parsed tokens per secret value: the secret is the same for the isolate's life, parsing it once is enough. */
let cache: { secret: string; tokens: KnownToken[] } | undefined;

function knownTokens(secret: string | undefined): KnownToken[] {
	if (secret === undefined || secret === "") return [];
	if (cache?.secret !== secret) {
		let parsed: Record<string, "read-write" | "read-only">;
		try {
			parsed = Tokens.parse(JSON.parse(secret));
		} catch (error) {
			throw new GatewayError(
				500,
				10001,
				`The GATEWAY_TOKENS secret must be a JSON object of token to "read-write" or "read-only": ${String(error)}`,
			);
		}
		const tokens = Object.entries(parsed).map(([token, access]) => ({
			padded: pad(encode(token)),
			canWrite: access === "read-write",
		}));
		cache = { secret, tokens };
	}
	return cache.tokens;
}

/** RFC 6750 §3: a 401 names the scheme it wants. */
const unauthorized = (message: string) =>
	new GatewayError(401, 10002, message, undefined, new Headers({ "www-authenticate": 'Bearer realm="edgezone"' }));

/**
 * Lets a request through for `access`, or throws.
 * @throws GatewayError 401 (10002) without a token or with an unknown one; 403 (10003) for a
 * read-only token writing; 500 when the GATEWAY_TOKENS secret is not valid.
 */
export function authorize(request: Request, env: Env, access: Access): void {
	if (access === "read" && env.PUBLIC_READ === "true") return;
	const header = request.headers.get("authorization");
	const token = header?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
	if (token === undefined) throw unauthorized("Send Authorization: Bearer <token>.");
	const known = knownTokens(env.GATEWAY_TOKENS);
	const bytes = encode(token);
	let found: KnownToken | undefined;
	if (bytes.byteLength <= MAX_TOKEN_BYTES) {
		const presented = pad(bytes);
		for (const candidate of known) {
			if (crypto.subtle.timingSafeEqual(presented, candidate.padded)) found = candidate;
		}
	}
	if (found === undefined) throw unauthorized("The token is not valid.");
	if (access === "write" && !found.canWrite) {
		throw new GatewayError(403, 10003, "The token may read but not write.");
	}
}
