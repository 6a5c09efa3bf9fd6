import { describe, expect, it } from "vitest";
import {
	type CaaRecord,
	type ChainCertificate,
	certificateAt,
	MILESTONES,
	type ScheduledCertificate,
	servedChain,
	validatingClients,
} from "../../src/certificates/index.ts";
import { day, managed } from "./fixtures.ts";

// "The chain guide" below: Cloudflare's account of the 2024 Let's Encrypt chain change,
// https://developers.cloudflare.com/ssl/reference/migration-guides/lets-encrypt-chain/ (paraphrased).
// The dates the schedule turns on. 18:14:03 is the cross-sign's notAfter: still valid at that second.
const BEFORE_JUNE = new Date("2024-05-20T12:00:00Z");
const JUNE = new Date("2024-06-20T12:00:00Z");
const SEP_8 = new Date("2024-09-08T12:00:00Z");
const SEP_9 = new Date("2024-09-09T12:00:00Z");
const SEP_30_BEFORE = new Date("2024-09-30T18:14:03Z");
const SEP_30_AFTER = new Date("2024-09-30T18:14:04Z");
const OCT_1 = new Date("2024-10-01T12:00:00Z");

/** An uploaded Let's Encrypt certificate (custom), as a PEM parser describes it. */
const uploaded = (
	issuer: string,
	issued: string,
	upload: string,
	fields: Partial<ScheduledCertificate> = {},
): ScheduledCertificate => ({
	type: "custom",
	certificate_authority: "lets_encrypt",
	issuer,
	issued_on: day(issued),
	expires_on: new Date(day(issued).getTime() + 90 * 86_400_000),
	uploaded_on: new Date(upload),
	...fields,
});

// Chains as `subject < issuer`, R10/R11 folded together (LE picks one at random; we pick by id).
const LONG = ["R3 < ISRG Root X1", "ISRG Root X1 < DST Root CA X3"];
const LONG_NEW = ["R10/R11 < ISRG Root X1", "ISRG Root X1 < DST Root CA X3"];
const SHORT_NEW = ["R10/R11 < ISRG Root X1"];
const GTS_LONG = ["WR1 < GTS Root R1", "GTS Root R1 < GlobalSign Root CA"];
const GTS_SHORT = ["WR1 < GTS Root R1"];

// Verdicts of [Android before 7.1.1, Android 7.1.1-13, modern trust stores, OpenSSL 1.0.x].
type Verdicts = [boolean | null, boolean | null, boolean | null, boolean | null];
const LONG_OK: Verdicts = [true, true, true, false]; // the long LE chain (https://letsencrypt.org/docs/certificate-compatibility/)
const LONG_EXPIRED: Verdicts = [false, true, true, false]; // "valid until 2024-09-30 18:14:03"
const SHORT_OK: Verdicts = [false, true, true, true]; // "Short LE chain": Android 7.0 "never valid"
const GTS_LONG_OK: Verdicts = [true, true, true, null]; // "GTS long chain"; OpenSSL 1.0.x: "—"
const UNKNOWN: Verdicts = [null, null, null, null]; // GTS roots are in no recorded store list
const EXPIRED_LEAF: Verdicts = [false, false, false, false];

const X1_BY_DST: ChainCertificate = {
	subject: "ISRG Root X1",
	issuer: "DST Root CA X3",
	key_type: "rsa",
	not_before: "2021-01-20T19:14:03Z",
	not_after: "2024-09-30T18:14:03Z",
};
const R11: ChainCertificate = {
	subject: "R11",
	issuer: "ISRG Root X1",
	key_type: "rsa",
	not_before: "2024-03-13T00:00:00Z",
	not_after: "2027-03-12T23:59:59Z",
};

interface Row {
	certificate: ScheduledCertificate;
	caa?: readonly CaaRecord[];
	at: Date;
	ca: string;
	chain: string[];
	anchor: string;
	clients: Verdicts;
}

