/**
 * R2's temporary access credentials: an Access Key ID, a Secret Access Key and a session token
 * made from a parent access key, for one bucket, with a permission no wider than the parent's,
 * optionally limited to listed objects and prefixes, for a TTL of at most 7 days
 * (https://developers.cloudflare.com/r2/api/tokens/, "Temporary access credentials";
 * https://developers.cloudflare.com/api/resources/r2/subresources/temporary_credentials/methods/create/).
 * An S3 client sends the session token as `X-Amz-Security-Token`, a signed header or a query
 * parameter of a presigned URL, as it does for AWS's temporary credentials
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/RESTCommonRequestHeaders.html).
 *
 * Edgezone's design, so that nothing is stored: the session token carries its own grant and is
 * authenticated with a key only the parent's secret gives.
 * - `K` = HMAC-SHA256(parent's Secret Access Key, "edgezone r2 temporary credentials").
 * - session token = base64url(grant JSON) "." base64url(HMAC-SHA256(K, that base64url text)),
 *   the grant being the parent's Access Key ID, the bucket, the permission, the objects, the
 *   prefixes and the expiry (seconds since the epoch).
 * - Access Key ID = the first 32 hex of HMAC-SHA256(K, "access key id\n" + token); Secret Access
 *   Key = the hex HMAC-SHA256(K, "secret access key\n" + token).
 * A request is checked by reading the grant, looking up its parent among the tokens of
 * `API_CREDENTIALS` (so removing the parent token revokes every credential made from it),
 * recomputing the MAC and the Access Key ID, then the signature with the derived secret; the
 * expiry is checked after the signature (`verify.ts`). The permission used is the grant's kept
 * within the parent's current one (`narrower`), and the parent's zones still scope its keys in
 * the log-push buckets. Revoking one temporary credential alone is not possible (R2 does not
 * offer it either; they expire).
 */
import { z } from "zod";
import { fromBase64Url, toBase64Url, toHex } from "../../../common/encoding";
import { type AccessKey, narrower, type R2Permission } from "../../../common/s3-keys";
import { fixedSecret, sameSecret } from "../../../common/secrets";
import { S3Error } from "../errors";
import { accessKey } from "./credentials";

/** The permissions of the API, as R2 names them, and the ones edgezone's keys carry. */
export const TEMPORARY_PERMISSIONS = {
	"admin-read-write": "admin-read-write",
	"admin-read-only": "admin-read",
	"object-read-write": "object-read-write",
	"object-read-only": "object-read",
} as const satisfies Record<string, R2Permission>;

/** What temporary credentials allow. */
export interface TemporaryGrant {
	/** The parent's Access Key ID. */
	parent: string;
	bucket: string;
	permission: keyof typeof TEMPORARY_PERMISSIONS;
	objects: readonly string[];
	prefixes: readonly string[];
	/** Seconds since the epoch. */
	expiresAt: number;
}

/** What the API answers: R2's three fields. */
export interface TemporaryCredentials {
	accessKeyId: string;
	secretAccessKey: string;
	sessionToken: string;
}

/** The longest session token, in characters: it must fit in a request header (edgezone's bound). */
export const MAX_SESSION_TOKEN = 8192;

const GRANT = z.strictObject({
	p: z.string(),
	b: z.string(),
	m: z.enum(Object.keys(TEMPORARY_PERMISSIONS) as [keyof typeof TEMPORARY_PERMISSIONS]),
	o: z.array(z.string()),
	f: z.array(z.string()),
	e: z.number().int(),
});

const encoder = new TextEncoder();

async function hmac(key: Uint8Array<ArrayBuffer>, data: string): Promise<Uint8Array<ArrayBuffer>> {
	const imported = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
	return new Uint8Array(await crypto.subtle.sign("HMAC", imported, encoder.encode(data)));
}

/** `K` of the module's comment. */
const tokenKey = (parentSecret: string) =>
	hmac(new Uint8Array(encoder.encode(parentSecret)), "edgezone r2 temporary credentials");

/** The Access Key ID and the secret of a session token under `key`. */
async function keysOf(key: Uint8Array<ArrayBuffer>, token: string): Promise<{ id: string; secret: string }> {
	return {
		id: toHex(await hmac(key, `access key id\n${token}`)).slice(0, 32),
		secret: toHex(await hmac(key, `secret access key\n${token}`)),
	};
}

