/**
 * wrangler itself as a client of the API: `wrangler r2 bucket domain add/list/get/update/remove`
 * and `wrangler r2 bucket dev-url enable/get/disable`, the real binary (node_modules/.bin/wrangler)
 * unchanged, pointed at wrangler dev with `CLOUDFLARE_API_BASE_URL`, `CLOUDFLARE_API_TOKEN` and
 * `CLOUDFLARE_ACCOUNT_ID` (https://developers.cloudflare.com/workers/wrangler/system-environment-variables/),
 * with the tokens of .dev.vars.example; and the host it connected serving the bucket.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, inject, it } from "vitest";

const run = promisify(execFile);
const dev = inject("dev");
const ROOT = join(import.meta.dirname, "..", "..");
const WRANGLER = join(ROOT, "node_modules", ".bin", "wrangler");
/** wrangler.toml's DEFAULT_ZONE_ID (example.com) and DEFAULT_ACCOUNT_ID. */
const ZONE_ID = "023e105f4ecef8ad9ca31a8372d0c353";
const ACCOUNT_ID = "01a7362d577a6c3019a474fd6f485823";

// A directory of its own: no wrangler.toml for wrangler to read, and its own HOME for its config.
const work = mkdtempSync(join(tmpdir(), "edgezone-wrangler-r2-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs `wrangler args...` against wrangler dev; answers its output (stdout and stderr). */
async function wrangler(...args: string[]): Promise<string> {
	const inherited = Object.entries(process.env).filter(([name]) => !name.startsWith("CLOUDFLARE_"));
	const { stdout, stderr } = await run(WRANGLER, args, {
		cwd: work,
		env: {
			...Object.fromEntries(inherited),
			HOME: work,
			XDG_CONFIG_HOME: join(work, ".config"),
			CLOUDFLARE_API_BASE_URL: `${dev.url}/client/v4`,
			CLOUDFLARE_API_TOKEN: "edgezone_dev_token_000000000000000000000",
			CLOUDFLARE_ACCOUNT_ID: ACCOUNT_ID,
			WRANGLER_SEND_METRICS: "false",
			// vitest.config.ts quiets wrangler to warnings; its commands' own lines are what is checked here.
			WRANGLER_LOG: "log",
		},
		timeout: 60_000,
	});
	return `${stdout}${stderr}`;
}

/** A request to wrangler dev as the host `host`, with no credential: its status and body. */
async function visit(host: string, path: string): Promise<{ status: number; text: string }> {
	const { stdout } = await run("/usr/bin/curl", [
		"-s",
		"-w",
		"\n%{http_code}",
		"-H",
		`Host: ${host}`,
		`${dev.url}${path}`,
	]);
	const at = stdout.lastIndexOf("\n");
	return { status: Number(stdout.slice(at + 1)), text: stdout.slice(0, at) };
}

describe("wrangler r2 bucket domain", () => {
	it("connects, lists, gets, updates and removes a custom domain, which serves the bucket meanwhile", async () => {
		const domain = `wr-${crypto.randomUUID().slice(0, 8)}.example.com`;
		const key = `wrangler-${crypto.randomUUID().slice(0, 8)}.txt`;
		const put = await fetch(`${dev.url}/${key}`, {
			method: "PUT",
			headers: { authorization: "Bearer dev-token", "content-type": "text/plain" },
			body: "served by a custom domain",
		});
		expect(put.status).toBe(200);

		const added = await wrangler(
			"r2",
			"bucket",
			"domain",
			"add",
			"edgezone-bucket",
			"--domain",
			domain,
			"--zone-id",
			ZONE_ID,
			"--force",
		);
		expect(added).toContain(`Custom domain '${domain}' connected successfully.`);
		const listed = await wrangler("r2", "bucket", "domain", "list", "edgezone-bucket");
		expect(listed).toMatch(new RegExp(`domain:\\s+${domain.replaceAll(".", "\\.")}`));
		expect(listed).toMatch(/zone_name:\s+example\.com/);
		expect(await visit(domain, `/${key}`)).toStrictEqual({ status: 200, text: "served by a custom domain" });

		await wrangler("r2", "bucket", "domain", "update", "edgezone-bucket", "--domain", domain, "--min-tls", "1.2");
		const got = await wrangler("r2", "bucket", "domain", "get", "edgezone-bucket", "--domain", domain);
		expect(got).toMatch(/min_tls_version:\s+1\.2/);
		expect(got).toMatch(/enabled:\s+Yes/);

		const removed = await wrangler(
			"r2",
			"bucket",
			"domain",
			"remove",
			"edgezone-bucket",
			"--domain",
			domain,
			"--force",
		);
		expect(removed).toContain(`Custom domain '${domain}' removed successfully.`);
		expect((await visit(domain, `/${key}`)).status).toBe(401);
	});

	it("refuses a domain outside the zone with the API's error", async () => {
		const failed = await wrangler(
			"r2",
			"bucket",
			"domain",
			"add",
			"edgezone-bucket",
			"--domain",
			"cdn.elsewhere.test",
			"--zone-id",
			ZONE_ID,
			"--force",
		).then(
			() => "",
			(error: { stdout: string; stderr: string }) => `${error.stdout}${error.stderr}`,
		);
		expect(failed).toContain("domain cdn.elsewhere.test is not in the zone example.com [code: 10040]");
	});
});

describe("wrangler r2 bucket dev-url", () => {
	it("turns the r2.dev URL on, tells it, serves the bucket there, and turns it off", async () => {
		const enabled = await wrangler("r2", "bucket", "dev-url", "enable", "edgezone-bucket", "--force");
		const host = /Public access enabled at 'https:\/\/(pub-[0-9a-f]{32}\.r2\.dev)'/.exec(enabled)?.[1];
		expect(host, enabled).toBeDefined();
		expect(await wrangler("r2", "bucket", "dev-url", "get", "edgezone-bucket")).toContain(
			`Public access is enabled at 'https://${host}'.`,
		);
		expect((await visit(host ?? "", "/")).status).toBe(404);
		await wrangler("r2", "bucket", "dev-url", "disable", "edgezone-bucket", "--force");
		expect(await wrangler("r2", "bucket", "dev-url", "get", "edgezone-bucket")).toContain(
			"Public access via the r2.dev URL is disabled.",
		);
	});
});
