import { describe, expect, it } from "vitest";
import { compileCached, compiledCacheCounts } from "../../src/rules-language/compiled-cache.ts";

describe("the isolate's compiled expressions", () => {
	const unique = () => `http.host eq "${crypto.randomUUID()}.example.net"`;

	it("answers the same text with the same compiled filter, compiling it once", () => {
		const expression = unique();
		const before = compiledCacheCounts();
		const first = compileCached(expression);
		const second = compileCached(expression);
		expect(second).toBe(first);
		const after = compiledCacheCounts();
		expect(after.compilations - before.compilations).toBe(1);
		expect(after.hits - before.hits).toBe(1);
	});

	it("keeps an expression's error as well", () => {
		const expression = `http.host eq ${crypto.randomUUID()}`;
		const first = compileCached(expression);
		expect(first.ok).toBe(false);
		expect(compileCached(expression)).toBe(first);
	});

	it("compiles a stored expression past the limits on regexes without them, and keeps the two apart", () => {
		// 65 regexes: refused when written (Cloudflare allows 64 per rule), and still run as stored
		// by a zone that wrote it before the limit.
		const tag = crypto.randomUUID().slice(0, 8);
		const expression = Array.from({ length: 65 }, (_, i) => `http.request.uri.path matches "^/${tag}/${i}/"`).join(
			" or ",
		);
		const written = compileCached(expression);
		expect(written.ok).toBe(false);
		const stored = compileCached(expression, false);
		expect(stored.ok).toBe(true);
		if (stored.ok) expect(stored.filter.matches({ "http.request.uri.path": `/${tag}/64/x` })).toBe(true);
		expect(compileCached(expression)).toBe(written);
	});

	it("knows the response fields only in a response phase's scheme, and keeps the two apart", () => {
		const expression = `http.response.code eq 404 and http.host eq "${crypto.randomUUID()}.example.net"`;
		const request = compileCached(expression);
		expect(request.ok).toBe(false);
		if (!request.ok) expect(request.error.message).toContain("unknown identifier");
		const response = compileCached(expression, true, "response");
		expect(response.ok).toBe(true);
		if (response.ok) expect(response.filter.fields).toContain("http.response.code");
		expect(compileCached(expression)).toBe(request);
		expect(compileCached(expression, true, "response")).toBe(response);
	});

	it("forgets the expression used least recently once 4,096 others were compiled", () => {
		const kept = unique();
		const dropped = unique();
		const keptFilter = compileCached(kept);
		const droppedFilter = compileCached(dropped);
		for (let i = 0; i < 4095; i++) {
			compileCached(unique());
			// Used again and again: it stays the most recently used.
			if (i % 1000 === 0) compileCached(kept);
		}
		compileCached(kept);
		const before = compiledCacheCounts();
		expect(compileCached(kept)).toBe(keptFilter);
		const again = compileCached(dropped);
		expect(again).not.toBe(droppedFilter);
		expect(compiledCacheCounts().compilations - before.compilations).toBe(1);
	});
});
