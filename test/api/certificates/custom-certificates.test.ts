/**
 * Custom certificates (`/zones/{zone_id}/custom_certificates`): uploads parsed for real, the key
 * checked, Cloudflare's documented error codes, nothing stored on any error.
 */
import { describe, expect, it } from "vitest";
import { CERTS } from "../../zone/certificates/fixtures";
import { derOf, pemOf, withPublicKey, withText } from "../../zone/certificates/mutate";
import { call } from "../http";
import { allPacks, certsZone, setClock } from "./helpers";

const path = (zone: string, rest = "") => `/zones/${zone}/custom_certificates${rest}`;

interface Custom {
	id: string;
	zone_id: string;
	hosts: string[];
	issuer: string;
	signature: string;
	status: string;
	bundle_method: string;
	uploaded_on: string;
	modified_on: string;
	expires_on: string;
	priority: number;
	geo_restrictions?: { label: string };
	policy_restrictions?: string;
}

const listOf = async (zone: string) => (await call("GET", path(zone))).body.result as Custom[];

describe("uploading a custom certificate", { timeout: 20_000 }, () => {
	it("answers the certificate's SANs, issuer, signature and dates, with the defaults", async () => {
		const zone = await certsZone();
		await setClock(zone.id, "2024-08-15T00:00:00Z");
		const res = await call("POST", path(zone.id), {
			certificate: CERTS.rsaR3.certificate,
			private_key: CERTS.rsaR3.key,
		});
		expect(res.status).toBe(200);
		const cert = res.body.result as Custom;
		expect(cert).toMatchObject({
			zone_id: zone.id,
			hosts: ["*.certs.example", "certs.example"],
			issuer: "LetsEncrypt",
			signature: "SHA256WithRSA",
			status: "active",
			bundle_method: "ubiquitous",
			uploaded_on: "2024-08-15T00:00:00.000Z",
			modified_on: "2024-08-15T00:00:00.000Z",
			expires_on: "2024-10-30T00:00:00.000Z",
			priority: 0,
		});
		expect(cert.id).toMatch(/^[0-9a-f-]{36}$/);
		expect((await call("GET", path(zone.id, `/${cert.id}`))).body.result).toEqual(cert);
		// It is listed among the certificate packs too, as Cloudflare lists custom certificates.
		const pack = (await allPacks(zone.id)).find((p) => p.id === cert.id);
		expect(pack).toMatchObject({ type: "sni_custom", status: "active", hosts: cert.hosts });
		expect(pack?.certificates[0]).toMatchObject({ id: cert.id, issuer: "LetsEncrypt", bundle_method: "ubiquitous" });
	});

	it("takes an ECDSA certificate, a PKCS#1 key, a chain, and every optional field", async () => {
		const zone = await certsZone();
		const ecdsa = await call("POST", path(zone.id), {
			certificate: CERTS.ecdsaValid.certificate,
			private_key: CERTS.ecdsaValid.key,
			bundle_method: "optimal",
			type: "legacy_custom",
			geo_restrictions: { label: "eu" },
			policy: "(country: US) or (region: EU)",
		});
		expect(ecdsa.status).toBe(200);
		// An ECDSA key, signed by an RSA CA: `signature` is the certificate's signature algorithm.
		expect(ecdsa.body.result).toMatchObject({
			signature: "SHA256WithRSA",
			issuer: "edgezonetests",
			bundle_method: "optimal",
			geo_restrictions: { label: "eu" },
			policy_restrictions: "(country: US) or (region: EU)",
			hosts: ["*.certs.example", "www.certs.example"],
		});
		const chain = await call("POST", path(zone.id), {
			certificate: CERTS.rsaR3.chain,
			private_key: CERTS.rsaR3.pkcs1Key,
			bundle_method: "force",
		});
		expect(chain.status).toBe(200);
		expect(chain.body.result).toMatchObject({ bundle_method: "force", issuer: "LetsEncrypt" });
		const packs = await allPacks(zone.id);
		expect(packs.map((p) => p.type)).toEqual(["universal", "legacy_custom", "sni_custom"]);
	});

	it("is expired on the clock after its notAfter", async () => {
		const zone = await certsZone();
		await setClock(zone.id, "2021-02-01T00:00:00Z");
		const res = await call("POST", path(zone.id), {
			certificate: CERTS.rsaExpired.certificate,
			private_key: CERTS.rsaExpired.key,
		});
		expect(res.body.result).toMatchObject({ status: "active" });
		await setClock(zone.id, "2021-04-02T00:00:00Z");
		expect((await listOf(zone.id))[0]?.status).toBe("expired");
		expect((await call("GET", path(zone.id, "?status=expired"))).body.result).toHaveLength(1);
		expect((await call("GET", path(zone.id, "?status=active"))).body.result).toHaveLength(0);
		// Expired packs are not active: left out of the packs list without status=all.
		const active = await call("GET", `/zones/${zone.id}/ssl/certificate_packs`);
		expect((active.body.result as { type: string }[]).map((p) => p.type)).toEqual(["universal"]);
	});

	const broken = "-----BEGIN CERTIFICATE-----\nMIIB$$$notbase64\n-----END CERTIFICATE-----\n";
	it.each([
		["malformed PEM", { certificate: broken, private_key: CERTS.rsaR3.key }, 1002, "/certificate"],
		["no PEM at all", { certificate: "hello", private_key: CERTS.rsaR3.key }, 1002, "/certificate"],
		[
			"a key where the certificate goes",
			{ certificate: CERTS.rsaR3.key, private_key: CERTS.rsaR3.key },
			1002,
			"/certificate",
		],
		[
			"a bundle with its root",
			{ certificate: CERTS.rsaR3.withRoot, private_key: CERTS.rsaR3.key },
			2100,
			"/certificate",
		],
		[
			"a key of another certificate",
			{ certificate: CERTS.rsaR3.certificate, private_key: CERTS.rsaExpired.key },
			2200,
			"/private_key",
		],
		[
			"an ECDSA key for an RSA certificate",
			{ certificate: CERTS.rsaR3.certificate, private_key: CERTS.ecdsaR11.key },
			2200,
			"/private_key",
		],
		[
			"a broken key",
			{
				certificate: CERTS.rsaR3.certificate,
				private_key: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----",
			},
			2106,
			"/private_key",
		],
		["no key", { certificate: CERTS.rsaR3.certificate }, 1475, "/private_key"],
		[
			"hosts of no zone of ours",
			{ certificate: CERTS.otherZone.certificate, private_key: CERTS.otherZone.key },
			2103,
			undefined,
		],
		[
			"an unknown bundle method",
			{ certificate: CERTS.rsaR3.certificate, private_key: CERTS.rsaR3.key, bundle_method: "compatible" },
			1475,
			"/bundle_method",
		],
		[
			"an unknown type",
			{ certificate: CERTS.rsaR3.certificate, private_key: CERTS.rsaR3.key, type: "keyless" },
			1475,
			"/type",
		],
		[
			"a CSR id",
			{ certificate: CERTS.rsaR3.certificate, private_key: CERTS.rsaR3.key, custom_csr_id: "x" },
			1475,
			"/custom_csr_id",
		],
	])("refuses %s with 400 and the documented code, storing nothing", async (_, body, code, pointer) => {
		const zone = await certsZone();
		const res = await call("POST", path(zone.id), body);
		expect(res.status).toBe(400);
		expect(res.body.errors?.[0]?.code).toBe(code);
		if (pointer !== undefined) expect(res.body.errors?.[0]?.source?.pointer).toBe(pointer);
		expect(await listOf(zone.id)).toEqual([]);
	});

	// The point's last byte changed: y no longer solves the curve's equation for x.
	const offCurve = withPublicKey(CERTS.ecdsaValid.certificate, (point) => {
		const moved = point.slice();
		moved[moved.length - 1] = (moved[moved.length - 1] ?? 0) ^ 1;
		return moved;
	});
	// RSAPublicKey { modulus 1, publicExponent 65537 } (RFC 8017 A.1.1).
	const modulusOne = withPublicKey(CERTS.rsaR3.certificate, () =>
		Uint8Array.from([0x30, 0x08, 0x02, 0x01, 0x01, 0x02, 0x03, 0x01, 0x00, 0x01]),
	);
	// notAfter 241030000000Z (UTCTime, 2024-10-30) with month 13, and with day 32.
	const rsaDer = derOf(CERTS.rsaR3.certificate);
	const month13 = pemOf(withText(rsaDer, "241030000000Z", "241330000000Z"));
	const day32 = pemOf(withText(rsaDer, "241030000000Z", "241032000000Z"));
	it.each([
		["an EC public point off its curve", offCurve, CERTS.ecdsaValid.key, /ECDSA public key is not a valid key/],
		["an RSA modulus of 1", modulusOne, CERTS.rsaR3.key, /RSA public key is not a valid key/],
		["a notAfter in month 13", month13, CERTS.rsaR3.key, /notAfter "241330000000Z" is not a date and time/],
		["a notAfter on the 32nd", day32, CERTS.rsaR3.key, /notAfter "241032000000Z" is not a date and time/],
	])("refuses a certificate with %s as invalid (400 1002), storing nothing", async (_, certificate, key, why) => {
		const zone = await certsZone();
		await setClock(zone.id, "2024-08-15T00:00:00Z");
		const res = await call("POST", path(zone.id), { certificate, private_key: key });
		expect(res.status).toBe(400);
		expect(res.body.errors?.[0]).toMatchObject({ code: 1002, source: { pointer: "/certificate" } });
		expect(res.body.errors?.[0]?.message).toMatch(why);
		expect(await listOf(zone.id)).toEqual([]);
	});

	it("refuses an RSA key under 2048 bits with 2106, as Cloudflare's requirements say, storing nothing", async () => {
		const zone = await certsZone();
		const res = await call("POST", path(zone.id), {
			certificate: CERTS.rsa1024.certificate,
			private_key: CERTS.rsa1024.key,
		});
		expect(res.status).toBe(400);
		expect(res.body.errors?.[0]).toMatchObject({
			code: 2106,
			message:
				"The private key you uploaded is invalid: an RSA key of 1024 bits is under Cloudflare's minimum of 2048 bits. Please check your input and try again.",
			source: { pointer: "/private_key" },
		});
		expect(await listOf(zone.id)).toEqual([]);
	});

	it("refuses the same certificate twice with 1220", async () => {
		const zone = await certsZone();
		const body = { certificate: CERTS.rsaR3.certificate, private_key: CERTS.rsaR3.key };
		expect((await call("POST", path(zone.id), body)).status).toBe(200);
		const again = await call("POST", path(zone.id), body);
		expect(again.status).toBe(400);
		expect(again.body.errors?.[0]).toMatchObject({
			code: 1220,
			message: "This certificate has already been submitted.",
		});
		expect(await listOf(zone.id)).toHaveLength(1);
	});
});

