/**
 * `GET /user/tokens/verify` through the official `cloudflare` SDK, unchanged: a token learns its
 * id, which is also its R2 Access Key ID; a token the API does not know gets 401 1000.
 */
import Cloudflare from "cloudflare";
import { describe, expect, it } from "vitest";
import { apiTokenId } from "../../src/common/api-tokens";
import { clientOf, s3 } from "../s3/helpers";
import { EMAIL, KEY, SCOPED_TOKEN, SCOPED_TOKEN_ID, TOKEN, WAF_TOKEN } from "./credentials";
import { call } from "./http";
import { sdkClient } from "./sdk";

describe("GET /user/tokens/verify", () => {
	it("answers the token's id, active, with Cloudflare's message, to the SDK's user.tokens.verify()", async () => {
		const verified = await sdkClient().user.tokens.verify();
		expect(verified).toStrictEqual({ id: await apiTokenId(TOKEN, undefined), status: "active" });
		const res = await call("GET", "/user/tokens/verify");
		expect(res.status).toBe(200);
		expect(res.body).toStrictEqual({
			result: verified,
			success: true,
			errors: [],
			messages: [{ code: 10000, message: "This API Token is valid and active", type: null }],
		});
	});

	it("answers the id a token's entry declares, and that id is the token's S3 Access Key ID", async () => {
		const { id } = await sdkClient(SCOPED_TOKEN).user.tokens.verify();
		expect(id).toBe(SCOPED_TOKEN_ID);
		const response = await s3("/edgezone-bucket?list-type=2&max-keys=1", {}, await clientOf(SCOPED_TOKEN, { id }));
		expect(response.status).toBe(200);
	});

	it("verifies a token whatever its permissions", async () => {
		expect(await sdkClient(WAF_TOKEN).user.tokens.verify()).toStrictEqual({
			id: await apiTokenId(WAF_TOKEN, undefined),
			status: "active",
		});
	});

	it("answers 401 1000 Invalid API Token to a token it does not know, which the SDK raises as AuthenticationError", async () => {
		const unknown = "x".repeat(40);
		await expect(sdkClient(unknown).user.tokens.verify()).rejects.toBeInstanceOf(Cloudflare.AuthenticationError);
		const res = await call("GET", "/user/tokens/verify", undefined, { Authorization: `Bearer ${unknown}` });
		expect(res.status).toBe(401);
		expect(res.body).toStrictEqual({
			result: null,
			success: false,
			errors: [{ code: 1000, message: "Invalid API Token" }],
			messages: [],
		});
	});

	it("answers 401 1000 to a key pair, which is no token", async () => {
		const res = await call("GET", "/user/tokens/verify", undefined, { "X-Auth-Email": EMAIL, "X-Auth-Key": KEY });
		expect(res.status).toBe(401);
		expect(res.body.errors).toStrictEqual([{ code: 1000, message: "Invalid API Token" }]);
	});

	it("answers a request without credentials, or with a malformed header, as every endpoint does", async () => {
		expect((await call("GET", "/user/tokens/verify", undefined, {})).body.errors?.[0]?.code).toBe(9106);
		const malformed = await call("GET", "/user/tokens/verify", undefined, { Authorization: "Bearer short" });
		expect(malformed.status).toBe(400);
		expect(malformed.body.errors?.[0]?.code).toBe(6003);
	});
});
