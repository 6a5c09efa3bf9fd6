/** Helpers of the origin tests: a zone with records, requests through the edge, the origin's counter. */
import { exports } from "cloudflare:workers";
import { expect, inject } from "vitest";
import { call } from "../../api/http";

/** The echoing origin's port and a port nothing listens on (`origin-server.ts`). */
export const originPort = () => inject("originPort");
export const refusedPort = () => inject("refusedPort");

/** A new zone; its id and name. */
export async function originZone(): Promise<{ zone_id: string; zone: string }> {
	const zone = `origin-${crypto.randomUUID().slice(0, 8)}.example.net`;
	const res = await call("POST", "/zones", { name: zone, account: {} });
	expect(res.status).toBe(200);
	return { zone_id: (res.body.result as { id: string }).id, zone };
}

/** Creates a DNS record through the API; answers its id. */
export async function record(
	zone_id: string,
	type: string,
	name: string,
	content: string,
	proxied = true,
): Promise<string> {
	const res = await call("POST", `/zones/${zone_id}/dns_records`, { type, name, content, proxied, ttl: 1 });
	expect(res.status, JSON.stringify(res.body)).toBe(200);
	return (res.body.result as { id: string }).id;
}

/** A request through the edge to `url`; the body read as text. */
export async function visit(
	url: string,
	init: RequestInit = {},
): Promise<{ status: number; headers: Headers; text: string }> {
	const response = await exports.default.fetch(url, init);
	return { status: response.status, headers: response.headers, text: await response.text() };
}

/** What the echoing origin answers: the request it received. */
export interface Echo {
	method: string;
	url: string;
	headers: Record<string, string>;
	body: string;
}

/** How many requests for `path` the echoing origin has received. */
export async function originCount(path: string): Promise<number> {
	const res = await fetch(`http://127.0.0.1:${originPort()}/__count?path=${encodeURIComponent(path)}`);
	return Number(await res.text());
}
