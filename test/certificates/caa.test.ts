import { describe, expect, it } from "vitest";
import {
	type CaaRecord,
	CLOUDFLARE_ADDED_CAA,
	caaIssuer,
	caaPermits,
	chooseAuthority,
	defaultAuthority,
} from "../../src/certificates/index.ts";

describe("caaPermits (RFC 8659 §4; identifiers of Cloudflare's CA docs)", () => {
	it.each<[string, readonly CaaRecord[] | undefined, string, boolean, boolean?]>([
		["no CAA records permit every CA", undefined, "google", true],
		["an empty RRset permits every CA", [], "ssl_com", true],
		["letsencrypt.org permits Let's Encrypt", ["letsencrypt.org"], "lets_encrypt", true],
		["letsencrypt.org forbids Google", ["letsencrypt.org"], "google", false],
		["pki.goog with parameters permits Google", ["pki.goog; cansignhttpexchanges=yes"], "google", true],
		["issuer domains compare without case", ["PKI.GOOG"], "google", true],
		["ssl.com permits SSL.com only", ["ssl.com"], "lets_encrypt", false],
		["digicert.com permits DigiCert", ["digicert.com; cansignhttpexchanges=yes"], "digicert", true],
		['";" forbids every CA', [";"], "lets_encrypt", false],
		["iodef alone restricts nothing", [{ tag: "iodef", value: "mailto:sec@example.com" }], "google", true],
		[
			"issuewild decides for a wildcard",
			[
				{ tag: "issue", value: "pki.goog" },
				{ tag: "issuewild", value: "letsencrypt.org" },
			],
			"google",
			false,
			true,
		],
		[
			"issue decides for a wildcard when no issuewild exists",
			[{ tag: "issue", value: "pki.goog" }],
			"google",
			true,
			true,
		],
		[
			"issuewild does not restrict a non-wildcard name",
			[{ tag: "issuewild", value: "letsencrypt.org" }],
			"google",
			true,
		],
		["Cloudflare's added records permit its three CAs", CLOUDFLARE_ADDED_CAA, "ssl_com", true],
	])("%s", (_, records, ca, permitted, wildcard = false) => {
		expect(caaPermits(records, ca as "google", wildcard)).toBe(permitted);
	});

	it("reads the issuer domain before the parameters", () => {
		expect(caaIssuer(" pki.goog ; cansignhttpexchanges=yes")).toBe("pki.goog");
		expect(caaIssuer(";")).toBe("");
	});
});

describe('the default CA (certificate_authority "": Google unless CAA blocks it)', () => {
	it("is Google, the more compatible CA, when CAA allows it", () => {
		expect(defaultAuthority(undefined)).toBe("google");
		expect(defaultAuthority(["pki.goog", "letsencrypt.org"])).toBe("google");
	});

	it("falls back to Let's Encrypt only when CAA blocks Google", () => {
		expect(defaultAuthority(["letsencrypt.org"])).toBe("lets_encrypt");
		expect(chooseAuthority("", ["letsencrypt.org"], "app.example.com")).toEqual({
			ok: true,
			certificate_authority: "lets_encrypt",
			defaulted: true,
		});
	});

	it("is refused, naming CAA, when CAA blocks Google and Let's Encrypt", () => {
		const choice = chooseAuthority("", ["ssl.com"], "app.example.com");
		expect(choice.ok).toBe(false);
		if (!choice.ok) expect(choice.reason).toMatch(/^CAA records for app\.example\.com do not allow Let's Encrypt/);
	});
});

describe("an explicitly chosen CA", () => {
	it("is used as asked when CAA permits it, even where the default would differ", () => {
		expect(chooseAuthority("ssl_com", ["ssl.com"], "app.example.com")).toEqual({
			ok: true,
			certificate_authority: "ssl_com",
			defaulted: false,
		});
		expect(chooseAuthority("lets_encrypt", undefined, "app.example.com").certificate_authority).toBe("lets_encrypt");
	});

	it("is refused with a reason naming CAA, the CA's identifier and the records found", () => {
		const choice = chooseAuthority("google", ["letsencrypt.org"], "shop.example.net");
		expect(choice).toEqual({
			ok: false,
			certificate_authority: "google",
			defaulted: false,
			reason:
				'CAA records for shop.example.net do not allow Google Trust Services (pki.goog) to issue: found issue "letsencrypt.org".',
		});
	});

	it("is refused for a wildcard by an issuewild record that leaves it out", () => {
		const records = [{ tag: "issuewild", value: "pki.goog" }];
		const choice = chooseAuthority("lets_encrypt", records, "*.example.net", true);
		expect(choice.ok).toBe(false);
		if (!choice.ok) expect(choice.reason).toContain('issuewild "pki.goog"');
	});
});
