import { describe, expect, it } from "vitest";
import { gw } from "./helpers";

describe("JSON answers of the gateway", () => {
	it.each([
		["a put", "/json-answers/a", { method: "PUT", body: "a" }, 200],
		["a list", "/?list&prefix=json-answers/", {}, 200],
		["a multipart creation", "/json-answers/m?uploads", { method: "POST" }, 200],
		["an error", "/json-answers/missing", {}, 404],
		["a bad request", "/?list&limit=0", {}, 400],
	])("end %s in one newline after the JSON value", async (_, path, init, status) => {
		const response = await gw(path, init);
		expect(response.status).toBe(status);
		expect(response.headers.get("content-type")).toBe("application/json");
		const text = await response.text();
		expect(text.endsWith("}\n")).toBe(true);
		expect(() => JSON.parse(text)).not.toThrow();
	});
});
