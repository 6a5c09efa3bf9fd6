/** A bucket's CORS policy in the dashboard's JSON form and R2's API form (src/dash/bucket/cors-policy.ts), pure. */
import { describe, expect, it } from "vitest";
import { parsePolicy, policyText } from "../../src/dash/bucket/cors-policy";

describe("a CORS policy as the dashboard edits it", () => {
	it("reads the docs' example and every optional key into the API's rules", () => {
		const typed = `[
			{"AllowedOrigins": ["http://localhost:3000"], "AllowedMethods": ["GET"]},
			{"ID": "fonts", "AllowedOrigins": ["https://*.example.com"], "AllowedMethods": ["GET", "HEAD"],
			 "AllowedHeaders": ["range"], "ExposeHeaders": ["Content-Range"], "MaxAgeSeconds": 3600}
		]`;
		expect(parsePolicy(typed)).toStrictEqual({
			ok: true,
			rules: [
				{ allowed: { origins: ["http://localhost:3000"], methods: ["GET"] } },
				{
					id: "fonts",
					allowed: { origins: ["https://*.example.com"], methods: ["GET", "HEAD"], headers: ["range"] },
					exposeHeaders: ["Content-Range"],
					maxAgeSeconds: 3600,
				},
			],
		});
	});

	it("shows the API's rules in the same form, so what is shown parses back to the same rules", () => {
		const rules = [
			{ id: "fonts", allowed: { origins: ["*"], methods: ["GET" as const], headers: [] }, exposeHeaders: ["ETag"] },
		];
		const shown = policyText(rules);
		expect(JSON.parse(shown)).toStrictEqual([
			{ ID: "fonts", AllowedOrigins: ["*"], AllowedMethods: ["GET"], ExposeHeaders: ["ETag"] },
		]);
		expect(parsePolicy(shown)).toStrictEqual({
			ok: true,
			rules: [{ id: "fonts", allowed: { origins: ["*"], methods: ["GET"] }, exposeHeaders: ["ETag"] }],
		});
		expect(policyText([])).toBe("[]");
	});

	it("refuses what is not a policy, saying where", () => {
		const refusal = (text: string) => {
			const parsed = parsePolicy(text);
			return parsed.ok ? "taken" : parsed.message;
		};
		expect(refusal("[{")).toMatch(/^The policy is not JSON/);
		expect(refusal('{"AllowedOrigins": ["*"]}')).toMatch(/^The policy: /);
		expect(refusal('[{"AllowedOrigins": ["*"], "AllowedMethods": ["GET", "PATCH"]}]')).toMatch(
			/^The policy's \[0\]\.AllowedMethods\[1\]: /,
		);
		expect(refusal('[{"AllowedOrigins": [], "AllowedMethods": ["GET"]}]')).toMatch(
			/^The policy's \[0\]\.AllowedOrigins: /,
		);
		// A misspelt key is refused rather than dropped unseen.
		expect(refusal('[{"AllowedOrigins": ["*"], "AllowedMethods": ["GET"], "MaxAge": 5}]')).toMatch(
			/^The policy's \[0\]/,
		);
		expect(refusal('[{"AllowedOrigins": ["*"], "AllowedMethods": ["GET"], "MaxAgeSeconds": -1}]')).toMatch(
			/^The policy's \[0\]\.MaxAgeSeconds: /,
		);
	});
});
