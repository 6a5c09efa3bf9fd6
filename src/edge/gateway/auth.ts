/**
 * Bearer-token authorization of the gateway (RFC 6750 §2.1).
 *
 * Tokens come from the `GATEWAY_TOKENS` secret, a JSON object of token to `"read-write"` or
 * `"read-only"`, parsed once per value (src/common/config.ts). A presented token is compared with
 * every known token by src/common/secrets.ts (fixed-size buffers, `timingSafeEqual`, no early
 * exit), so neither the comparison, nor where it stops, nor the tokens' lengths tell anything.
 */
import { z } from "zod";
import { ConfigError, jsonVar } from "../../common/config";
import { fixedSecret, MAX_SECRET_BYTES, sameSecret } from "../../common/secrets";
import { accessDenied, internalError, unauthorized } from "./errors";

/** What an operation needs: reading objects (open with PUBLIC_READ), listing, or writing. */
export type Access = "read" | "list" | "write";

const Tokens = z.record(
	z
		.string()
		.min(1)
		.refine((token) => fixedSecret(token) !== undefined, {
			message: `a token is at most ${MAX_SECRET_BYTES} bytes`,
		}),
	z.enum(["read-write", "read-only"]),
);

interface KnownToken {
	fixed: Uint8Array;
	canWrite: boolean;
}

/** Tokens per secret value, built once: the secret is the same for the isolate's life. */
let cache: { secret: string; tokens: KnownToken[] } | undefined;

/**
 * The tokens of the GATEWAY_TOKENS secret; none when it is unset or empty.
 * @throws GatewayError 500 (10001) when the secret is not a JSON object of token to access.
 */
function knownTokens(secret: string | undefined): KnownToken[] {
	if (secret === undefined || secret === "") return [];
	if (cache?.secret !== secret) {
		let parsed: z.output<typeof Tokens>;
		try {
			parsed = jsonVar("GATEWAY_TOKENS", secret, Tokens);
		} catch (error) {
			if (!(error instanceof ConfigError)) throw error;
			throw internalError(
				`The GATEWAY_TOKENS secret must be a JSON object of token to "read-write" or "read-only": ${error.message}`,
			);
		}
		const tokens = Object.entries(parsed).flatMap(([token, access]) => {
			const fixed = fixedSecret(token);
			// The schema already refused tokens too long for a fixed buffer; this only narrows the type.
			return fixed === undefined ? [] : [{ fixed, canWrite: access === "read-write" }];
		});
		cache = { secret, tokens };
	}
	return cache.tokens;
}

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
	const presented = fixedSecret(token);
	let found: KnownToken | undefined;
	// Every known token is compared, with no early exit: the time taken says nothing of which matched.
	for (const candidate of knownTokens(env.GATEWAY_TOKENS)) {
		if (sameSecret(presented, candidate.fixed)) found = candidate;
	}
	if (found === undefined) throw unauthorized("The token is not valid.");
	if (access === "write" && !found.canWrite) {
		throw accessDenied();
	}
}