/**
 * Temporary credentials for `grant`, made from the parent key (which the caller has checked
 * allows the grant's permission).
 * @returns R2's answer, or undefined when the session token would be longer than MAX_SESSION_TOKEN.
 */
export async function mintTemporaryCredentials(
	parent: AccessKey,
	grant: TemporaryGrant,
): Promise<TemporaryCredentials | undefined> {
	const claims: z.input<typeof GRANT> = {
		p: grant.parent,
		b: grant.bucket,
		m: grant.permission,
		o: [...grant.objects],
		f: [...grant.prefixes],
		e: grant.expiresAt,
	};
	const payload = toBase64Url(encoder.encode(JSON.stringify(claims)));
	const key = await tokenKey(parent.secret);
	const sessionToken = `${payload}.${toBase64Url(await hmac(key, payload))}`;
	if (sessionToken.length > MAX_SESSION_TOKEN) return undefined;
	const { id, secret } = await keysOf(key, sessionToken);
	return { accessKeyId: id, secretAccessKey: secret, sessionToken };
}

const invalidToken = () => new S3Error("InvalidToken");

/** The grant a session token claims, unchecked, or undefined when it is not one. */
function claimedGrant(token: string): { payload: string; mac: string; grant: z.output<typeof GRANT> } | undefined {
	if (token.length > MAX_SESSION_TOKEN) return undefined;
	const [payload = "", mac = "", ...rest] = token.split(".");
	const bytes = fromBase64Url(payload);
	if (rest.length > 0 || bytes === undefined) return undefined;
	let json: unknown;
	try {
		json = JSON.parse(new TextDecoder().decode(bytes));
	} catch {
		return undefined;
	}
	const parsed = GRANT.safeParse(json);
	return parsed.success ? { payload, mac, grant: parsed.data } : undefined;
}

/**
 * The access key of temporary credentials: the Access Key ID a request names and the session
 * token it sends. The expiry is left to the caller, to check after the signature.
 * @throws S3Error 400 InvalidToken for a token that is malformed, not made by a known parent
 * key, or altered; 403 InvalidAccessKeyId when the token is not the Access Key ID's; 500 when
 * API_CREDENTIALS is not valid.
 */
export async function temporaryKey(env: Env, accessKeyId: string, sessionToken: string): Promise<AccessKey> {
	const claimed = claimedGrant(sessionToken);
	if (claimed === undefined) throw invalidToken();
	const { payload, mac, grant } = claimed;
	const parent = await accessKey(env, grant.p);
	if (parent === undefined || parent.temporary !== undefined) throw invalidToken();
	const key = await tokenKey(parent.secret);
	const expected = fixedSecret(toBase64Url(await hmac(key, payload)));
	if (expected === undefined || !sameSecret(fixedSecret(mac), expected)) throw invalidToken();
	const { id, secret } = await keysOf(key, sessionToken);
	// An Access Key ID is no secret; the MAC above is what authenticates the token.
	if (accessKeyId !== id) {
		throw new S3Error("InvalidAccessKeyId", undefined, { AWSAccessKeyId: accessKeyId });
	}
	return {
		id,
		secret,
		permission: narrower(TEMPORARY_PERMISSIONS[grant.m], parent.permission),
		// Checked when they were made; kept, so a parent scoped to other buckets since reaches none.
		buckets: parent.buckets,
		zones: parent.zones,
		temporary: { bucket: grant.b, prefixes: grant.f, objects: grant.o, expiresAt: grant.e * 1000 },
	};
}

/**
 * The session token a request sends, if any: the `X-Amz-Security-Token` header, which must be
 * among the signed headers, or the query parameter of a presigned URL (always signed: the
 * canonical query holds every parameter but the signature).
 * @throws S3Error 403 AccessDenied for a header the signature does not cover.
 */
export function sessionTokenOf(request: Request, url: URL, signedHeaders: readonly string[]): string | undefined {
	const header = request.headers.get("x-amz-security-token");
	if (header !== null) {
		if (!signedHeaders.includes("x-amz-security-token")) {
			throw new S3Error("AccessDenied", "X-Amz-Security-Token must be a signed header.");
		}
		return header;
	}
	return request.headers.has("authorization") ? undefined : (url.searchParams.get("X-Amz-Security-Token") ?? undefined);
}
