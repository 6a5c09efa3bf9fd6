/** Parsing uploaded certificates and keys (src/zone/certificates/x509.ts) on the fixtures of fixtures/certificates/. */
import { describe, expect, it } from "vitest";
import { checkKeyPair, parseBundle } from "../../../src/zone/certificates/x509";
import { CERTS } from "./fixtures";

const leafOf = async (pem: string) => {
	const parsed = await parseBundle(pem);
	if (!parsed.ok) throw new Error(parsed.refusal.message);
	return parsed.bundle.leaf;
};

describe("parseBundle", () => {
	it("reads subject, SANs, issuer, validity, signature and key type of an RSA leaf", async () => {
		const leaf = await leafOf(CERTS.rsaR3.certificate);
		expect(leaf).toMatchObject({
			subject: "CN=*.certs.example",
			issuer: "CN=R3, O=Let's Encrypt, C=US",
			issuer_cn: "R3",
			issuer_org: "Let's Encrypt",
			hosts: ["*.certs.example", "certs.example"],
			not_before: "2024-08-01T00:00:00.000Z",
			not_after: "2024-10-30T00:00:00.000Z",
			signature: "SHA256WithRSA",
			key_type: "rsa",
			key_size: "rsa 2048",
			is_ca: false,
			self_signed: false,
		});
		expect(leaf.sha256).toMatch(/^[0-9a-f]{64}$/);
	});

	it("reads an ECDSA leaf", async () => {
		const leaf = await leafOf(CERTS.ecdsaR11.certificate);
		expect(leaf).toMatchObject({ key_type: "ecdsa", key_size: "ecdsa P-256", issuer_cn: "R11" });
	});

	it("finds the leaf of a bundle and keeps the intermediates", async () => {
		const parsed = await parseBundle(CERTS.rsaR3.chain);
		expect(parsed.ok && parsed.bundle.chain.map((c) => c.subject_cn)).toEqual(["R3"]);
	});

	it.each([
		["", 1002],
		["not a certificate", 1002],
		["-----BEGIN CERTIFICATE-----\nMIIB!!!\n-----END CERTIFICATE-----", 1002],
		["-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----", 1002],
		[CERTS.rsaR3.key, 1002],
		[CERTS.rsaR3.withRoot, 2100],
	])("refuses %#", async (pem, code) => {
		const parsed = await parseBundle(pem);
		expect(parsed.ok).toBe(false);
		if (!parsed.ok) expect(parsed.refusal.code).toBe(code);
	});
});

describe("checkKeyPair", () => {
	it("accepts the matching key as PKCS#8 and as PKCS#1, RSA and ECDSA", async () => {
		const rsa = await leafOf(CERTS.rsaR3.certificate);
		expect(await checkKeyPair(rsa, CERTS.rsaR3.key)).toBeNull();
		expect(await checkKeyPair(rsa, CERTS.rsaR3.pkcs1Key)).toBeNull();
		expect(await checkKeyPair(await leafOf(CERTS.ecdsaR11.certificate), CERTS.ecdsaR11.key)).toBeNull();
	});

	it("refuses another certificate's key with 2200 and a broken key with 2106", async () => {
		const rsa = await leafOf(CERTS.rsaR3.certificate);
		expect((await checkKeyPair(rsa, CERTS.rsaExpired.key))?.code).toBe(2200);
		expect((await checkKeyPair(rsa, CERTS.ecdsaR11.key))?.code).toBe(2200);
		expect((await checkKeyPair(await leafOf(CERTS.ecdsaValid.certificate), CERTS.ecdsaR11.key))?.code).toBe(2200);
		expect((await checkKeyPair(rsa, "garbage"))?.code).toBe(2106);
		expect((await checkKeyPair(rsa, CERTS.rsaR3.certificate))?.code).toBe(2106);
		expect((await checkKeyPair(rsa, "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----"))?.code).toBe(2106);
	});
});