const universal = managed({ type: "universal" });
const ONLY_LE: CaaRecord[] = ["letsencrypt.org"];
const advancedLe = managed({ type: "advanced" });
const totalTlsLe = managed({ type: "total_tls" });
const hostnameLe = managed({ type: "custom_hostname", requested_authority: "lets_encrypt" });
const hostnameDefault = managed({ type: "custom_hostname", requested_authority: "" });
const hostnameGoogleModern = managed({
	type: "custom_hostname",
	certificate_authority: "google",
	bundle_method: "optimal",
});
const r3Compatible = uploaded("R3", "2024-04-20", "2024-05-01T00:00:00Z");
const r11Compatible = uploaded("R11", "2024-07-25", "2024-08-01T00:00:00Z");
const r11Modern = uploaded("R11", "2024-07-25", "2024-08-01T00:00:00Z", { bundle_method: "optimal" });
const r10CompatibleLate = uploaded("R10", "2024-09-01", "2024-09-09T06:00:00Z");
const r10ModernLate = uploaded("R10", "2024-09-01", "2024-09-09T06:00:00Z", { bundle_method: "optimal" });
const forcedLong = uploaded("R11", "2024-07-25", "2024-08-01T00:00:00Z", {
	bundle_method: "force",
	uploaded_chain: [R11, X1_BY_DST],
});
const forcedShort = uploaded("R11", "2024-07-25", "2024-08-01T00:00:00Z", {
	bundle_method: "force",
	uploaded_chain: [R11],
});
const googleCompatible = uploaded("WR1", "2024-08-01", "2024-08-02T00:00:00Z", { certificate_authority: "google" });
const googleModern = uploaded("WR1", "2024-08-01", "2024-08-02T00:00:00Z", {
	certificate_authority: "google",
	bundle_method: "optimal",
});

const ALL_DATES = [BEFORE_JUNE, JUNE, SEP_8, SEP_9, SEP_30_BEFORE, SEP_30_AFTER, OCT_1];
const each = (dates: Date[], row: (at: Date) => Omit<Row, "at">): [string, Row][] =>
	dates.map((at) => [at.toISOString(), { ...row(at), at }]);

/** Reference §2.7: a managed certificate that stays on Let's Encrypt: long chain, short from 2024-09-09. */
const staysOnLetsEncrypt = (certificate: ScheduledCertificate, caa?: readonly CaaRecord[]): [string, Row][] => [
	...each([BEFORE_JUNE], () => ({
		certificate,
		caa,
		ca: "lets_encrypt",
		chain: LONG,
		anchor: "DST Root CA X3",
		clients: LONG_OK,
	})),
	// Renewed on 2024-06-14 and 08-13, after 2024-06-06: R10/R11, bundled with the cross-sign until 2024-09-09.
	...each([JUNE, SEP_8], () => ({
		certificate,
		caa,
		ca: "lets_encrypt",
		chain: LONG_NEW,
		anchor: "DST Root CA X3",
		clients: LONG_OK,
	})),
	...each([SEP_9, SEP_30_BEFORE, SEP_30_AFTER, OCT_1], () => ({
		certificate,
		caa,
		ca: "lets_encrypt",
		chain: SHORT_NEW,
		anchor: "ISRG Root X1",
		clients: SHORT_OK,
	})),
];

/** The chain guide: switched from June 2024 where the older CA was not explicitly chosen, so renewals move to Google Trust Services. */
const movesToGoogle = (certificate: ScheduledCertificate): [string, Row][] => [
	...each([BEFORE_JUNE], () => ({
		certificate,
		ca: "lets_encrypt",
		chain: LONG,
		anchor: "DST Root CA X3",
		clients: LONG_OK,
	})),
	...each([JUNE, SEP_8, SEP_9, SEP_30_BEFORE, SEP_30_AFTER, OCT_1], () => ({
		certificate,
		ca: "google",
		chain: GTS_LONG,
		anchor: "GlobalSign Root CA",
		clients: GTS_LONG_OK,
	})),
];

