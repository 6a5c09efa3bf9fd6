/**
 * `R2_BUCKETS` says again what wrangler.toml's `[[r2_buckets]]` declare (bucket_name -> binding):
 * a Worker sees its bindings but not their bucket names, and cannot read wrangler.toml, so the two
 * lists are kept in step by hand and checked here. Every declared bucket but `RUNTIME_BUCKETS`
 * (the storage of the buckets created at run time, src/runtime-buckets/, no bucket itself) is in
 * `R2_BUCKETS` under its `bucket_name`, and `R2_BUCKETS` names nothing else.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const toml = readFileSync(join(import.meta.dirname, "..", "..", "wrangler.toml"), "utf8");

/** The `[[r2_buckets]]` tables: each `binding` and `bucket_name`, read line by line. */
function declared(): Record<string, string> {
	const buckets: Record<string, string> = {};
	for (const table of toml.split(/^\[\[r2_buckets\]\]$/m).slice(1)) {
		const body = table.split(/^\[/m)[0] ?? "";
		const binding = /^binding = "([^"]+)"$/m.exec(body)?.[1];
		const name = /^bucket_name = "([^"]+)"$/m.exec(body)?.[1];
		if (binding === undefined || name === undefined)
			throw new Error(`an [[r2_buckets]] table without binding or bucket_name:${table}`);
		buckets[name] = binding;
	}
	return buckets;
}

describe("wrangler.toml's buckets", () => {
	it("R2_BUCKETS names every [[r2_buckets]] but RUNTIME_BUCKETS, by its bucket_name, and nothing else", () => {
		const value = /^R2_BUCKETS = '(.+)'$/m.exec(toml)?.[1];
		expect(value).toBeDefined();
		const served = JSON.parse(value ?? "{}") as Record<string, string>;
		const expected = Object.fromEntries(
			Object.entries(declared()).filter(([, binding]) => binding !== "RUNTIME_BUCKETS"),
		);
		expect(served).toEqual(expected);
		expect(Object.values(declared())).toContain("RUNTIME_BUCKETS");
	});
});
