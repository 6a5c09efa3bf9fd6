/**
 * Bearer-token authentication and authorization of the gateway (RFC 6750 §2.1), in two steps:
 * `authenticate` runs first on every request but a preflight, before the method or the query
 * are looked at, so a request without a valid token learns nothing of the route table (a 401 for
 * every method and path); `authorize` then checks the caller against the operation's access.
 * A token that is sent is always checked, under PUBLIC_READ too: a stale token is a 401, not a
 * silent anonymous read.
 *
 * Tokens come from the `GATEWAY_TOKENS` secret, a JSON object of token to `"read-write"` or
 * `"read-only"`, parsed once per value (src/common/config.ts). A presented token is compared with
 * every known token by src/common/secrets.ts (fixed-size buffers, `timingSafeEqual`, no early
 * exit), so neither the comparison, nor where it stops, nor the tokens' lengths tell anything.
 */
import { z } from "zod";
import { ConfigError, jsonVar } from "../../common/config";
import { fixedSecret, MAX_SECRET_BYTES, sameSecret } from "../../common/secrets";
import { notConfigured } from "../../startup";
import { accessDenied, type GatewayError, internalError, unauthorized } from "./errors";

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

const SEND_TOKEN = "Send Authorization: Bearer <token>.";

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

/** Who sent a request: nobody (a public read, PUBLIC_READ), or a known token that may or may not write. */
export type Caller = { kind: "anonymous" } | { kind: "token"; canWrite: boolean };

/** What a 401 says: what to send, or, when no token is configured at all, what is missing. */
function unauthorizedFor(tokens: KnownToken[], message: string): GatewayError {
	return unauthorized(tokens.length === 0 ? `${notConfigured("GATEWAY_TOKENS")}.` : message);
}

/**
 * Who sent a request, decided before anything else about it: without a valid token, nothing but
 * a public read learns which methods, paths or queries the gateway takes.
 * @throws GatewayError 401 (10002) without a token (unless PUBLIC_READ lets a GET or HEAD through
 * to `authorize`) or with an unknown one; 500 when the GATEWAY_TOKENS secret is not valid.
 */
export function authenticate(request: Request, env: Env): Caller {
	const tokens = knownTokens(env.GATEWAY_TOKENS);
	const header = request.headers.get("authorization");
	const token = header?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
	if (token === undefined) {
		if (env.PUBLIC_READ === "true" && (request.method === "GET" || request.method === "HEAD")) {
			return { kind: "anonymous" };
		}
		throw unauthorizedFor(tokens, SEND_TOKEN);
	}
	const presented = fixedSecret(token);
	let found: KnownToken | undefined;
	// Every known token is compared, with no early exit: the time taken says nothing of which matched.
	for (const candidate of tokens) {
		if (sameSecret(presented, candidate.fixed)) found = candidate;
	}
	if (found === undefined) throw unauthorizedFor(tokens, "The token is not valid.");
	return { kind: "token", canWrite: found.canWrite };
}

/**
 * Lets a caller do what an operation needs, or throws.
 * @throws GatewayError 401 (10002) for an anonymous caller listing (R2's public buckets do not
 * list); 403 (10003) for a read-only token writing.
 */
export function authorize(caller: Caller, access: Access, env: Env): void {
	if (caller.kind === "anonymous") {
		if (access !== "read") throw unauthorizedFor(knownTokens(env.GATEWAY_TOKENS), SEND_TOKEN);
		return;
	}
	if (access === "write" && !caller.canWrite) throw accessDenied();
}
