/** Helpers of the edge-log tests: zones with a host, gateway requests, flushes and delivered objects. */
import { env, exports } from "cloudflare:workers";
import { expect } from "vitest";
import { call } from "../api/http";

/** A new zone and its host name. */
export async function zoneWithHost(prefix = "logs"): Promise<{ zone_id: string; host: string }> {
	const host = `${prefix}-${crypto.randomUUID().slice(0, 8)}.example.net`;
	const res = await call("POST", "/zones", { name: host, account: {} });
	expect(res.status).toBe(200);
	return { zone_id: (res.body.result as { id: string }).id, host };
}

/** A gateway request to `host` with the read-write token and `headers`; the body is read. */
export async function edgeRequest(
	host: string,
	path: string,
	init: { method?: string; headers?: HeadersInit; body?: string } = {},
): Promise<{ status: number; ray: string; headers: Headers; text: string }> {
	const headers = new Headers(init.headers);
	if (!headers.has("authorization")) headers.set("authorization", "Bearer test-rw");
	const response = await exports.default.fetch(`http://${host}${path}`, {
		method: init.method ?? "GET",
		headers,
		body: init.body,
	});
	const text = new TextDecoder().decode(await response.arrayBuffer());
	const ray = response.headers.get("cf-ray") ?? "";
	return { status: response.status, ray: ray.split("-")[0] ?? "", headers: response.headers, text };
}

/** What `POST .../emulator/logs/flush` answers. */
export interface Delivery {
	job_id: number;
	entries: number;
	records: number;
	objects: string[];
	error?: string;
}

/** Flushes the zone's logs now. */
export async function flush(zone_id: string): Promise<Delivery[]> {
	// Entries are queued in waitUntil after the body ends: let those callbacks run first.
	await scheduler.wait(1);
	const res = await call("POST", `/zones/${zone_id}/emulator/logs/flush`);
	expect(res.status, JSON.stringify(res.body)).toBe(200);
	return (res.body.result as { deliveries: Delivery[] }).deliveries;
}

/** A delivered object's text, gunzipped. */
export async function gunzipped(key: string): Promise<string> {
	const object = await env.LOGS.get(key);
	if (object === null) throw new Error(`no object ${key}`);
	const stream = object.body.pipeThrough(new DecompressionStream("gzip"));
	return new Response(stream).text();
}

/** The ndjson records of delivered objects, parsed. */
export async function records(keys: readonly string[]): Promise<Record<string, unknown>[]> {
	const out: Record<string, unknown>[] = [];
	for (const key of keys) {
		for (const line of (await gunzipped(key)).split("\n")) if (line !== "") out.push(JSON.parse(line));
	}
	return out;
}

/** A destination path unique to a test, under the zone's id (a zone writes there only). */
export const uniquePath = (zone_id: string, label: string) => `${zone_id}/${label}-${crypto.randomUUID().slice(0, 8)}`;

/** Spec area A, rule 2: find or create the entrypoint ruleset, PUT the rule, create the job. */
export async function configure(
	zone_id: string,
	parameters: Record<string, unknown>,
	job: Record<string, unknown> = {},
): Promise<{ job_id: number; path: string }> {
	const list = await call("GET", `/zones/${zone_id}/rulesets`);
	const existing = (list.body.result as { id: string; kind: string; phase: string }[]).find(
		(r) => r.kind === "zone" && r.phase === "http_log_custom_fields",
	);
	let rulesetId = existing?.id;
	if (rulesetId === undefined) {
		const created = await call("POST", `/zones/${zone_id}/rulesets`, {
			name: "Zone-level phase entry point",
			kind: "zone",
			description: "This ruleset configures custom log fields.",
			phase: "http_log_custom_fields",
		});
		expect(created.status).toBe(200);
		rulesetId = (created.body.result as { id: string }).id;
	}
	const put = await call("PUT", `/zones/${zone_id}/rulesets/${rulesetId}`, {
		rules: [
			{
				action: "log_custom_field",
				expression: "true",
				description: "Set Logpush custom fields for HTTP requests",
				action_parameters: parameters,
			},
		],
	});
	expect(put.status, JSON.stringify(put.body)).toBe(200);
	const path = uniquePath(zone_id, "flow");
	const created = await call("POST", `/zones/${zone_id}/logpush/jobs`, {
		name: "example.com",
		destination_conf: `r2://edgezone-logs/${path}/{DATE}`,
		dataset: "http_requests",
		enabled: true,
		output_options: {
			field_names: ["RayID", "EdgeStartTimestamp", "Cookies", "RequestHeaders", "ResponseHeaders"],
			timestamp_format: "rfc3339",
		},
		...job,
	});
	expect(created.status, JSON.stringify(created.body)).toBe(200);
	return { job_id: (created.body.result as { id: number }).id, path };
}
