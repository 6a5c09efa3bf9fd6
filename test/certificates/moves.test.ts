import { describe, expect, it } from "vitest";
import {
	type MoveContext,
	type ScheduledCertificate,
	type ScheduledEvent,
	scheduledMoves,
} from "../../src/certificates/index.ts";
import { day, managed } from "./fixtures.ts";

const YEAR_START = day("2024-01-01");
const YEAR_END = day("2024-12-01");

/** The events as `kind at` lines, so a whole year reads as one list. */
const lines = (events: ScheduledEvent[]) =>
	events.map((e) => `${e.kind} ${e.at.toISOString()}${"to" in e ? ` ${e.to}` : ""}`);

/** A managed certificate kept on Let's Encrypt: mailed in June, renewed (R10/R11 from 06-14), short chain from 09-09. */
const STAYS_ON_LETS_ENCRYPT = [
	"notification 2024-06-01T00:00:00.000Z",
	"renewed 2024-06-14T00:00:00.000Z",
	"renewed 2024-08-13T00:00:00.000Z",
	"chain_changed 2024-09-09T00:00:00.000Z",
	"renewed 2024-10-12T00:00:00.000Z",
];

const year = (certificate: ScheduledCertificate, context: MoveContext = {}) =>
	scheduledMoves(certificate, YEAR_START, YEAR_END, context);

