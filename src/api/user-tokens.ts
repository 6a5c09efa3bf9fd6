/**
 * `/user/tokens/verify`: whether the bearer token is valid, and its id
 * (https://developers.cloudflare.com/api/resources/user/subresources/tokens/methods/verify/;
 * SDK `client.user.tokens.verify()`).
 *
 * Answers `{id, status: "active"}` with the message 10000 "This API Token is valid and active",
 * as the real API does (putyourlightson/craft-cloudflare#88). The id is the token's id of
 * src/common/api-tokens.ts, the same id that is its R2 Access Key ID
 * (https://developers.cloudflare.com/r2/api/tokens/). Any token may verify itself, whatever its
 * permissions; a token the API does not know, or a key pair, is 401 1000 "Invalid API Token"
 * (`auth.ts`). Gaps: tokens of `API_CREDENTIALS` neither expire nor start later, so the answer has
 * no `expires_on` or `not_before`.
 */
import type { TokenVerifyResponse } from "cloudflare/resources/user/tokens/tokens";
import { Hono } from "hono";
import { okWithMessages } from "./envelope";
import { invalidApiToken } from "./errors";
import { verifiesToken } from "./permissions";
import type { ApiEnv } from "./types";

/** Routes under `/user/tokens`. */
export const userTokens = new Hono<ApiEnv>().get("/verify", verifiesToken, async (c) => {
	const tokenId = c.var.caller.tokenId;
	if (tokenId === undefined) throw invalidApiToken();
	const result: TokenVerifyResponse = { id: await tokenId(), status: "active" };
	return okWithMessages(result, [{ code: 10000, message: "This API Token is valid and active", type: null }]);
});
