import { describe, expect, it } from "vitest";
import {
	CLIENT_PLATFORMS,
	type ScheduledCertificate,
	servedChain,
	validatingClients,
} from "../../src/certificates/index.ts";

const custom: ScheduledCertificate = {
	type: "custom",
	certificate_authority: "lets_encrypt",
	issuer: "R11",
	issued_on: new Date("2024-07-25T00:00:00Z"),
	expires_on: new Date("2024-10-23T00:00:00Z"),
	uploaded_on: new Date("2024-08-01T00:00:00Z"),
};

const reasons = (at: string) => {
	const when = new Date(at);
	return Object.fromEntries(validatingClients(servedChain(custom, when), when).map((v) => [v.client, v.reason]));
};

describe("which clients validate a served chain, and why (Let's Encrypt's compatibility list)", () => {
	it("answers every known platform", () => {
		const verdicts = validatingClients(
			servedChain(custom, new Date("2024-09-01T00:00:00Z")),
			new Date("2024-09-01T00:00:00Z"),
		);
		expect(verdicts.map((v) => v.client)).toEqual(CLIENT_PLATFORMS.map((c) => c.id));
	});

	it("Android before 7.1.1 reaches DST Root CA X3 through the cross-sign, ignoring that the anchor expired in 2021", () => {
		expect(reasons("2024-09-30T18:14:03Z").android_before_7_1_1).toBe(
			"R11 > ISRG Root X1 > DST Root CA X3: trusted anchor DST Root CA X3 (expired, but Android ignores anchor expiry)",
		);
	});

	it("and fails once the cross-sign has expired", () => {
		expect(reasons("2024-09-30T18:14:04Z").android_before_7_1_1).toBe(
			"R11 > ISRG Root X1 > DST Root CA X3: ISRG Root X1 (by DST Root CA X3) is not valid at 2024-09-30T18:14:04.000Z",
		);
	});

	it("modern stores build the path to their own ISRG Root X1", () => {
		expect(reasons("2024-10-01T00:00:00Z").modern_trust_stores).toBe("R11 > ISRG Root X1: trusted anchor ISRG Root X1");
	});

	it("OpenSSL 1.0.x follows the long chain to DST Root CA X3, expired since 2021, even though it trusts ISRG Root X1", () => {
		expect(reasons("2024-09-01T00:00:00Z").openssl_1_0_x).toBe(
			"R11 > ISRG Root X1 > DST Root CA X3: the anchor DST Root CA X3 expired on 2021-09-30",
		);
	});

	it("an expired leaf fails everywhere", () => {
		const verdicts = validatingClients(
			servedChain(custom, new Date("2024-11-01T00:00:00Z")),
			new Date("2024-11-01T00:00:00Z"),
		);
		expect(verdicts.every((v) => v.validates === false && v.reason.startsWith("the certificate is valid from"))).toBe(
			true,
		);
	});

	it("a root no recorded store lists is unknown, with the reason", () => {
		const google = {
			...custom,
			certificate_authority: "google" as const,
			issuer: "WR1",
			bundle_method: "optimal" as const,
		};
		const at = new Date("2024-09-01T00:00:00Z");
		const modern = validatingClients(servedChain(google, at), at).find((v) => v.client === "modern_trust_stores");
		expect(modern).toMatchObject({
			validates: null,
			reason: "WR1 > GTS Root R1: whether it trusts GTS Root R1 is not recorded",
		});
	});
});
