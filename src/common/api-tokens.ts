/**
 * What an API token of `API_CREDENTIALS` is known by besides its value: its id, and the S3
 * credentials R2 derives from it.
 *
 * Cloudflare gives every API token an id of 32 hex digits, and R2 turns a token into S3
 * credentials: "Access Key ID: the id of the API token; Secret Access Key: the SHA-256 hash of
 * the API token value" (https://developers.cloudflare.com/r2/api/tokens/, "Get S3 API
 * credentials from an API token"). A token entry may declare its `id`; otherwise edgezone derives
 * one from the value (edgezone's choice, so that every token has a stable id without a config
 * change): the first 32 hex digits of SHA-256 over a fixed label and the value. The label keeps
 * the id from being any part of the secret key, the plain SHA-256 of the value.
 */
import { toHex } from "./encoding";

const encoder = new TextEncoder();

/** Lower-case hex of the SHA-256 of `text`'s UTF-8 bytes. */
async function sha256Hex(text: string): Promise<string> {
	return toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text))));
}

/**
 * The id of an API token: the one its entry declares, else derived from its value.
 * @param token the token's value; `declared` the entry's `id` (32 lower-case hex), if any.
 * @returns 32 lower-case hex digits.
 */
export async function apiTokenId(token: string, declared: string | undefined): Promise<string> {
	return declared ?? (await sha256Hex(`edgezone api token id\n${token}`)).slice(0, 32);
}

/** R2's Secret Access Key of an API token: the lower-case hex SHA-256 of its value (r2/api/tokens). */
export function s3SecretOf(token: string): Promise<string> {
	return sha256Hex(token);
}
