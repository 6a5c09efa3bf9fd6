/**
 * The 2024 replay: the zone's clock set to dates across 2024, and the certificate packs' CA, the
 * outbox and the served chains checked against Cloudflare's Let's Encrypt chain update schedule
 * (developers.cloudflare.com/ssl/reference/migration-guides/lets-encrypt-chain/) as
 * `src/certificates/` encodes it.
 */
import { describe, expect, it } from "vitest";
import { CERTS } from "../../zone/certificates/fixtures";
import { READ_TOKEN } from "../credentials";
import { call } from "../http";
import { allPacks, certsZone, order, setClock } from "./helpers";

interface Verdict {
	client: string;
	validates: boolean | null;
}
interface Chains {
	certificate_id: string;
	kind: string;
	type: string;
	at: string;
	note?: string;
	certificates: {
		key_type: string;
		certificate_authority: string;
		bundle_method: string;
		issued_on: string;
		leaf_issuer: string;
		chain: { source: string; description: string; cross_signed: boolean; intermediates: { subject: string }[] };
		clients: Verdict[];
		events: { kind: string; at: string }[];
	}[];
}
interface Notice {
	id: string;
	date: string;
	recipient: string;
	subject: string;
	text: string;
	certificate_type: string;
	certificate_id: string | null;
}

const outbox = async (zone: string) => (await call("GET", `/zones/${zone}/emulator/outbox`)).body.result as Notice[];
const chains = async (zone: string, id: string, at?: string) => {
	const res = await call("GET", `/zones/${zone}/emulator/chains/${id}${at === undefined ? "" : `?at=${at}`}`);
	if (res.status !== 200) throw new Error(JSON.stringify(res.body));
	return res.body.result as Chains;
};
const rsa = (answer: Chains) => answer.certificates.find((c) => c.key_type === "rsa");
const validates = (answer: Chains | undefined, client: string) =>
	answer === undefined ? undefined : rsa(answer)?.clients.find((c) => c.client === client)?.validates;
const byType = async (zone: string, type: string) => (await allPacks(zone)).find((p) => p.type === type);

/** A zone as of 2024-01-10: its universal pack, an advanced Let's Encrypt pack, Total TLS on Let's Encrypt. */
async function zoneOf2024() {
	const zone = await certsZone();
	await setClock(zone.id, "2024-01-10T00:00:00Z");
	const advanced = await call(
		"POST",
		`/zones/${zone.id}/ssl/certificate_packs/order`,
		order(zone.name, { certificate_authority: "lets_encrypt" }),
	);
	await call("POST", `/zones/${zone.id}/acm/total_tls`, { enabled: true, certificate_authority: "lets_encrypt" });
	return { zone, advanced: (advanced.body.result as { id: string }).id };
}

