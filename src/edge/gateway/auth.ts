/**
 * Bearer-token authorization of the gateway (RFC 6750 §2.1).
 *
 * Tokens come from the `GATEWAY_TOKENS` secret, a JSON object of token to `"read-write"` or
 * `"read-only"`. A presented token is hashed and compared with every known token's hash in
 * constant time (`crypto.subtle.timingSafeEqual`), so neither the comparison nor its early exit
 * tells an attacker how much of a token was right.
 */
import { z } from "zod";
import { GatewayError } from "./errors";

/** What an operation needs: reading objects (open with PUBLIC_READ), listing, or writing. */
export type Access = "read" | "list" | "write";

const Tokens = z.record(z.string().min(1), z.enum(["read-write", "read-only"]));

interface KnownToken {
	digest: ArrayBuffer;
	canWrite: boolean;
}

/** Parsed tokens per secret value: the secret is the same for the isolate's life, hashing it once is enough. */
let cache: { secret: string; tokens: Promise<KnownToken[]> } | undefined;

const sha256 = (text: string) => crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));

function knownTokens(secret: string | undefined): Promise<KnownToken[]> {
	if (secret === undefined || secret === "") return Promise.resolve([]);
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
		cache = {
			secret,
			tokens: Promise.all(
				Object.entries(parsed).map(async ([token, access]) => ({
					digest: await sha256(token),
					canWrite: access === "read-write",
				})),
			),
		};
	}
	return cache.tokens;
}

/** RFC 6750 §3: a 401 names the scheme it wants. */
const unauthorized = (message: string) =>
	new GatewayError(401, 10002, message, undefined, new Headers({ "www-authenticate": 'Bearer realm="edgezone"' }));

/**
 * Lets a request through for `access`, or throws.
 * @throws GatewayError 401 (10002) without a token or with an unknown one; 403 (10003) for a
 * read-only token writing.
 */
export async function authorize(request: Request, env: Env, access: Access): Promise<void> {
	if (access === "read" && env.PUBLIC_READ === "true") return;
	const header = request.headers.get("authorization");
	const token = header?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
	if (token === undefined) throw unauthorized("Send Authorization: Bearer <token>.");
	const presented = await sha256(token);
	let found: KnownToken | undefined;
	for (const known of await knownTokens(env.GATEWAY_TOKENS)) {
		if (crypto.subtle.timingSafeEqual(presented, known.digest)) found = known;
	}
	if (found === undefined) throw unauthorized("The token is not valid.");
	if (access === "write" && !found.canWrite) {
		throw new GatewayError(403, 10003, "The token may read but not write.");
	}
}