describe("moves on the clock in 2024 (Cloudflare's Let's Encrypt chain update)", () => {
	it("universal on Let's Encrypt, CA left to Cloudflare: switched to Google at its first renewal from June", () => {
		const { certificate, events } = year(managed({ type: "universal" }));
		expect(lines(events)).toEqual([
			"ca_switched 2024-06-14T00:00:00.000Z google",
			"renewed 2024-08-13T00:00:00.000Z",
			"renewed 2024-10-12T00:00:00.000Z",
		]);
		const switched = events[0];
		if (switched?.kind !== "ca_switched") throw new Error("expected a switch");
		expect(switched.chain).toBe("WR1 by GTS Root R1 > GTS Root R1 by GlobalSign Root CA > anchor GlobalSign Root CA");
		expect(switched.expires_on.toISOString()).toBe("2024-09-12T00:00:00.000Z");
		expect(certificate.certificate_authority).toBe("google");
	});

	it("a renewal before June stays on Let's Encrypt (R3); the switch waits for the next renewal", () => {
		const { events } = year(
			managed({ type: "universal", issued_on: day("2024-03-10"), expires_on: day("2024-06-08") }),
		);
		expect(lines(events).slice(0, 2)).toEqual([
			"renewed 2024-05-09T00:00:00.000Z",
			"ca_switched 2024-07-08T00:00:00.000Z google",
		]);
		const renewed = events[0];
		if (renewed?.kind !== "renewed") throw new Error("expected a renewal");
		expect(renewed.certificate_authority).toBe("lets_encrypt");
		expect(renewed.chain).toBe("R3 by ISRG Root X1 > ISRG Root X1 by DST Root CA X3 > anchor DST Root CA X3");
	});

	it("universal kept on Let's Encrypt by CAA: not switched, the owner is told why, the chain shortens on 2024-09-09", () => {
		const { certificate, events } = year(managed({ type: "universal" }), {
			caa: ["letsencrypt.org"],
			hostname: "example.com",
		});
		expect(lines(events)).toEqual(STAYS_ON_LETS_ENCRYPT);
		const mail = events[0];
		if (mail?.kind !== "notification") throw new Error("expected an e-mail");
		expect(mail.email.subject).toBe(
			"Let's Encrypt chain change: your Universal SSL certificate for example.com uses Let's Encrypt",
		);
		expect(mail.email.body).toContain("A CAA record blocks Google Trust Services (pki.goog)");
		expect(certificate.certificate_authority).toBe("lets_encrypt");
	});

	it("advanced set to Let's Encrypt: not changed, one e-mail in June, the chain loses the cross-sign on 2024-09-09", () => {
		const { events } = year(managed({ type: "advanced" }));
		expect(lines(events)).toEqual(STAYS_ON_LETS_ENCRYPT);
		const change = events[3];
		if (change?.kind !== "chain_changed") throw new Error("expected a chain change");
		expect(change.before).toMatch(/^R1[01] by ISRG Root X1 > ISRG Root X1 by DST Root CA X3 > anchor DST Root CA X3$/);
		expect(change.after).toMatch(/^R1[01] by ISRG Root X1 > anchor ISRG Root X1$/);
		expect(change.rule).toContain("lets-encrypt-chain/ (September 9, 2024)");
		const mail = events[0];
		if (mail?.kind !== "notification") throw new Error("expected an e-mail");
		expect(mail.email.body).toContain("explicitly set to Let's Encrypt");
		expect(mail.email.certificate_id).toBe("c2d4");
	});

	it("Total TLS on Let's Encrypt is not changed, even with the CA left open, and the e-mail points to its settings", () => {
		const { certificate, events } = year(managed({ type: "total_tls", requested_authority: "" }));
		expect(events.some((e) => e.kind === "ca_switched")).toBe(false);
		expect(certificate.certificate_authority).toBe("lets_encrypt");
		const mail = events.find((e) => e.kind === "notification");
		if (mail?.kind !== "notification") throw new Error("expected an e-mail");
		expect(mail.email.body).toContain("Select another CA in the Total TLS settings under SSL/TLS > Edge Certificates.");
	});

	it("a custom hostname set to Let's Encrypt, created in July: the SaaS provider is mailed that day and advised to switch before September 9", () => {
		const created = day("2024-07-10");
		const hostname = managed({
			type: "custom_hostname",
			requested_authority: "lets_encrypt",
			issued_on: created,
			expires_on: day("2024-10-08"),
		});
		const { events } = year(hostname, { hostname: "app.customer.test" });
		const mail = events.find((e) => e.kind === "notification");
		if (mail?.kind !== "notification") throw new Error("expected an e-mail");
		expect(mail.at).toEqual(created);
		expect(mail.email.body).toContain("switching its CA before September 9, 2024");
		expect(mail.email.body).toContain('"certificate_authority":""');
	});

	it("no e-mail for a Let's Encrypt certificate created on or after 2024-09-09", () => {
		const late = managed({ type: "advanced", issued_on: day("2024-09-09"), expires_on: day("2024-12-08") });
		expect(year(late).events.filter((e) => e.kind === "notification")).toEqual([]);
	});

	it('a custom hostname with "" moves like universal; with CAA blocking Google it stays and is mailed', () => {
		const hostname = managed({ type: "custom_hostname", requested_authority: "" });
		expect(lines(year(hostname).events)[0]).toBe("ca_switched 2024-06-14T00:00:00.000Z google");
		const blocked = year(hostname, { caa: ["letsencrypt.org"] });
		expect(lines(blocked.events)[0]).toBe("notification 2024-06-01T00:00:00.000Z");
	});

	it("a custom certificate uploaded before 2024-09-09 keeps its chain; only the cross-sign's expiry changes it", () => {
		const custom: ScheduledCertificate = {
			type: "custom",
			certificate_authority: "lets_encrypt",
			issuer: "R11",
			issued_on: day("2024-07-25"),
			expires_on: day("2024-10-23"),
			uploaded_on: day("2024-08-01"),
		};
		const { events } = year(custom);
		expect(lines(events)).toEqual(["chain_changed 2024-09-30T18:14:04.000Z"]);
		const change = events[0];
		if (change?.kind !== "chain_changed") throw new Error("expected a chain change");
		expect(change.before).toBe("R11 by ISRG Root X1 > ISRG Root X1 by DST Root CA X3 > anchor DST Root CA X3");
		expect(change.after).toBe("R11 by ISRG Root X1 > ISRG Root X1 by DST Root CA X3 (expired) > anchor DST Root CA X3");
	});

	it("consecutive windows give every event exactly once", () => {
		const certificate = managed({ type: "advanced" });
		const cuts = ["2024-01-01", "2024-06-01", "2024-06-14", "2024-09-09", "2024-09-30", "2024-12-01"].map(day);
		const pieces = cuts.slice(1).flatMap((to, i) => scheduledMoves(certificate, cuts[i] as Date, to).events);
		expect(lines(pieces)).toEqual(lines(year(certificate).events));
	});

	it("a window after the switch answers the switched certificate and no event", () => {
		const moved = scheduledMoves(managed({ type: "universal" }), day("2024-07-01"), day("2024-07-02"));
		expect(moved.events).toEqual([]);
		expect(moved.certificate.certificate_authority).toBe("google");
		expect(moved.certificate.issued_on).toEqual(day("2024-06-14"));
	});
});
