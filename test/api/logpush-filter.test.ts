/** A job's `filter` and `record_template` through the API: kept, removed, refused with 400 1002. */
import { describe, expect, it } from "vitest";
import { LOGS_READ_TOKEN } from "./credentials";
import { call, freshZone } from "./http";

const FILTER = JSON.stringify({
	where: {
		and: [
			{ key: "ClientRequestPath", operator: "contains", value: "/static" },
			{ key: "ClientRequestHost", operator: "eq", value: "example.com" },
		],
	},
});

describe("filter", () => {
	it("keeps the docs' example filter, and removes it with null", async () => {
		const zone = await freshZone();
		const created = await call("POST", `/zones/${zone}/logpush/jobs`, {
			destination_conf: `r2://edgezone-logs/${zone}/f`,
			filter: FILTER,
		});
		expect(created.status).toBe(200);
		const { id, filter } = created.body.result as { id: number; filter?: string };
		expect(filter).toBe(FILTER);
		const cleared = await call("PUT", `/zones/${zone}/logpush/jobs/${id}`, { filter: null });
		expect(cleared.body.result).not.toHaveProperty("filter");
	});

	it.each([
		["not JSON", "{"],
		["an unknown field", JSON.stringify({ where: { key: "Nope", operator: "eq", value: "x" } })],
		["an unknown operator", JSON.stringify({ where: { key: "RayID", operator: "like", value: "x" } })],
	])("refuses %s with a 400 1002 at /filter, creating nothing", async (_, filter) => {
		const zone = await freshZone();
		const res = await call("POST", `/zones/${zone}/logpush/jobs`, {
			destination_conf: `r2://edgezone-logs/${zone}/f`,
			filter,
		});
		expect(res.status).toBe(400);
		expect(res.body.errors).toEqual([expect.objectContaining({ code: 1002, source: { pointer: "/filter" } })]);
		expect((await call("GET", `/zones/${zone}/logpush/jobs`)).body.result).toEqual([]);
	});
});

describe("record_template", () => {
	it("refuses template actions beyond fields, constants and comments", async () => {
		const zone = await freshZone();
		const res = await call("POST", `/zones/${zone}/logpush/jobs`, {
			destination_conf: `r2://edgezone-logs/${zone}/f`,
			output_options: { record_template: "{{if .RayID}}x{{end}}" },
		});
		expect(res.status).toBe(400);
		expect(res.body.errors).toEqual([
			expect.objectContaining({ code: 1002, source: { pointer: "/output_options/record_template" } }),
		]);
	});
});

describe("emulator log routes", () => {
	it("need Logs Edit, as log-push jobs do", async () => {
		const zone = await freshZone();
		const headers = { Authorization: `Bearer ${LOGS_READ_TOKEN}` };
		expect((await call("GET", `/zones/${zone}/emulator/logs`, undefined, headers)).status).toBe(403);
		expect((await call("POST", `/zones/${zone}/emulator/logs/flush`, undefined, headers)).status).toBe(403);
		expect((await call("GET", `/zones/${zone}/emulator/logs`)).body.result).toMatchObject({ entries: 0, jobs: [] });
	});
});
