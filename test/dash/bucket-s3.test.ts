/**
 * The Bucket page's S3 section as a person sees it: the endpoint, and the S3 credentials R2
 * derives from the API token they signed in with, which sign an S3 request that succeeds. A
 * person signed in with a Global API Key sees no secret, and a signed-out browser no page.
 */
import { env, exports } from "cloudflare:workers";
import { AwsClient } from "aws4fetch";
import { describe, expect, it } from "vitest";
import {
	DEFAULT_ZONE_ID,
	EMAIL,
	KEY,
	R2_BUCKET_ITEM_TOKEN,
	SCOPED_TOKEN,
	SCOPED_TOKEN_ID,
	TOKEN,
} from "../api/credentials";
import { sha256Hex } from "../s3/helpers";
import { type Browser, cookiesOf, csrfOf, DASH, post, signIn } from "./dash-http";
import { seen } from "./seen";

const PAGE = `${DASH}/zones/${DEFAULT_ZONE_ID}/bucket`;

/** The S3 section's rows, by their name, as the page shows them. */
async function s3Rows(browser: Browser): Promise<Map<string, string>> {
	const page = await exports.default.fetch(PAGE, { headers: { cookie: browser.cookie } });
	expect(page.status).toBe(200);
	const shown = await seen(await page.text());
	expect(shown.headings).toContain("S3 API");
	return new Map(shown.rows.filter((row) => row.length === 2).map(([name = "", value = ""]) => [name, value]));
}

describe("the Bucket page's S3 section", () => {
	it("shows the endpoint and the signed-in token's S3 credentials, which sign a request that succeeds", async () => {
		const { browser } = await signIn(TOKEN);
		const rows = await s3Rows(browser);
		expect(rows.get("Endpoint URL")).toBe("http://localhost");
		expect(rows.get("AWS Secret Access Key")).toBe(await sha256Hex(TOKEN));
		expect(rows.get("AWS Access Key ID")).toMatch(/^[0-9a-f]{32}$/);
		expect(rows.get("Default region name")).toBe("auto");
		expect(rows.get("R2 permission")).toBe("Admin Read & Write");
		expect(rows.get("Buckets")).toBe("edgezone-bucket, edgezone-logs");

		const client = new AwsClient({
			accessKeyId: rows.get("AWS Access Key ID") ?? "",
			secretAccessKey: rows.get("AWS Secret Access Key") ?? "",
			service: "s3",
			region: rows.get("Default region name") ?? "",
		});
		const key = `dash-s3/${crypto.randomUUID()}`;
		const url = `${rows.get("Endpoint URL")}/edgezone-bucket/${key}`;
		const put = await exports.default.fetch(await client.sign(url, { method: "PUT", body: "from the page" }));
		expect(put.status).toBe(200);
		expect(await (await env.BUCKET.get(key))?.text()).toBe("from the page");
	});

	it("gives aws CLI commands that write and use a profile of their own, never the default one", async () => {
		const { browser } = await signIn(TOKEN);
		const page = await exports.default.fetch(PAGE, { headers: { cookie: browser.cookie } });
		const text = (await seen(await page.text())).text;
		const id = (await s3Rows(browser)).get("AWS Access Key ID");
		expect(text).toContain(
			[
				`aws configure set aws_access_key_id ${id} --profile edgezone`,
				`aws configure set aws_secret_access_key ${await sha256Hex(TOKEN)} --profile edgezone`,
				"aws configure set region auto --profile edgezone",
				"aws configure set endpoint_url http://localhost --profile edgezone",
				"aws configure set s3.addressing_style path --profile edgezone",
				"export AWS_PROFILE=edgezone",
				"aws s3 ls s3://edgezone-bucket --endpoint-url http://localhost",
			].join(" "),
		);
		// Every `aws configure set` names the profile: none writes the default one.
		const sets = text.match(/aws configure set \S+ \S+( --profile \S+)?/g) ?? [];
		expect(sets).toHaveLength(5);
		for (const set of sets) expect(set).toMatch(/ --profile edgezone$/);
	});

	it("shows a token's declared id and its R2 permission", async () => {
		const { browser } = await signIn(SCOPED_TOKEN);
		const rows = await s3Rows(browser);
		expect(rows.get("AWS Access Key ID")).toBe(SCOPED_TOKEN_ID);
		expect(rows.get("AWS Secret Access Key")).toBe(await sha256Hex(SCOPED_TOKEN));
		expect(rows.get("R2 permission")).toBe("Object Read & Write");
	});

	it("shows a token's R2 permission group, and only the buckets its Object permission is scoped to", async () => {
		const { browser } = await signIn(R2_BUCKET_ITEM_TOKEN);
		const rows = await s3Rows(browser);
		expect(rows.get("R2 permission")).toBe("Object Read & Write");
		expect(rows.get("Buckets")).toBe("edgezone-bucket");
	});

	it("shows no secret to a person signed in with a Global API Key, and says why", async () => {
		const page = await exports.default.fetch(`${DASH}/sign-in`);
		const signedIn = await post({ cookie: cookiesOf(page), csrf: csrfOf(await page.text()) }, "/sign-in", {
			email: EMAIL,
			key: KEY,
		});
		expect(signedIn.status).toBe(303);
		const cookie = cookiesOf(signedIn);
		const bucketPage = await exports.default.fetch(PAGE, { headers: { cookie } });
		const html = await bucketPage.text();
		const shown = await seen(html);
		expect(shown.text).toContain("R2 gives S3 credentials to API tokens only");
		expect(shown.rows.map(([name]) => name)).not.toContain("AWS Secret Access Key");
		expect(html).not.toContain(await sha256Hex(TOKEN));
	});

	it("shows nothing to a browser that is not signed in", async () => {
		const page = await exports.default.fetch(PAGE, { redirect: "manual" });
		expect(page.status).toBe(303);
		expect(await page.text()).not.toContain(await sha256Hex(TOKEN));
	});
});
