/**
 * The recipe of docs/in-your-project.md for `@cloudflare/vitest-plugin` users, run as a user runs
 * it: `vitest run` in test/fixtures/vitest-recipe/, a project whose pool holds edgezone as an
 * auxiliary Worker (`edgezoneWorker()` from "edgezone") and whose tests, inside workerd, call the
 * Cloudflare API with the `cloudflare` SDK and a bucket over S3 through a service binding to it.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const RECIPE = join(import.meta.dirname, "..", "fixtures", "vitest-recipe");

describe("the vitest-plugin recipe", () => {
	let state: string | undefined;
	afterAll(() => {
		if (state !== undefined) rmSync(state, { recursive: true, force: true });
	});

	it("passes its own tests inside workerd against edgezone as an auxiliary Worker", async () => {
		state = mkdtempSync(join(tmpdir(), "edgezone-recipe-"));
		const { stdout } = await promisify(execFile)(
			process.execPath,
			[join(import.meta.dirname, "..", "..", "node_modules", "vitest", "vitest.mjs"), "run", "--reporter", "verbose"],
			{ cwd: RECIPE, env: { ...process.env, EDGEZONE_DIR: state, NO_COLOR: "1" } },
		);
		expect(stdout).toContain("✓ test/recipe.spec.ts");
		expect(stdout).toMatch(/Tests\s+2 passed/);
		// The Worker was built where the config said, not in the repository.
		expect(existsSync(join(state, "worker", "index.js"))).toBe(true);
	});
});
