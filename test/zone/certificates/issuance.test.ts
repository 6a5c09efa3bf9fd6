/** The certificate a managed pack holds at an instant (src/zone/certificates/issuance.ts). */
import { describe, expect, it } from "vitest";
import { certificateAt } from "../../../src/certificates";
import { certificateNow, firstCertificate, type ManagedPack } from "../../../src/zone/certificates/issuance";

const PACKS: ManagedPack[] = [
	{
		id: "u",
		type: "universal",
		requested: "",
		validity_days: 90,
		first_issued: Date.parse("2024-01-10T00:00:00Z"),
		caa: [],
	},
	{
		id: "a",
		type: "advanced",
		requested: "lets_encrypt",
		validity_days: 90,
		first_issued: Date.parse("2023-11-02T00:15:00Z"),
		caa: [],
	},
	{
		id: "g",
		type: "advanced",
		requested: "google",
		validity_days: 14,
		first_issued: Date.parse("2024-05-30T00:00:00Z"),
		caa: [],
	},
	{
		id: "s",
		type: "advanced",
		requested: "ssl_com",
		validity_days: 30,
		first_issued: Date.parse("2025-03-01T00:00:00Z"),
		caa: [],
	},
	{
		id: "l",
		type: "universal",
		requested: "",
		validity_days: 90,
		first_issued: Date.parse("2026-11-23T00:00:00Z"),
		caa: [],
	},
	// CAA on the apex lets only Let's Encrypt issue: the universal certificate never moves.
	{
		id: "c",
		type: "universal",
		requested: "",
		validity_days: 90,
		first_issued: Date.parse("2024-01-10T00:00:00Z"),
		caa: ["letsencrypt.org"],
	},
];

describe("certificateNow", () => {
	it("answers what the schedule's certificateAt answers, skipping whole renewal periods far ahead", () => {
		for (const pack of PACKS) {
			for (let year = 2024; year <= 2034; year++) {
				for (const day of ["01-01", "06-15", "09-09"]) {
					const now = Date.parse(`${year}-${day}T12:00:00Z`);
					if (now < pack.first_issued) continue;
					for (const key of ["ecdsa", "rsa"] as const) {
						const fast = certificateNow(pack, key, now);
						const context = { caa: pack.caa, wildcard: pack.type === "universal" };
						const slow = certificateAt(firstCertificate(pack, key), new Date(now), context);
						expect([fast.certificate_authority, fast.issued_on, fast.expires_on], `${pack.id} ${year}-${day}`).toEqual([
							slow.certificate_authority,
							slow.issued_on,
							slow.expires_on,
						]);
					}
				}
			}
		}
	});

	it("moves a universal certificate to Google at its first renewal from June 2024", () => {
		const universal = PACKS[0] as ManagedPack;
		expect(certificateNow(universal, "rsa", Date.parse("2024-07-07T00:00:00Z")).certificate_authority).toBe(
			"lets_encrypt",
		);
		expect(certificateNow(universal, "rsa", Date.parse("2024-07-08T00:00:00Z")).certificate_authority).toBe("google");
		expect(certificateNow(universal, "rsa", Date.parse("9999-12-31T00:00:00Z")).certificate_authority).toBe("google");
	});

	it("keeps a universal certificate on Let's Encrypt when the apex's CAA blocks Google", () => {
		const blocked = PACKS.find((p) => p.id === "c") as ManagedPack;
		expect(certificateNow(blocked, "rsa", Date.parse("2024-12-01T00:00:00Z")).certificate_authority).toBe(
			"lets_encrypt",
		);
		const later = { ...blocked, first_issued: Date.parse("2024-08-01T00:00:00Z") };
		expect(certificateNow(later, "ecdsa", Date.parse("2024-08-02T00:00:00Z")).certificate_authority).toBe(
			"lets_encrypt",
		);
		const open = { ...later, caa: [] };
		expect(certificateNow(open, "ecdsa", Date.parse("2024-08-02T00:00:00Z")).certificate_authority).toBe("google");
	});
});
