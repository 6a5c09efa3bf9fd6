/**
 * The scripts of examples/ (docs/gateway-by-curl.md, docs/s3.md and docs/api.md show them) run as a
 * reader runs them, `npx node examples/<name>.mjs` with $B set to the Worker: Node 22's own type
 * stripping for the TypeScript client, no build, the official SDK unchanged.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, inject, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const dev = inject("dev");

/** Runs examples/<name> with the Node running these tests (the project's Node 22); answers its stdout. */
async function run(name: string): Promise<string> {
	const { stdout } = await promisify(execFile)(process.execPath, [join("examples", name)], {
		cwd: ROOT,
		env: { ...process.env, B: dev.url },
	});
	return stdout;
}

describe("the examples, run from Node against wrangler dev", () => {
	it("remote.mjs stores hello.txt through RemoteBucket and reads back its type and text", async () => {
		expect(await run("remote.mjs")).toBe("text/plain hi\n");
	});

	it("sdk.mjs reads the default zone and lists its rulesets' phases with the cloudflare SDK", async () => {
		const [zone, ...phases] = (await run("sdk.mjs")).trimEnd().split("\n");
		expect(zone).toBe("example.com");
		for (const phase of phases) expect(phase).toMatch(/^[a-z_]+$/);
	});
});
