/**
 * The Bucket page's S3 section in Chromium: a person signed in with an API token reads the
 * endpoint and the S3 credentials off the page, as they would copy them into `aws configure`, and
 * an S3 request signed with them (aws4fetch, as an S3 client signs) succeeds against the same
 * wrangler dev.
 */
import { AwsClient } from "aws4fetch";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { DEFAULT_ZONE_ID, TOKEN } from "../../api/credentials";
import { browserSuite, e2e, openBrowser, signIn } from "./browser";

browserSuite("the Bucket page's S3 section", () => {
	let browser: Browser;
	let page: Page;
	beforeAll(async () => {
		({ browser, page } = await openBrowser());
		await signIn(page, TOKEN);
	});
	afterAll(async () => {
		await browser?.close();
	});

	/** The value the S3 section shows next to `name`. */
	const shown = async (name: string): Promise<string> => {
		const section = page.getByRole("region", { name: "S3 API" });
		const row = section.getByRole("row").filter({ has: page.getByRole("rowheader", { name, exact: true }) });
		return ((await row.getByRole("cell").textContent()) ?? "").trim();
	};

	it("shows credentials that sign an S3 request the endpoint accepts", async () => {
		await page.goto(`${e2e.dashUrl}/zones/${DEFAULT_ZONE_ID}/bucket`);
		await page.getByRole("heading", { level: 2, name: "S3 API" }).waitFor();
		const endpoint = await shown("Endpoint URL");
		expect(endpoint).toBe(`http://localhost:${new URL(e2e.dashUrl).port}`);
		const client = new AwsClient({
			accessKeyId: await shown("AWS Access Key ID"),
			secretAccessKey: await shown("AWS Secret Access Key"),
			region: await shown("Default region name"),
			service: "s3",
		});
		const key = `e2e-s3/${Date.now().toString(36)}.txt`;
		const put = await fetch(await client.sign(`${endpoint}/edgezone-bucket/${key}`, { method: "PUT", body: "copied" }));
		expect(put.status).toBe(200);
		const got = await fetch(await client.sign(`${endpoint}/edgezone-bucket/${key}`));
		expect(got.status).toBe(200);
		expect(await got.text()).toBe("copied");
	});
});
