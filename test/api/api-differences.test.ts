/**
 * docs/api-differences.md names, for each difference, the test files that assert it (a bare name
 * under test/api/, otherwise a path under test/): each named file exists, so a line cannot point at
 * a test that is gone.
 */
import { describe, expect, it } from "vitest";
import page from "../../docs/api-differences.md?raw";

declare global {
	interface ImportMeta {
		/** Vite's glob import (vite.dev/guide/features#glob-import): lazy, one loader per matching path. */
		glob(pattern: string): Record<string, () => Promise<unknown>>;
	}
}

// Keys only: the files are never loaded (a lazy glob imports nothing until called). Paths under test/.
const TEST_FILES = Object.keys(import.meta.glob("/test/**/*.test.ts")).map((path) => path.slice("/test/".length));
const NAMED = /`([a-z0-9/-]+\.test\.ts)`/g;

describe("docs/api-differences.md", () => {
	const rows = page.split("\n").filter((line) => line.startsWith("| ") && !line.startsWith("| difference"));
	it("lists differences, each naming a test", () => {
		expect(rows.length).toBeGreaterThan(5);
		for (const row of rows) expect(row, row).toMatch(NAMED);
	});
	it.each(rows.flatMap((row) => [...row.matchAll(NAMED)].map((m) => m[1] ?? "")))("names %s, which exists", (file) => {
		expect(TEST_FILES).toContain(file.includes("/") ? file : `api/${file}`);
	});
});
