/**
 * Malformed DER against the custom certificate upload: truncations, bit flips and rewritten
 * length octets of valid certificates and keys, from a seeded PRNG (the same cases every run).
 * Every case is a 400 with one of the upload codes Cloudflare documents, never a 500, and
 * nothing is stored. Each mutated certificate goes with the key of another certificate of its
 * type, and each mutated key with another certificate: a mutation that still parses is then a
 * 2200, so "400" holds for every case, while the mutated public key still reaches WebCrypto.
 */
import { describe, expect, it } from "vitest";
import { CERTS } from "../../zone/certificates/fixtures";
import { derOf, mutations, pemOf, prng } from "../../zone/certificates/mutate";
import { call } from "../http";
import { certsZone, setClock } from "./helpers";

const UPLOAD_CODES = [1002, 2100, 2101, 2103, 2106, 2200];
const PER_KIND = 25;

const cases = (() => {
	const random = prng(0x5eed_17);
	const certificates = [
		{ name: "RSA certificate", certificate: CERTS.rsaR3.certificate, otherKey: CERTS.rsaExpired.key },
		{ name: "ECDSA certificate", certificate: CERTS.ecdsaValid.certificate, otherKey: CERTS.ecdsaR11.key },
	].flatMap(({ name, certificate, otherKey }) =>
		mutations(derOf(certificate), PER_KIND, random).map((m) => ({
			what: `${name}: ${m.what}`,
			body: { certificate: pemOf(m.der), private_key: otherKey },
		})),
	);
	const keys = [
		{ name: "RSA key", key: CERTS.rsaR3.key, otherCertificate: CERTS.rsaExpired.certificate },
		{ name: "ECDSA key", key: CERTS.ecdsaValid.key, otherCertificate: CERTS.ecdsaR11.certificate },
	].flatMap(({ name, key, otherCertificate }) =>
		mutations(derOf(key), PER_KIND, random).map((m) => ({
			what: `${name}: ${m.what}`,
			body: { certificate: otherCertificate, private_key: pemOf(m.der, "PRIVATE KEY") },
		})),
	);
	return [...certificates, ...keys];
})();

describe("uploading malformed DER", { timeout: 120_000 }, () => {
	it(`answers each of ${cases.length} mutated certificates and keys with 400 and an upload code, storing nothing`, async () => {
		const zone = await certsZone();
		// Inside every fixture's validity, so an intact-enough certificate reaches the key check.
		await setClock(zone.id, "2024-10-01T00:00:00Z");
		const wrong: string[] = [];
		for (const { what, body } of cases) {
			const res = await call("POST", `/zones/${zone.id}/custom_certificates`, body);
			const code = res.body.errors?.[0]?.code;
			if (res.status !== 400 || !UPLOAD_CODES.includes(code ?? 0)) wrong.push(`${what}: ${res.status} ${code}`);
		}
		expect(wrong).toEqual([]);
		const list = await call("GET", `/zones/${zone.id}/custom_certificates`);
		expect(list.body.result).toEqual([]);
	});
});
