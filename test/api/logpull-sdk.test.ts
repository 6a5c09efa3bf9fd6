/**
 * Logpull through the official `cloudflare` SDK, unchanged: the retention flag, `logs.received`,
 * `logs.received.fields`, `logs.RayID`, and a refused query as the SDK's typed error.
 */
import Cloudflare from "cloudflare";
import { describe, expect, it } from "vitest";
import { LOGPULL_DEFAULT_FIELDS } from "../../src/logs/logpull";
import { edgeRequest, flush, zoneWithHost } from "../edge/logs-helpers";
import { sdkClient } from "./sdk";

const parse = (body: unknown): Record<string, unknown>[] =>
	String(body)
		.split("\n")
		.filter((line) => line !== "")
		.map((line) => JSON.parse(line) as Record<string, unknown>);

describe("Logpull with the SDK", () => {
	it("turns retention on, then pulls the edge's requests by time and by Ray ID", async () => {
		const client = sdkClient();
		const { zone_id, host } = await zoneWithHost("sdk");
		expect(await client.logs.control.retention.get({ zone_id })).toStrictEqual({ flag: false });
		expect(await client.logs.control.retention.create({ zone_id, flag: true })).toStrictEqual({ flag: true });
		expect(await client.logs.control.retention.get({ zone_id })).toStrictEqual({ flag: true });

		const a = await edgeRequest(host, "/sdk/a");
		const b = await edgeRequest(host, "/sdk/b");
		await flush(zone_id);
		await scheduler.wait(5);
		const now = Date.now();
		const body = await client.logs.received.get({
			zone_id,
			start: new Date(now - 60_000).toISOString(),
			end: `${now}000000`,
			fields: "RayID,ClientRequestPath,EdgeStartTimestamp",
			timestamps: "rfc3339",
		});
		expect(typeof body).toBe("string");
		const records = parse(body);
		expect(records.map((r) => [r.RayID, r.ClientRequestPath])).toStrictEqual([
			[a.ray, "/sdk/a"],
			[b.ray, "/sdk/b"],
		]);
		expect(records[0]?.EdgeStartTimestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);

		const counted = await client.logs.received.get({
			zone_id,
			start: Math.floor((now - 60_000) / 1000),
			end: `${now}000000`,
			count: 1,
		});
		const [first] = parse(counted);
		expect(Object.keys(first ?? {})).toStrictEqual([...LOGPULL_DEFAULT_FIELDS]);
		expect(first?.RayID).toBe(a.ray);

		const byRay = parse(await client.logs.RayID.get(b.ray, { zone_id, fields: "RayID,ClientRequestPath" }));
		expect(byRay).toStrictEqual([{ ClientRequestPath: "/sdk/b", RayID: b.ray }]);
	});

	it("lists the fields, and a refused query is a BadRequestError with the message", async () => {
		const client = sdkClient();
		const { zone_id } = await zoneWithHost("sdkerr");
		const fields = (await client.logs.received.fields.get({ zone_id })) as Record<string, string>;
		expect(fields.RayID).toEqual(expect.any(String));
		expect(fields.EdgeStartTimestamp).toEqual(expect.any(String));
		const now = Math.floor(Date.now() / 1000);
		const error = await client.logs.received.get({ zone_id, start: now - 7200, end: now - 60 }).then(
			() => undefined,
			(e: unknown) => e,
		);
		expect(error).toBeInstanceOf(Cloudflare.BadRequestError);
		expect((error as InstanceType<typeof Cloudflare.BadRequestError>).message).toContain(
			"bad query: error parsing time: invalid time range: too long",
		);
	});
});