const TABLE: Record<string, [string, Row][]> = {
	// The chain guide: universal certificates are switched automatically.
	"universal, CA left to Cloudflare: Let's Encrypt until its June renewal, then Google": movesToGoogle(universal),
	// Reference §2.7 Universal: "GTS (LE only if CAA forces it)".
	"universal, CAA allows only letsencrypt.org: stays on Let's Encrypt, short chain from 2024-09-09": staysOnLetsEncrypt(
		universal,
		ONLY_LE,
	),
	// The chain guide: advanced certificates explicitly set to the older CA are checked and the customer is notified by e-mail.
	"advanced, set to Let's Encrypt: not changed; long chain until 2024-09-08, short from 2024-09-09":
		staysOnLetsEncrypt(advancedLe),
	// The chain guide: total TLS certificates are not changed automatically.
	"total TLS on Let's Encrypt: not changed; short chain from 2024-09-09": staysOnLetsEncrypt(totalTlsLe),
	// The chain guide: custom hostname certificates set to the older CA are not changed automatically.
	"custom hostname set to lets_encrypt: not changed; short chain from 2024-09-09": staysOnLetsEncrypt(hostnameLe),
	// `""` gives the default CA, "a more compatible CA" (https://developers.cloudflare.com/ssl/reference/migration-guides/lets-encrypt-chain/).
	'custom hostname with certificate_authority "": moves to Google at its June renewal': movesToGoogle(hostnameDefault),
	// Reference §2.6 rule 3: "B = optimal: leaf, WR1|WE1".
	"custom hostname on Google, bundle method optimal (modern): WR1 to the self-signed GTS Root R1": each(
		ALL_DATES,
		() => ({
			certificate: hostnameGoogleModern,
			ca: "google",
			chain: GTS_SHORT,
			anchor: "GTS Root R1",
			clients: UNKNOWN,
		}),
	),
	// The chain guide: custom uploaded before September 9 with bundle method compatible or modern keep the cross-signed chain until they expire.
	"custom R3 certificate, compatible, uploaded 2024-05-01: cross-signed until it expires on 2024-07-19": [
		[
			"before June 2024",
			{
				certificate: r3Compatible,
				at: BEFORE_JUNE,
				ca: "lets_encrypt",
				chain: LONG,
				anchor: "DST Root CA X3",
				clients: LONG_OK,
			},
		],
		[
			"June 2024",
			{
				certificate: r3Compatible,
				at: JUNE,
				ca: "lets_encrypt",
				chain: LONG,
				anchor: "DST Root CA X3",
				clients: LONG_OK,
			},
		],
		[
			"2024-09-09: the leaf has expired",
			{
				certificate: r3Compatible,
				at: SEP_9,
				ca: "lets_encrypt",
				chain: LONG,
				anchor: "DST Root CA X3",
				clients: EXPIRED_LEAF,
			},
		],
	],
	"custom R11 certificate, compatible, uploaded 2024-08-01: keeps the cross-signed chain, which expires 2024-09-30 18:14:03":
		[
			...each([SEP_8, SEP_9, SEP_30_BEFORE], () => ({
				certificate: r11Compatible,
				ca: "lets_encrypt",
				chain: LONG_NEW,
				anchor: "DST Root CA X3",
				clients: LONG_OK,
			})),
			...each([SEP_30_AFTER, OCT_1], () => ({
				certificate: r11Compatible,
				ca: "lets_encrypt",
				chain: LONG_NEW,
				anchor: "DST Root CA X3",
				clients: LONG_EXPIRED,
			})),
		],
	"custom R11 certificate, modern, uploaded 2024-08-01: the same as compatible": [
		...each([SEP_8, SEP_9, SEP_30_BEFORE], () => ({
			certificate: r11Modern,
			ca: "lets_encrypt",
			chain: LONG_NEW,
			anchor: "DST Root CA X3",
			clients: LONG_OK,
		})),
		...each([SEP_30_AFTER, OCT_1], () => ({
			certificate: r11Modern,
			ca: "lets_encrypt",
			chain: LONG_NEW,
			anchor: "DST Root CA X3",
			clients: LONG_EXPIRED,
		})),
	],
	// The chain guide: from September 9, 2024 all uploaded certificates of the older CA with bundle method compatible or modern are bundled with the self-signed root chain.
	"custom R10 certificate, compatible, uploaded 2024-09-09 06:00: self-signed root chain": each(
		[SEP_9, SEP_30_BEFORE, SEP_30_AFTER, OCT_1],
		() => ({
			certificate: r10CompatibleLate,
			ca: "lets_encrypt",
			chain: SHORT_NEW,
			anchor: "ISRG Root X1",
			clients: SHORT_OK,
		}),
	),
	"custom R10 certificate, modern, uploaded 2024-09-09 06:00: self-signed root chain": each(
		[SEP_9, SEP_30_BEFORE, SEP_30_AFTER, OCT_1],
		() => ({
			certificate: r10ModernLate,
			ca: "lets_encrypt",
			chain: SHORT_NEW,
			anchor: "ISRG Root X1",
			clients: SHORT_OK,
		}),
	),
	// The chain guide: with the user-defined bundle method the uploaded chain is always served.
	"custom, user-defined (force) with the cross-sign uploaded: served as uploaded on every date": [
		...each([SEP_8, SEP_9, SEP_30_BEFORE], () => ({
			certificate: forcedLong,
			ca: "lets_encrypt",
			chain: LONG_NEW,
			anchor: "DST Root CA X3",
			clients: LONG_OK,
		})),
		...each([SEP_30_AFTER, OCT_1], () => ({
			certificate: forcedLong,
			ca: "lets_encrypt",
			chain: LONG_NEW,
			anchor: "DST Root CA X3",
			clients: LONG_EXPIRED,
		})),
	],
	"custom, user-defined (force) without the cross-sign: served as uploaded, before 2024-09-09 too": each(
		[SEP_8, SEP_9, OCT_1],
		() => ({
			certificate: forcedShort,
			ca: "lets_encrypt",
			chain: SHORT_NEW,
			anchor: "ISRG Root X1",
			clients: SHORT_OK,
		}),
	),
	"custom Google certificate, compatible: GTS Root R1 cross-signed by GlobalSign": each([SEP_8, OCT_1], () => ({
		certificate: googleCompatible,
		ca: "google",
		chain: GTS_LONG,
		anchor: "GlobalSign Root CA",
		clients: GTS_LONG_OK,
	})),
	"custom Google certificate, modern: WR1 only": each([SEP_8, OCT_1], () => ({
		certificate: googleModern,
		ca: "google",
		chain: GTS_SHORT,
		anchor: "GTS Root R1",
		clients: UNKNOWN,
	})),
};

