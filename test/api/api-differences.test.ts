/**
 * docs/api-differences.md names, for each difference, the test files under test/api/ that assert
 * it: each named file exists, so a line cannot point at a test that is gone.
 */
import { describe, expect, it } from "vitest";
import page from "../../docs/api-differences.md?raw";

declare global {
	interface ImportMeta {
		/** Vite's glob import (vite.dev/guide/features#glob-import): lazy, one loader per matching path. */
		glob(pattern: string): Record<string, () => Promise<unknown>>;
	}
}

// Keys only: the files are never loaded (a lazy glob imports nothing until called).
const TEST_FILES = Object.keys(import.meta.glob("./*.test.ts")).map((path) => path.slice(2));

describe("docs/api-differences.md", () => {
	const rows = page.split("\n").filter((line) => line.startsWith("| ") && !line.startsWith("| difference"));
	it("lists differences, each naming a test", () => {
		expect(rows.length).toBeGreaterThan(5);
		for (const row of rows) expect(row, row).toMatch(/`[a-z0-9-]+\.test\.ts`/);
	});
	it.each(rows.flatMap((row) => [...row.matchAll(/`([a-z0-9-]+\.test\.ts)`/g)].map((m) => m[1] ?? "")))(
		"names %s, which exists in test/api/",
		(file) => {
			expect(TEST_FILES).toContain(file);
		},
	);
});
