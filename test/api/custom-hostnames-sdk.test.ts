/**
 * Custom hostnames through the official `cloudflare` SDK (`client.customHostnames.*`), unchanged:
 * every method, its answer types and its error classes.
 */
import Cloudflare from "cloudflare";
import type { CustomHostnameEditParams } from "cloudflare/resources/custom-hostnames/custom-hostnames";
import { describe, expect, it } from "vitest";
import { call, freshZone } from "./http";
import { sdkClient } from "./sdk";

const unique = (label = "sdk") => `${label}.s${crypto.randomUUID().slice(0, 8)}.example.org`;

describe("client.customHostnames", () => {
	it("creates, gets, lists, edits and deletes, and the lifecycle reaches active", async () => {
		const client = sdkClient();
		const zone_id = await freshZone();
		await call("PUT", `/zones/${zone_id}/emulator/clock`, { now: "2024-03-01T00:00:00Z", frozen: true });
		const hostname = unique();
		const created = await client.customHostnames.create({
			zone_id,
			hostname,
			ssl: { method: "txt", type: "dv", certificate_authority: "lets_encrypt", settings: { min_tls_version: "1.2" } },
			custom_metadata: { tenant: "t1" },
		});
		expect(created).toMatchObject({ hostname, status: "pending", ssl: { certificate_authority: "lets_encrypt" } });
		expect(await client.customHostnames.get(created.id, { zone_id })).toEqual(created);

		const record = created.ssl?.validation_records?.[0];
		await call("POST", `/zones/${zone_id}/emulator/clock/advance`, { seconds: 5 });
		await call("PUT", `/zones/${zone_id}/emulator/dns/${record?.txt_name}`, { txt: [record?.txt_value] });
		await call("PUT", `/zones/${zone_id}/emulator/dns/${created.ownership_verification?.name}`, {
			txt: [created.ownership_verification?.value],
		});
		await call("POST", `/zones/${zone_id}/emulator/clock/advance`, { seconds: 60 });
		const active = await client.customHostnames.get(created.id, { zone_id });
		expect(active).toMatchObject({ status: "active", ssl: { status: "active", issuer: "LetsEncrypt" } });

		const listed = [];
		for await (const item of client.customHostnames.list({ zone_id, hostname: { exact: hostname }, per_page: 5 }))
			listed.push(item.id);
		expect(listed).toEqual([created.id]);
		const contains = await client.customHostnames.list({ zone_id, hostname: { contain: "sdk." }, ssl: 1 });
		expect(contains.result.map((h) => h.id)).toEqual([created.id]);
		const none = await client.customHostnames.list({ zone_id, ssl_status: "pending_validation", wildcard: false });
		expect(none.result).toEqual([]);

		// The Let's Encrypt chain update page's PATCH, whose "" the SDK's type does not spell (CertificateCAParam).
		const ssl = { method: "txt", type: "dv", certificate_authority: "" } as unknown as CustomHostnameEditParams.SSL;
		const edited = await client.customHostnames.edit(created.id, { zone_id, ssl });
		expect(edited.ssl).toMatchObject({ certificate_authority: "google", status: "initializing" });
		expect(edited.ssl?.id).not.toBe(created.ssl?.id);

		expect(await client.customHostnames.delete(created.id, { zone_id })).toEqual({ id: created.id });
		await expect(client.customHostnames.get(created.id, { zone_id })).rejects.toBeInstanceOf(Cloudflare.NotFoundError);
	});

	it("takes the SDK's UUID ids: an unknown one is NotFoundError (1436), and lists nothing", async () => {
		const client = sdkClient();
		const zone_id = await freshZone();
		const created = await client.customHostnames.create({ zone_id, hostname: unique() });
		expect(created.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
		const example = "0d89c70d-ad9f-4843-b99f-6cc0252067e9";
		const missing = await client.customHostnames.get(example, { zone_id }).catch((e: unknown) => e);
		expect(missing).toBeInstanceOf(Cloudflare.NotFoundError);
		expect((missing as InstanceType<typeof Cloudflare.NotFoundError>).errors).toMatchObject([{ code: 1436 }]);
		expect((await client.customHostnames.list({ zone_id, id: example })).result).toEqual([]);
		expect((await client.customHostnames.list({ zone_id, id: created.id })).result.map((h) => h.id)).toEqual([
			created.id,
		]);
	});

	it("answers a duplicate with ConflictError and an unknown CA with BadRequestError", async () => {
		const client = sdkClient();
		const zone_id = await freshZone();
		const hostname = unique();
		await client.customHostnames.create({ zone_id, hostname });
		const duplicate = await client.customHostnames.create({ zone_id, hostname }).catch((e: unknown) => e);
		expect(duplicate).toBeInstanceOf(Cloudflare.ConflictError);
		expect((duplicate as InstanceType<typeof Cloudflare.ConflictError>).errors).toMatchObject([{ code: 1406 }]);
		const unknown = await client.customHostnames
			.create({ zone_id, hostname: unique(), ssl: { certificate_authority: "digicert" } })
			.catch((e: unknown) => e);
		expect(unknown).toBeInstanceOf(Cloudflare.BadRequestError);
	});

	it("sets, reads and deletes the fallback origin, and reads the quota", async () => {
		const client = sdkClient();
		const zone_id = await freshZone();
		await expect(client.customHostnames.fallbackOrigin.get({ zone_id })).rejects.toBeInstanceOf(
			Cloudflare.NotFoundError,
		);
		const set = await client.customHostnames.fallbackOrigin.update({ zone_id, origin: "fallback.example.net" });
		expect(set).toMatchObject({ origin: "fallback.example.net", errors: [] });
		expect(await client.customHostnames.fallbackOrigin.get({ zone_id })).toMatchObject({
			origin: "fallback.example.net",
		});
		expect(await client.customHostnames.fallbackOrigin.delete({ zone_id })).toMatchObject({
			status: "pending_deletion",
		});
		await client.customHostnames.create({ zone_id, hostname: unique() });
		expect(await client.customHostnames.quota.get({ zone_id })).toEqual({
			allocated: 100,
			used: 1,
			exceeded: false,
			hard_cap: 1000,
		});
	});
});