const CLIENT_IDS = ["android_before_7_1_1", "android_7_1_1_to_13", "modern_trust_stores", "openssl_1_0_x"];

describe("the 2024 chain schedule, per certificate type and bundle method", () => {
	for (const [group, rows] of Object.entries(TABLE)) {
		describe(group, () => {
			it.each(rows)("%s", (_, row) => {
				const certificate = certificateAt(row.certificate, row.at, row.caa ? { caa: row.caa } : {});
				const chain = servedChain(certificate, row.at);
				expect(chain.certificate_authority).toBe(row.ca);
				expect(chain.intermediates.map((c) => `${c.subject.replace(/^R1[01]$/, "R10/R11")} < ${c.issuer}`)).toEqual(
					row.chain,
				);
				expect(chain.root?.subject).toBe(row.anchor);
				const verdicts = validatingClients(chain, row.at);
				expect(CLIENT_IDS.map((id) => verdicts.find((v) => v.client === id)?.validates)).toEqual(row.clients);
			});
		});
	}
});

describe("served chains, beyond the table", () => {
	it("Let's Encrypt picks R10 or R11 at random; the emulator picks by id, the same answer every time", () => {
		const names = ["a", "b", "c", "d"].map(
			(id) => servedChain({ ...advancedLe, id, issued_on: JUNE }, JUNE).intermediates[0]?.subject,
		);
		expect(new Set(names)).toEqual(new Set(["R10", "R11"]));
		expect(servedChain({ ...advancedLe, id: "a", issued_on: JUNE }, JUNE).intermediates[0]?.subject).toBe(names[0]);
	});

	it("ECDSA Let's Encrypt leaves issued from 2024-06-06 chain E5/E6 (signed by ISRG Root X1) without the cross-sign", () => {
		const chain = servedChain({ ...advancedLe, key_type: "ecdsa", issued_on: JUNE }, JUNE);
		expect(chain.intermediates.map((c) => c.issuer)).toEqual(["ISRG Root X1"]);
		expect(chain.intermediates[0]?.subject).toMatch(/^E[56]$/);
		expect(chain.cross_signed).toBe(false);
	});

	it("ECDSA leaves before 2024-06-06 were signed by R3 and get the long chain", () => {
		const chain = servedChain({ ...advancedLe, key_type: "ecdsa" }, BEFORE_JUNE);
		expect(chain.intermediates.map((c) => c.subject)).toEqual(["R3", "ISRG Root X1"]);
		expect(chain.cross_signed).toBe(true);
	});

	it("Google ECDSA certificates chain WE1 to GTS Root R4 cross-signed by GlobalSign", () => {
		const chain = servedChain({ ...universal, certificate_authority: "google", key_type: "ecdsa" }, JUNE);
		expect(chain.intermediates.map((c) => `${c.subject} < ${c.issuer}`)).toEqual([
			"WE1 < GTS Root R4",
			"GTS Root R4 < GlobalSign Root CA",
		]);
	});

	it("the GlobalSign cross-sign is no longer served after it expires on 2028-01-28 00:00:42", () => {
		const google = { ...universal, certificate_authority: "google" as const, expires_on: day("2030-01-01") };
		expect(servedChain(google, MILESTONES.gtsCrossSignsExpire).intermediates).toHaveLength(2);
		const after = new Date(MILESTONES.gtsCrossSignsExpire.getTime() + 1000);
		expect(servedChain(google, after).intermediates.map((c) => c.subject)).toEqual(["WR1"]);
	});

	it("SSL.com chains name the Cloudflare issuing CA and SSL.com's transit CA, marked unverified; clients unknown", () => {
		const chain = servedChain({ ...advancedLe, certificate_authority: "ssl_com" }, JUNE);
		expect(chain.intermediates.map((c) => c.subject)).toEqual([
			"Cloudflare TLS Issuing RSA CA 1",
			"SSL.com TLS Transit RSA CA R2",
		]);
		expect(chain.root?.subject).toBe("SSL.com TLS RSA Root CA 2022");
		expect(chain.notes.join(" ")).toContain("UNVERIFIED");
		expect(validatingClients(chain, JUNE).every((v) => v.validates === null)).toBe(true);
	});

	it("DigiCert's chain is not recorded: source unknown, every client unknown", () => {
		const chain = servedChain({ ...advancedLe, certificate_authority: "digicert" }, JUNE);
		expect(chain.source).toBe("unknown");
		expect(chain.intermediates).toEqual([]);
		expect(validatingClients(chain, JUNE).map((v) => v.validates)).toEqual([null, null, null, null, null]);
	});

	it("force after 2024-09-30 with the cross-sign warns as Cloudflare advises", () => {
		const chain = servedChain(forcedLong, OCT_1);
		expect(chain.source).toBe("as_uploaded");
		expect(chain.notes.join(" ")).toContain("should not use the cross-signed chain");
		expect(chain.notes.join(" ")).toContain("ISRG Root X1 (issued by DST Root CA X3) is served but not valid");
	});

	it("an uploaded leaf whose issuer is no recorded Let's Encrypt intermediate has no chain", () => {
		const chain = servedChain(uploaded("R99", "2024-08-01", "2024-08-02T00:00:00Z"), SEP_8);
		expect(chain.source).toBe("unknown");
	});
});
