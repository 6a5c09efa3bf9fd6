/**
 * The S3 credentials of the API tokens of `API_CREDENTIALS`, as R2 derives them from a token
 * (src/common/api-tokens.ts): Access Key ID the token's id, Secret Access Key the hex SHA-256 of
 * its value; and the R2 permission each has (https://developers.cloudflare.com/r2/api/tokens/,
 * "Permissions"). The derivation and edgezone's mapping of a token's API access onto R2's
 * permissions live in src/common/s3-keys.ts, which the log-push API shares; this module answers
 * a misconfiguration as the S3 dialect answers it. Temporary credentials, derived from these keys:
 * `temporary-credentials.ts`.
 */

import { s3SecretOf } from "../../../common/api-tokens";
import { ConfigError } from "../../../common/config";
import { type AccessKey, s3AccessKeys } from "../../../common/s3-keys";
import { notConfigured } from "../../../startup";
import { S3Error } from "../errors";

export type { AccessKey } from "../../../common/s3-keys";

/**
 * The access key of an Access Key ID, or undefined when no token has that id.
 * @throws S3Error 500 InternalError when `API_CREDENTIALS` is unset or not valid (the detail
 * logged only, as the API answers it).
 */
export async function accessKey(env: Env, id: string): Promise<AccessKey | undefined> {
	return (await accessKeys(env)).get(id);
}

/**
 * The access key R2 derives from an API token's value (the dashboard shows a signed-in token's),
 * or undefined when no token of `API_CREDENTIALS` has that value. Linear in the tokens.
 * @throws S3Error 500 InternalError when `API_CREDENTIALS` is unset or not valid.
 */
export async function accessKeyOfToken(env: Env, token: string): Promise<AccessKey | undefined> {
	const secret = await s3SecretOf(token);
	for (const key of (await accessKeys(env)).values()) if (key.secret === secret) return key;
	return undefined;
}

/** Every access key, by id. @throws S3Error 500 InternalError when `API_CREDENTIALS` is unset or not valid. */
async function accessKeys(env: Env): Promise<ReadonlyMap<string, AccessKey>> {
	const raw = env.API_CREDENTIALS;
	if (raw === undefined || raw === "") throw new S3Error("InternalError", `${notConfigured("API_CREDENTIALS")}.`);
	try {
		return await s3AccessKeys(raw);
	} catch (error) {
		if (!(error instanceof ConfigError)) throw error;
		console.error(`edgezone S3: ${error.message}`);
		throw new S3Error("InternalError", "API credentials are not configured");
	}
}