describe("replaying 2024", { timeout: 20_000 }, () => {
	it("moves the universal pack to Google at its first renewal from June 2024, and keeps the advanced pack on Let's Encrypt", async () => {
		const { zone } = await zoneOf2024();
		// Issued 01-10 for 90 days: renewed 03-10 and 05-09 (Let's Encrypt), then 07-08 (Google).
		for (const [at, universal, issued] of [
			["2024-05-31T00:00:00Z", "lets_encrypt", "2024-05-09T00:00:00.000Z"],
			["2024-07-07T23:59:59Z", "lets_encrypt", "2024-05-09T00:00:00.000Z"],
			["2024-07-08T00:00:00Z", "google", "2024-07-08T00:00:00.000Z"],
			["2024-10-01T00:00:00Z", "google", "2024-09-06T00:00:00.000Z"],
		] as const) {
			await setClock(zone.id, at);
			const pack = await byType(zone.id, "universal");
			expect(pack?.certificate_authority, at).toBe(universal);
			expect(pack?.certificates[1]?.uploaded_on, at).toBe(issued);
			expect(pack?.certificates[1]?.issuer, at).toBe(universal === "google" ? "GoogleTrustServices" : "LetsEncrypt");
			expect((await byType(zone.id, "advanced"))?.certificate_authority, at).toBe("lets_encrypt");
			expect((await call("GET", `/zones/${zone.id}/ssl/universal/settings`)).body.result).toEqual({
				enabled: true,
				certificate_authority: universal,
			});
		}
	});

	it("mails the owners of the Let's Encrypt advanced pack and Total TLS on 2024-06-01, once, and not for the universal pack", async () => {
		const { zone, advanced } = await zoneOf2024();
		await setClock(zone.id, "2024-05-31T23:59:59Z");
		expect(await outbox(zone.id)).toEqual([]);
		await setClock(zone.id, "2024-06-01T00:00:00Z");
		const sent = await outbox(zone.id);
		expect(sent.map((n) => [n.date, n.certificate_type, n.certificate_id])).toEqual([
			["2024-06-01T00:00:00.000Z", "advanced", advanced],
			["2024-06-01T00:00:00.000Z", "total_tls", null],
		]);
		expect(sent[0]?.recipient).toContain("Super Administrators");
		expect(sent[0]?.subject).toContain(zone.name);
		expect(sent[0]?.text).toContain("September 9, 2024");
		expect(sent[1]?.text).toContain("Total TLS");
		await setClock(zone.id, "2024-12-31T00:00:00Z");
		await allPacks(zone.id);
		expect(await outbox(zone.id)).toEqual(sent);
		// Set back before June, the outbox shows nothing sent yet; forward again, the same notices.
		await setClock(zone.id, "2024-03-01T00:00:00Z");
		expect(await outbox(zone.id)).toEqual([]);
		await setClock(zone.id, "2024-06-02T00:00:00Z");
		expect(await outbox(zone.id)).toEqual(sent);
	});

	it("mails the owner of a universal pack kept on Let's Encrypt by choice, and moves nothing", async () => {
		const zone = await certsZone();
		await setClock(zone.id, "2024-02-01T00:00:00Z");
		await call("PATCH", `/zones/${zone.id}/ssl/universal/settings`, { certificate_authority: "lets_encrypt" });
		await setClock(zone.id, "2024-08-01T00:00:00Z");
		expect((await byType(zone.id, "universal"))?.certificate_authority).toBe("lets_encrypt");
		const [notice] = await outbox(zone.id);
		expect(notice).toMatchObject({ date: "2024-06-01T00:00:00.000Z", certificate_type: "universal" });
		expect(notice?.text).toContain("chosen explicitly");
	});

	it("keeps the universal pack on Let's Encrypt when the apex's CAA blocks Google, and says why by e-mail", async () => {
		const zone = await certsZone();
		await setClock(zone.id, "2024-02-01T00:00:00Z");
		await allPacks(zone.id);
		const caa = { type: "CAA", name: "@", data: { flags: 0, tag: "issue", value: "letsencrypt.org" } };
		const record = await call("POST", `/zones/${zone.id}/dns_records`, caa);
		expect(record.status).toBe(200);
		await setClock(zone.id, "2024-10-01T00:00:00Z");
		const universal = await byType(zone.id, "universal");
		expect(universal?.certificate_authority).toBe("lets_encrypt");
		// Issued 02-01, renewed every 60 days: 04-01, 05-31, 07-30, 09-28, all from Let's Encrypt.
		expect(universal?.certificates[1]?.uploaded_on).toBe("2024-09-28T00:00:00.000Z");
		const [notice] = await outbox(zone.id);
		expect(notice).toMatchObject({ date: "2024-06-01T00:00:00.000Z", certificate_type: "universal" });
		expect(notice?.text).toContain("CAA");
		// Without the CAA record, the next read derives the move again.
		const id = (record.body.result as { id: string }).id;
		expect((await call("DELETE", `/zones/${zone.id}/dns_records/${id}`)).status).toBe(200);
		expect((await byType(zone.id, "universal"))?.certificate_authority).toBe("google");
	});

	it("serves the advanced pack's RSA certificate with the cross-sign until 2024-09-09, then the ISRG Root X1 chain", async () => {
		const { zone, advanced } = await zoneOf2024();
		const before = await chains(zone.id, advanced, "2024-09-08T23:59:59Z");
		expect(rsa(before)?.chain.cross_signed).toBe(true);
		expect(rsa(before)?.chain.description).toContain("ISRG Root X1 by DST Root CA X3");
		expect(validates(before, "android_before_7_1_1")).toBe(true);
		expect(validates(before, "openssl_1_0_x")).toBe(false);
		const after = await chains(zone.id, advanced, "2024-09-09T00:00:00Z");
		expect(rsa(after)?.chain.cross_signed).toBe(false);
		expect(rsa(after)?.chain.description).toBe(`${rsa(after)?.leaf_issuer} by ISRG Root X1 > anchor ISRG Root X1`);
		expect(validates(after, "android_before_7_1_1")).toBe(false);
		expect(validates(after, "android_7_1_1_to_13")).toBe(true);
		expect(rsa(after)?.events.map((e) => e.kind)).toContain("chain_changed");
	});

	it("serves the universal pack from Google's chain after its move, which old Android still validates", async () => {
		const { zone } = await zoneOf2024();
		const universal = (await allPacks(zone.id)).find((p) => p.type === "universal");
		await setClock(zone.id, "2024-10-01T00:00:00Z");
		const answer = await chains(zone.id, universal?.id ?? "");
		expect(answer.at).toBe("2024-10-01T00:00:00.000Z");
		expect(rsa(answer)).toMatchObject({ certificate_authority: "google", leaf_issuer: "WR1" });
		expect(rsa(answer)?.chain.intermediates.map((c) => c.subject)).toEqual(["WR1", "GTS Root R1"]);
		expect(validates(answer, "android_before_7_1_1")).toBe(true);
		expect(rsa(answer)?.events.map((e) => e.kind)).toContain("ca_switched");
	});

	it("keeps the cross-sign for a compatible upload before 2024-09-09, not for one after, and serves force as uploaded", async () => {
		const early = await certsZone();
		await setClock(early.id, "2024-08-15T00:00:00Z");
		const body = { certificate: CERTS.rsaR3.certificate, private_key: CERTS.rsaR3.key };
		const before = (await call("POST", `/zones/${early.id}/custom_certificates`, body)).body.result as { id: string };
		const kept = await chains(early.id, before.id, "2024-09-20T00:00:00Z");
		expect(kept).toMatchObject({ kind: "custom_certificate", type: "sni_custom" });
		expect(kept.certificates[0]?.chain.cross_signed).toBe(true);
		expect(kept.certificates[0]?.clients.find((c) => c.client === "android_before_7_1_1")?.validates).toBe(true);
		// The cross-sign itself expires 2024-09-30 18:14:03: still served, no longer validating for old Android.
		const expired = await chains(early.id, before.id, "2024-09-30T18:14:04Z");
		expect(expired.certificates[0]?.chain.cross_signed).toBe(true);
		expect(expired.certificates[0]?.clients.find((c) => c.client === "android_before_7_1_1")?.validates).toBe(false);

		const late = await certsZone();
		await setClock(late.id, "2024-09-09T00:00:00Z");
		const after = (await call("POST", `/zones/${late.id}/custom_certificates`, body)).body.result as { id: string };
		expect((await chains(late.id, after.id, "2024-09-20T00:00:00Z")).certificates[0]?.chain.cross_signed).toBe(false);

		const forced = await certsZone();
		const chain = { certificate: CERTS.rsaR3.chain, private_key: CERTS.rsaR3.key, bundle_method: "force" };
		const uploaded = (await call("POST", `/zones/${forced.id}/custom_certificates`, chain)).body.result as {
			id: string;
		};
		const asUploaded = await chains(forced.id, uploaded.id, "2024-09-20T00:00:00Z");
		expect(asUploaded.certificates[0]?.chain).toMatchObject({ source: "as_uploaded", cross_signed: false });
		expect(asUploaded.certificates[0]?.chain.intermediates.map((c) => c.subject)).toEqual(["R3"]);
	});

	it("says so for an upload from a CA the schedule does not know, and refuses unknown ids and bad dates", async () => {
		const zone = await certsZone();
		const body = { certificate: CERTS.ecdsaValid.certificate, private_key: CERTS.ecdsaValid.key };
		const uploaded = (await call("POST", `/zones/${zone.id}/custom_certificates`, body)).body.result as { id: string };
		const answer = await chains(zone.id, uploaded.id);
		expect(answer.certificates).toEqual([]);
		expect(answer.note).toContain("edgezone Test CA");
		const unknown = await call("GET", `/zones/${zone.id}/emulator/chains/${crypto.randomUUID()}`);
		expect(unknown.status).toBe(404);
		expect(unknown.body.errors?.[0]?.code).toBe(9404);
		const bad = await call("GET", `/zones/${zone.id}/emulator/chains/${uploaded.id}?at=yesterday`);
		expect(bad.status).toBe(400);
		expect(bad.body.errors?.[0]).toMatchObject({ code: 9400, source: { pointer: "/at" } });
	});

	it("serves the outbox and chains routes to reading credentials only when authenticated", async () => {
		const { zone, advanced } = await zoneOf2024();
		const none = await call("GET", `/zones/${zone.id}/emulator/outbox`, undefined, {});
		expect(none.body.errors?.[0]?.code).toBe(9106);
		const reader = { Authorization: `Bearer ${READ_TOKEN}` };
		expect((await call("GET", `/zones/${zone.id}/emulator/outbox`, undefined, reader)).status).toBe(200);
		expect((await call("GET", `/zones/${zone.id}/emulator/chains/${advanced}`, undefined, reader)).status).toBe(200);
	});

	it("answers a clock set to year 9999: the certificate in force then, the events up to the schedule's end", async () => {
		const { zone, advanced } = await zoneOf2024();
		await setClock(zone.id, "9999-12-31T00:00:00Z");
		const pack = await byType(zone.id, "advanced");
		const issued = Date.parse(pack?.certificates[1]?.uploaded_on ?? "");
		expect(Date.parse("9999-12-31T00:00:00Z") - issued).toBeLessThan(60 * 86_400_000);
		const answer = await chains(zone.id, advanced);
		const events = rsa(answer)?.events ?? [];
		expect(events.at(-1)?.at.localeCompare("2028-01-29")).toBeLessThan(0);
		expect(events.map((e) => e.kind)).toContain("notification");
	});

	it("mails the SaaS provider of a custom hostname on Let's Encrypt and answers its chain", async () => {
		const zone = await certsZone();
		await setClock(zone.id, "2024-03-01T00:00:00Z");
		const hostname = `shop${crypto.randomUUID().slice(0, 6)}.saas.example`;
		const created = await call("POST", `/zones/${zone.id}/custom_hostnames`, {
			hostname,
			ssl: { method: "txt", type: "dv", certificate_authority: "lets_encrypt" },
		});
		expect(created.status).toBe(200);
		const host = created.body.result as {
			id: string;
			ssl: { validation_records: { txt_name: string; txt_value: string }[] };
			ownership_verification: { name: string; value: string };
		};
		const record = host.ssl.validation_records[0];
		await call("POST", `/zones/${zone.id}/emulator/clock/advance`, { seconds: 5 });
		await call("PUT", `/zones/${zone.id}/emulator/dns/${record?.txt_name}`, { txt: [record?.txt_value] });
		await call("PUT", `/zones/${zone.id}/emulator/dns/${host.ownership_verification.name}`, {
			txt: [host.ownership_verification.value],
		});
		const pending = await chains(zone.id, host.id, "2024-03-01T00:00:01Z");
		expect(pending).toMatchObject({ kind: "custom_hostname", certificates: [] });
		await setClock(zone.id, "2024-06-02T00:00:00Z");
		const [notice] = await outbox(zone.id);
		expect(notice).toMatchObject({
			date: "2024-06-01T00:00:00.000Z",
			certificate_type: "custom_hostname",
			certificate_id: host.id,
		});
		expect(notice?.subject).toContain(hostname);
		expect(notice?.text).toContain('"certificate_authority":""');
		const before = await chains(zone.id, host.id, "2024-09-08T00:00:00Z");
		expect(rsa(before)).toMatchObject({ certificate_authority: "lets_encrypt" });
		expect(rsa(before)?.chain.cross_signed).toBe(true);
		expect((await chains(zone.id, host.id, "2024-09-09T00:00:00Z")).certificates[0]?.chain.cross_signed).toBe(false);
		// Switched to the default CA afterwards: the e-mail sent stays, no second one comes.
		await call("PATCH", `/zones/${zone.id}/custom_hostnames/${host.id}`, {
			ssl: { method: "txt", type: "dv", certificate_authority: "" },
		});
		expect(await outbox(zone.id)).toHaveLength(1);
	});

	it("answers no certificate for a pack ordered after the date asked", async () => {
		const { zone, advanced } = await zoneOf2024();
		const answer = await chains(zone.id, advanced, "2023-12-01T00:00:00Z");
		expect(answer.certificates).toEqual([]);
		expect(answer.note).toContain("no certificate");
	});
});
