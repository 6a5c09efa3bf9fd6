/**
 * Managed Transforms through the official `cloudflare` SDK, unchanged
 * (`client.managedTransforms.list/edit/delete`): the lists, their conflicts, the refusals, and
 * the permission. What they do to traffic: test/edge/origin/managed-transforms.test.ts.
 */
import { env } from "cloudflare:workers";
import Cloudflare from "cloudflare";
import { describe, expect, it } from "vitest";
import { zoneState } from "../../src/common/durable-objects";
import { DNS_READ_TOKEN, READ_TOKEN, TRANSFORM_TOKEN } from "./credentials";
import { call, freshZone } from "./http";
import { sdkClient } from "./sdk";

/** Both lists with `on` enabled, as the API answers them. */
function lists(...on: string[]) {
	const entry = (id: string, conflicts?: string) => ({
		id,
		enabled: on.includes(id),
		has_conflict: conflicts !== undefined && on.includes(conflicts),
		...(conflicts === undefined ? {} : { conflicts_with: [conflicts] }),
	});
	return {
		managed_request_headers: [
			entry("add_visitor_location_headers"),
			entry("add_true_client_ip_headers", "remove_visitor_ip_headers"),
			entry("remove_visitor_ip_headers", "add_true_client_ip_headers"),
		],
		managed_response_headers: [entry("remove_x-powered-by_header"), entry("add_security_headers")],
	};
}

/** The status, first error code, message and pointer of what `request` throws (an SDK APIError). */
async function refusal(request: Promise<unknown>) {
	const error = await request.then(
		() => undefined,
		(e: unknown) => e,
	);
	expect(error).toBeInstanceOf(Cloudflare.APIError);
	const api = error as InstanceType<typeof Cloudflare.APIError>;
	const first = (api.errors as { code: number; message: string; source?: { pointer: string } }[])[0];
	return { status: api.status, code: first?.code, message: first?.message, pointer: first?.source?.pointer };
}

