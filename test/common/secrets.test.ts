import { describe, expect, it } from "vitest";
import { fixedSecret, MAX_SECRET_BYTES, sameSecret } from "../../src/common/secrets";

describe("secrets", () => {
	it("finds equal secrets equal and others not, whatever their lengths", () => {
		const known = fixedSecret("token-one");
		expect(known).toBeDefined();
		if (known === undefined) return;
		expect(sameSecret(fixedSecret("token-one"), known)).toBe(true);
		expect(sameSecret(fixedSecret("token-two"), known)).toBe(false);
		expect(sameSecret(fixedSecret("token-on"), known)).toBe(false);
		expect(sameSecret(fixedSecret("token-one\0"), known)).toBe(false);
		expect(sameSecret(fixedSecret(""), known)).toBe(false);
	});

	it("gives every secret the same buffer size, and none to a secret over the limit", () => {
		expect(fixedSecret("a")?.byteLength).toBe(fixedSecret("a".repeat(MAX_SECRET_BYTES))?.byteLength);
		expect(fixedSecret("a".repeat(MAX_SECRET_BYTES + 1))).toBeUndefined();
		// Bytes of UTF-8 count, not characters: 512 two-byte characters fit, 513 do not.
		expect(fixedSecret("ü".repeat(512))).toBeDefined();
		expect(fixedSecret("ü".repeat(513))).toBeUndefined();
	});

	it("finds an absent secret equal to nothing, not even the empty one", () => {
		const empty = fixedSecret("");
		expect(empty).toBeDefined();
		if (empty === undefined) return;
		expect(sameSecret(undefined, empty)).toBe(false);
	});
});