describe("changing and deleting a custom certificate", { timeout: 20_000 }, () => {
	it("PATCHes fields in place, and a new certificate of an sni_custom one gets a new id and upload date", async () => {
		const zone = await certsZone();
		await setClock(zone.id, "2024-08-15T00:00:00Z");
		const first = (
			await call("POST", path(zone.id), { certificate: CERTS.rsaR3.certificate, private_key: CERTS.rsaR3.key })
		).body.result as Custom;
		await setClock(zone.id, "2024-08-20T00:00:00Z");
		const moved = await call("PATCH", path(zone.id, `/${first.id}`), {
			bundle_method: "force",
			geo_restrictions: { label: "us" },
		});
		expect(moved.body.result).toMatchObject({
			id: first.id,
			bundle_method: "force",
			geo_restrictions: { label: "us" },
			uploaded_on: first.uploaded_on,
			modified_on: "2024-08-20T00:00:00.000Z",
		});
		await setClock(zone.id, "2024-09-20T00:00:00Z");
		const renewed = await call("PATCH", path(zone.id, `/${first.id}`), {
			certificate: CERTS.ecdsaR11.certificate,
			private_key: CERTS.ecdsaR11.key,
		});
		expect(renewed.status).toBe(200);
		const now = renewed.body.result as Custom;
		expect(now.id).not.toBe(first.id);
		expect(now).toMatchObject({
			uploaded_on: "2024-09-20T00:00:00.000Z",
			issuer: "LetsEncrypt",
			bundle_method: "force",
		});
		expect((await call("GET", path(zone.id, `/${first.id}`))).status).toBe(404);
	});

	it("refuses a PATCH with a mismatched key, or a certificate without its key, changing nothing", async () => {
		const zone = await certsZone();
		const first = (
			await call("POST", path(zone.id), { certificate: CERTS.rsaR3.certificate, private_key: CERTS.rsaR3.key })
		).body.result as Custom;
		const mismatch = await call("PATCH", path(zone.id, `/${first.id}`), {
			certificate: CERTS.ecdsaR11.certificate,
			private_key: CERTS.rsaR3.key,
		});
		expect(mismatch.body.errors?.[0]?.code).toBe(2200);
		const alone = await call("PATCH", path(zone.id, `/${first.id}`), { certificate: CERTS.ecdsaR11.certificate });
		expect(alone.status).toBe(400);
		expect(await listOf(zone.id)).toEqual([first]);
	});

	it("deletes, answering {id}; an unknown id is 404 1002, a malformed one 7003", async () => {
		const zone = await certsZone();
		const first = (
			await call("POST", path(zone.id), { certificate: CERTS.rsaR3.certificate, private_key: CERTS.rsaR3.key })
		).body.result as Custom;
		const packDelete = await call("DELETE", `/zones/${zone.id}/ssl/certificate_packs/${first.id}`);
		expect(packDelete.status).toBe(400);
		expect((await call("DELETE", path(zone.id, `/${first.id}`))).body.result).toEqual({ id: first.id });
		const unknown = await call("GET", path(zone.id, `/${first.id}`));
		expect(unknown.status).toBe(404);
		expect(unknown.body.errors?.[0]?.code).toBe(1002);
		expect((await call("GET", path(zone.id, "/nope"))).body.errors?.[0]?.code).toBe(7003);
		expect(await listOf(zone.id)).toEqual([]);
	});
});
