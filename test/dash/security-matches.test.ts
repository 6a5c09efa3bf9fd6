/** The dashboard's reading of Logpull records: the query of the last hour, and matches grouped by rule. */
import { describe, expect, it } from "vitest";
import { ndjsonRecords, recentQuery } from "../../src/dash/recent-log";
import { MATCH_FIELDS, MATCHES_SHOWN, matchesByRule } from "../../src/dash/security/matches";

const record = (n: number, ids: string[], actions: string[], security = "") =>
	JSON.stringify({
		RayID: `ray${n}`,
		ClientRequestPath: `/p${n}`,
		ClientIP: "192.0.2.1",
		EdgeStartTimestamp: `2026-01-01T00:00:0${n}Z`,
		FirewallMatchesRuleIDs: ids,
		FirewallMatchesActions: actions,
		SecurityAction: security,
	});

describe("recentQuery", () => {
	it("asks for the hour ending now, in RFC 3339, with the fields the page shows", () => {
		const now = Date.parse("2026-03-01T12:00:00.500Z");
		const url = new URL(`http://x${recentQuery("abc", now, MATCH_FIELDS, 50)}`);
		expect(url.pathname).toBe("/zones/abc/logs/received");
		expect(url.searchParams.get("start")).toBe("2026-03-01T11:00:00.501Z");
		expect(url.searchParams.get("end")).toBe("2026-03-01T12:00:00.500Z");
		expect(url.searchParams.get("timestamps")).toBe("rfc3339");
		expect(url.searchParams.get("fields")?.split(",")).toContain("FirewallMatchesRuleIDs");
		expect(url.searchParams.get("count")).toBe("50");
	});
});

describe("matchesByRule", () => {
	it("counts each rule's matches and keeps the action at the rule's index, newest first", () => {
		const body = [
			record(1, ["a"], ["log"]),
			record(2, ["a", "b"], ["log", "block"], "block"),
			record(3, [], []),
			"",
		].join("\n");
		const byRule = matchesByRule(ndjsonRecords(body));
		expect([...byRule.keys()]).toEqual(["a", "b"]);
		expect(byRule.get("a")?.count).toBe(2);
		expect(byRule.get("a")?.recent.map((m) => m.rayId)).toEqual(["ray2", "ray1"]);
		expect(byRule.get("b")?.recent).toEqual([
			{
				rayId: "ray2",
				path: "/p2",
				clientIp: "192.0.2.1",
				time: "2026-01-01T00:00:02Z",
				action: "block",
				securityAction: "block",
			},
		]);
	});

	it(`keeps only the newest ${MATCHES_SHOWN} of a rule, and skips lines that are not records`, () => {
		const lines = Array.from({ length: MATCHES_SHOWN + 2 }, (_, i) => record(i, ["a"], ["block"]));
		const byRule = matchesByRule(ndjsonRecords(["not json", "[1]", ...lines].join("\n")));
		expect(byRule.get("a")?.count).toBe(MATCHES_SHOWN + 2);
		expect(byRule.get("a")?.recent.map((m) => m.rayId)).toEqual(
			Array.from({ length: MATCHES_SHOWN }, (_, i) => `ray${MATCHES_SHOWN + 1 - i}`),
		);
	});
});
