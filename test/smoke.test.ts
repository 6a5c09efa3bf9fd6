import { env, exports } from "cloudflare:workers";
import { expect, it } from "vitest";

it("serves and binds the bucket", async () => {
	const res = await exports.default.fetch("http://localhost/");
	expect(res.status).toBe(200);
	await env.BUCKET.put("k", "v");
	expect(await (await env.BUCKET.get("k"))?.text()).toBe("v");
});