describe("client.managedTransforms", () => {
	it("lists every transform off in a new zone, switches some on, and turns all off with delete", async () => {
		const cf = sdkClient();
		const zone_id = await freshZone();
		expect(await cf.managedTransforms.list({ zone_id })).toStrictEqual(lists());
		const edited = await cf.managedTransforms.edit({
			zone_id,
			managed_request_headers: [{ id: "add_visitor_location_headers", enabled: true }],
			managed_response_headers: [{ id: "remove_x-powered-by_header", enabled: true }],
		});
		expect(edited).toStrictEqual(lists("add_visitor_location_headers", "remove_x-powered-by_header"));
		// One list alone leaves the other as it is; an entry may carry back what the list answered.
		expect(
			await cf.managedTransforms.edit({
				zone_id,
				managed_response_headers: [
					{ id: "remove_x-powered-by_header", enabled: false, has_conflict: false } as never,
					{ id: "add_security_headers", enabled: true },
				],
			}),
		).toStrictEqual(lists("add_visitor_location_headers", "add_security_headers"));
		expect(await cf.managedTransforms.list({ zone_id })).toStrictEqual(
			lists("add_visitor_location_headers", "add_security_headers"),
		);
		await cf.managedTransforms.delete({ zone_id });
		expect(await cf.managedTransforms.list({ zone_id })).toStrictEqual(lists());
	});

	it("shows a conflict while its other half is on, and refuses both on at once, storing nothing", async () => {
		const cf = sdkClient();
		const zone_id = await freshZone();
		const removing = await cf.managedTransforms.edit({
			zone_id,
			managed_request_headers: [{ id: "remove_visitor_ip_headers", enabled: true }],
		});
		expect(removing).toStrictEqual(lists("remove_visitor_ip_headers"));
		expect(removing.managed_request_headers[1]).toMatchObject({ id: "add_true_client_ip_headers", has_conflict: true });
		expect(
			await refusal(
				cf.managedTransforms.edit({
					zone_id,
					managed_request_headers: [{ id: "add_true_client_ip_headers", enabled: true }],
					managed_response_headers: [{ id: "add_security_headers", enabled: true }],
				}),
			),
		).toStrictEqual({
			status: 400,
			code: 20200,
			message: "add_true_client_ip_headers and remove_visitor_ip_headers conflict: at most one of them can be enabled",
			pointer: "/managed_request_headers",
		});
		expect(await cf.managedTransforms.list({ zone_id })).toStrictEqual(lists("remove_visitor_ip_headers"));
		// Turning one off and the other on in one PATCH leaves no conflict.
		expect(
			await cf.managedTransforms.edit({
				zone_id,
				managed_request_headers: [
					{ id: "remove_visitor_ip_headers", enabled: false },
					{ id: "add_true_client_ip_headers", enabled: true },
				],
			}),
		).toStrictEqual(lists("add_true_client_ip_headers"));
	});

	it("refuses an unknown transform, one in the other list, one named twice and a bad body, with the field", async () => {
		const cf = sdkClient();
		const zone_id = await freshZone();
		const edit = (body: object) => refusal(cf.managedTransforms.edit({ zone_id, ...body }));
		expect(await edit({ managed_request_headers: [{ id: "add_visitor_headers", enabled: false }] })).toStrictEqual({
			status: 400,
			code: 20200,
			message: "add_visitor_headers is not a Managed Transform of this zone",
			pointer: "/managed_request_headers/0/id",
		});
		// One of Cloudflare's that edgezone does not perform: may be kept off, not turned on.
		expect(
			await edit({ managed_request_headers: [{ id: "add_bot_protection_headers", enabled: true }] }),
		).toMatchObject({
			message: "add_bot_protection_headers is not available in this zone: edgezone does not emulate what it reads",
			pointer: "/managed_request_headers/0/id",
		});
		expect(
			await cf.managedTransforms.edit({
				zone_id,
				managed_request_headers: [{ id: "add_bot_protection_headers", enabled: false }],
			}),
		).toStrictEqual(lists());
		expect(
			await edit({
				managed_request_headers: [
					{ id: "add_visitor_location_headers", enabled: true },
					{ id: "add_security_headers", enabled: true },
				],
			}),
		).toMatchObject({
			message:
				"add_security_headers is a Managed Transform of managed_response_headers, not of managed_request_headers",
			pointer: "/managed_request_headers/1/id",
		});
		expect(
			await edit({
				managed_response_headers: [
					{ id: "add_security_headers", enabled: true },
					{ id: "add_security_headers", enabled: false },
				],
			}),
		).toMatchObject({ code: 20200, pointer: "/managed_response_headers/1/id" });
		expect(await edit({ managed_response_headers: [{ id: "add_security_headers", enabled: "yes" }] })).toMatchObject({
			status: 400,
			code: 20200,
		});
		expect(await edit({ managed_headers: [] })).toMatchObject({ status: 400, code: 20200 });
		expect(await cf.managedTransforms.list({ zone_id })).toStrictEqual(lists());
	});

	it("bumps the zone's configuration version with each write, not on a read or a refused one", async () => {
		const cf = sdkClient();
		const zone_id = await freshZone();
		const config = () => zoneState(env, zone_id).edgeConfig();
		await cf.managedTransforms.list({ zone_id });
		await refusal(cf.managedTransforms.edit({ zone_id, managed_request_headers: [{ id: "unknown", enabled: true }] }));
		expect((await config()).version).toBe(0);
		await cf.managedTransforms.edit({
			zone_id,
			managed_response_headers: [{ id: "add_security_headers", enabled: true }],
		});
		expect(await config()).toMatchObject({ version: 1, managedTransforms: ["add_security_headers"] });
		await cf.managedTransforms.delete({ zone_id });
		expect(await config()).toMatchObject({ version: 2, managedTransforms: [] });
	});

	it("reads with a rulesets family's Read, writes with its Edit; answers DELETE 204 with no body", async () => {
		const zone_id = await freshZone();
		expect(await sdkClient(READ_TOKEN).managedTransforms.list({ zone_id })).toStrictEqual(lists());
		expect(
			await refusal(
				sdkClient(READ_TOKEN).managedTransforms.edit({
					zone_id,
					managed_response_headers: [{ id: "add_security_headers", enabled: true }],
				}),
			),
		).toMatchObject({ status: 403, code: 10000 });
		expect(await refusal(sdkClient(DNS_READ_TOKEN).managedTransforms.list({ zone_id }))).toMatchObject({
			status: 403,
			code: 10000,
		});
		const transform = sdkClient(TRANSFORM_TOKEN);
		await transform.managedTransforms.edit({
			zone_id,
			managed_response_headers: [{ id: "add_security_headers", enabled: true }],
		});
		const deleted = await call("DELETE", `/zones/${zone_id}/managed_headers`);
		expect(deleted.status).toBe(204);
		expect(deleted.body).toStrictEqual({});
		expect(await transform.managedTransforms.list({ zone_id })).toStrictEqual(lists());
	});
});
