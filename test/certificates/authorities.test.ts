import { describe, expect, it } from "vitest";
import {
	AUTHORITIES,
	CA_CERTIFICATES,
	checkHostname,
	checkValidity,
	expiresOn,
	isOrderableAuthority,
	notAfter,
	notBefore,
	renewalWindowDays,
	renewsOn,
	validAt,
} from "../../src/certificates/index.ts";

describe("validity periods per CA (Cloudflare's CA and validity docs)", () => {
	it.each<[string, string, number, boolean, boolean?]>([
		["lets_encrypt", "advanced", 90, true],
		["lets_encrypt", "advanced", 30, false],
		["lets_encrypt", "custom_hostname", 14, false],
		["google", "advanced", 14, true],
		["google", "custom_hostname", 30, true],
		["google", "advanced", 365, false],
		["ssl_com", "advanced", 90, true],
		["ssl_com", "advanced", 365, false],
		["ssl_com", "advanced", 365, true, true],
		["ssl_com", "custom_hostname", 365, false, true],
		["ssl_com", "universal", 90, false],
		["google", "universal", 90, true],
		["google", "universal", 30, false],
		["google", "total_tls", 14, false],
		["digicert", "universal", 90, false],
	])("%s %s for %d days: %s", (ca, type, days, ok, enterprise = false) => {
		expect(checkValidity(ca as "google", type as "advanced", days, enterprise).ok).toBe(ok);
	});

	it("says why a period is refused", () => {
		expect(checkValidity("lets_encrypt", "advanced", 30)).toEqual({
			ok: false,
			reason: "validity_days 30 is not available for advanced certificates from Let's Encrypt; allowed: 90.",
		});
	});

	it("knows each CA's DCV token lifetime and CAA identifier (Cloudflare's CA docs)", () => {
		expect(Object.values(AUTHORITIES).map((a) => [a.id, a.dcv_token_days, a.caa_identifier])).toEqual([
			["lets_encrypt", 7, "letsencrypt.org"],
			["google", 14, "pki.goog"],
			["ssl_com", 14, "ssl.com"],
			["digicert", 30, "digicert.com"],
		]);
	});

	it("orders new certificates from google, lets_encrypt and ssl_com only", () => {
		expect(["google", "lets_encrypt", "ssl_com", "digicert", "sectigo", ""].map(isOrderableAuthority)).toEqual([
			true,
			true,
			true,
			false,
			false,
			false,
		]);
	});
});

describe("renewal windows (Cloudflare's validity docs)", () => {
	it.each([
		[365, 30],
		[90, 30],
		[30, 7],
		[14, 3],
	])("%d-day certificates renew %d days before expiry", (validity, window) => {
		const issued = new Date("2024-04-15T00:00:00Z");
		const expires = expiresOn(issued, validity);
		expect(renewalWindowDays(validity)).toBe(window);
		expect(expires.getTime() - renewsOn(issued, expires).getTime()).toBe(window * 86_400_000);
	});
});

describe("hostnames a CA refuses (Cloudflare's CA docs)", () => {
	it("Google issues for no Punycode name; Let's Encrypt does", () => {
		expect(checkHostname("google", "xn--bcher-kva.example").ok).toBe(false);
		expect(checkHostname("lets_encrypt", "xn--bcher-kva.example").ok).toBe(true);
	});

	it("Let's Encrypt issues for at most 10 subdomain levels", () => {
		const name = (levels: number) => `${"a.".repeat(levels)}example.com`;
		expect(checkHostname("lets_encrypt", name(10)).ok).toBe(true);
		expect(checkHostname("lets_encrypt", name(11))).toEqual({
			ok: false,
			reason: `Let's Encrypt issues for at most 10 subdomain levels; ${name(11)} has 11.`,
		});
		expect(checkHostname("google", name(11)).ok).toBe(true);
	});
});

describe("intermediates and roots as their public sources record them", () => {
	it("the DST cross-sign of ISRG Root X1 is valid to 2024-09-30 18:14:03 UTC, not a second longer", () => {
		const cross = CA_CERTIFICATES.isrg_root_x1_by_dst;
		if (!cross) throw new Error("missing");
		expect(notBefore(cross)?.toISOString()).toBe("2021-01-20T19:14:03.000Z");
		expect(validAt(cross, new Date("2024-09-30T18:14:03Z"))).toBe(true);
		expect(validAt(cross, new Date("2024-09-30T18:14:04Z"))).toBe(false);
	});

	it("a day-precise date covers the whole day; an unrecorded one is null", () => {
		const root = CA_CERTIFICATES.isrg_root_x1;
		const globalsign = CA_CERTIFICATES.globalsign_root_ca;
		if (!root || !globalsign) throw new Error("missing");
		expect(notAfter(root)?.toISOString()).toBe("2035-06-04T23:59:59.000Z");
		expect(notAfter(globalsign)).toBeNull();
		expect(validAt(globalsign, new Date("2024-06-01T00:00:00Z"))).toBeNull();
	});

	it("R10-R14 and E5-E9 run 2024-03-13 to 2027-03-12 23:59:59; E5-E9 exist signed by X2 and by X1", () => {
		for (const key of ["r10", "r11", "r14", "e5", "e5_by_x1", "e9_by_x1"]) {
			expect(CA_CERTIFICATES[key]?.not_after).toBe("2027-03-12T23:59:59Z");
		}
		expect([CA_CERTIFICATES.e6?.issuer, CA_CERTIFICATES.e6_by_x1?.issuer]).toEqual(["ISRG Root X2", "ISRG Root X1"]);
	});

	it("every issuer of a recorded certificate is itself recorded, except the roots no source records", () => {
		const subjects = new Set(Object.values(CA_CERTIFICATES).map((c) => c.subject));
		const missing = [...new Set(Object.values(CA_CERTIFICATES).map((c) => c.issuer))].filter((i) => !subjects.has(i));
		expect(missing.sort()).toEqual(["AAA Certificate Services", "SSL.com EV Root Certification Authority RSA R2"]);
	});
});
