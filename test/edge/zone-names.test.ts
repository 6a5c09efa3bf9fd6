import { describe, expect, it } from "vitest";
import { holdingZone } from "../../src/edge/zone-names";

const zones = [
	{ id: "a", name: "shop.test" },
	{ id: "b", name: "eu.shop.test" },
	{ id: "c", name: "example.com" },
];

describe("holdingZone", () => {
	it("is the zone of the name itself, or of its nearest parent", () => {
		expect(holdingZone("shop.test", zones)?.id).toBe("a");
		expect(holdingZone("www.shop.test", zones)?.id).toBe("a");
		expect(holdingZone("cdn.eu.shop.test", zones)?.id).toBe("b");
		expect(holdingZone("eu.shop.test", zones)?.id).toBe("b");
	});

	it("holds no name that only ends with a zone's letters, nor a parent of a zone", () => {
		expect(holdingZone("notexample.com", zones)).toBeUndefined();
		expect(holdingZone("xshop.test", zones)).toBeUndefined();
		expect(holdingZone("com", zones)).toBeUndefined();
		expect(holdingZone("test", zones)).toBeUndefined();
	});
});
