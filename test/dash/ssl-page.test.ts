/**
 * The SSL/TLS page through the Worker's front door (no browser): the API's refusals shown at their
 * fields with nothing stored, the CA selector's PATCH, the chain view's date, a zone out of reach,
 * and the pure helpers of `src/dash/ssl/`. Browser tests of the same page: test/dash/e2e/ssl.e2e.ts.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { orderBody, orderFieldOf, uploadFieldOf } from "../../src/dash/ssl/certificates";
import { hostnameFieldOf } from "../../src/dash/ssl/hostnames";
import {
	caName,
	dateOf,
	instantOfDate,
	minuteOf,
	shownInstant,
	statusWords,
	verdictWords,
} from "../../src/dash/ssl/values";
import { SCOPED_TOKEN, TOKEN } from "../api/credentials";
import { call, freshZone } from "../api/http";
import { seen } from "./seen";

const DASH = "http://dash.localhost";
type Session = { cookie: string; csrf: string };

/** Signs in with `token` through the sign-in form; answers the session cookie and its CSRF token. */
async function signInAs(token: string): Promise<Session> {
	const form = await exports.default.fetch(`${DASH}/sign-in`);
	const cookieOf = (r: Response) =>
		r.headers
			.getSetCookie()
			.map((c) => c.split(";")[0])
			.join("; ");
	const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? "";
	const signedIn = await exports.default.fetch(`${DASH}/sign-in`, {
		method: "POST",
		redirect: "manual",
		headers: { cookie: cookieOf(form), "content-type": "application/x-www-form-urlencoded" },
		body: new URLSearchParams({ csrf: csrfOf(await form.text()), token }),
	});
	const cookie = cookieOf(signedIn);
	const home = await exports.default.fetch(`${DASH}/`, { headers: { cookie } });
	return { cookie, csrf: csrfOf(await home.text()) };
}

const submit = (session: Session, path: string, form: Record<string, string>) =>
	exports.default.fetch(`${DASH}${path}`, {
		method: "POST",
		redirect: "manual",
		headers: { cookie: session.cookie, "content-type": "application/x-www-form-urlencoded" },
		body: new URLSearchParams({ csrf: session.csrf, ...form }),
	});

const open = (session: Session, path: string) =>
	exports.default.fetch(`${DASH}${path}`, { headers: { cookie: session.cookie } });

describe("the SSL/TLS page", () => {
	it("shows a bad PEM's error at the certificate field, keeps the PEM, drops the key, stores nothing", async () => {
		const zone = await freshZone();
		const session = await signInAs(TOKEN);
		const response = await submit(session, `/zones/${zone}/ssl/custom-certificates`, {
			certificate: "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----",
			private_key: "-----BEGIN PRIVATE KEY-----\nsecret\n-----END PRIVATE KEY-----",
			bundle_method: "ubiquitous",
		});
		expect(response.status).toBe(400);
		const html = await response.text();
		const certificate = (await seen(html)).field("Certificate (PEM)");
		expect(certificate.invalid).toBe(true);
		expect(certificate.error).toMatch(/^Invalid certificate: ./);
		expect(certificate.value).toMatch(/^-----BEGIN CERTIFICATE-----/);
		expect(html).not.toContain("secret");
		const after = await call("GET", `/zones/${zone}/custom_certificates`);
		expect(after.body.result).toEqual([]);
	});

	it("creates a custom hostname and changes its CA to the default CA: Google, a new certificate", async () => {
		const zone = await freshZone();
		const session = await signInAs(TOKEN);
		const hostname = `ca-${crypto.randomUUID().slice(0, 8)}.customer.test`;
		const created = await submit(session, `/zones/${zone}/ssl/hostnames`, {
			hostname,
			method: "txt",
			certificate_authority: "ssl_com",
		});
		expect(created.status).toBe(303);
		expect(created.headers.get("location")).toBe(`/zones/${zone}/ssl?done=hostname-created#hostnames-heading`);
		const listed = await call("GET", `/zones/${zone}/custom_hostnames?hostname=${hostname}`);
		const [host] = listed.body.result as { id: string; ssl: { id: string; certificate_authority: string } }[];
		expect(host?.ssl.certificate_authority).toBe("ssl_com");

		const changed = await submit(session, `/zones/${zone}/ssl/hostnames/${host?.id}/ca`, {
			method: "txt",
			certificate_authority: "",
		});
		expect(changed.status).toBe(303);
		const after = await call("GET", `/zones/${zone}/custom_hostnames/${host?.id}`);
		const ssl = (after.body.result as { ssl: { id: string; certificate_authority: string; status: string } }).ssl;
		expect(ssl.certificate_authority).toBe("google");
		expect(ssl.id).not.toBe(host?.ssl.id);
		const page = await (await open(session, `/zones/${zone}/ssl`)).text();
		expect((await seen(page)).headings).toContain(hostname);
		expect(page).toContain(ssl.id);
	});

	it("shows a refused CA at that hostname's selector, changing nothing", async () => {
		const zone = await freshZone();
		const session = await signInAs(TOKEN);
		const hostname = `x-${crypto.randomUUID().slice(0, 8)}.customer.test`;
		const created = await call("POST", `/zones/${zone}/custom_hostnames`, { hostname, ssl: { method: "txt" } });
		const { id, ssl } = created.body.result as { id: string; ssl: { id: string } };
		const response = await submit(session, `/zones/${zone}/ssl/hostnames/${id}/ca`, {
			method: "txt",
			certificate_authority: "digicert",
		});
		expect(response.status).toBe(400);
		const html = await response.text();
		expect(html).toContain(
			`<p class="error" id="ca-${id}-certificate_authority-error">certificate_authority must be &quot;&quot; (the default CA)`,
		);
		const after = await call("GET", `/zones/${zone}/custom_hostnames/${id}`);
		expect((after.body.result as { ssl: { id: string } }).ssl.id).toBe(ssl.id);
	});

	it("shows the chain view's bad date at the date field", async () => {
		const zone = await freshZone();
		const session = await signInAs(TOKEN);
		const packs = await call("GET", `/zones/${zone}/ssl/certificate_packs?status=all`);
		const [universal] = packs.body.result as { id: string }[];
		const html = await (await open(session, `/zones/${zone}/ssl?chain=${universal?.id}&date=2024-13-45`)).text();
		expect((await seen(html)).field("Date (UTC)").error).toMatch(/^must be an RFC 3339 date-time/);
		// No date: the zone's clock (real time here, when its universal pack exists), shown in the date field.
		const today = new Date().toISOString().slice(0, 10);
		const good = await (await open(session, `/zones/${zone}/ssl?chain=${universal?.id}`)).text();
		expect((await seen(good)).field("Date (UTC)").value).toBe(today);
		expect(good).toContain("Clients validating the RSA certificate");
		// A date before the pack was issued: nothing in force, said so.
		const early = await (await open(session, `/zones/${zone}/ssl?chain=${universal?.id}&date=2024-09-09`)).text();
		expect(early).toContain("on <strong>2024-09-09 00:00 UTC</strong>");
		expect(early).toContain("No certificate is in force then.");
	});

	it("shows a zone out of the credential's reach as the API's refusal, and refuses its writes", async () => {
		const zone = await freshZone();
		const session = await signInAs(SCOPED_TOKEN);
		const response = await open(session, `/zones/${zone}/ssl`);
		expect(response.status).toBe(403);
		expect(await response.text()).not.toContain("Custom hostnames");
		const write = await submit(session, `/zones/${zone}/ssl/hostnames`, { hostname: "a.customer.test", method: "txt" });
		expect(write.status).toBe(403);
		const listed = await call("GET", `/zones/${zone}/custom_hostnames`);
		expect(listed.body.result).toEqual([]);
	});

	it("refuses a write without the session's CSRF token, storing nothing", async () => {
		const zone = await freshZone();
		const session = await signInAs(TOKEN);
		const response = await submit({ ...session, csrf: "forged" }, `/zones/${zone}/ssl/clock`, {
			now: "2024-01-01T00:00",
			mode: "set",
		});
		expect(response.status).toBe(403);
		const clock = await call("GET", `/zones/${zone}/emulator/clock`);
		expect((clock.body.result as { real: boolean }).real).toBe(true);
	});
});

describe("the SSL/TLS page's helpers", () => {
	it.each([
		["2024-09-09", "2024-09-09T00:00:00Z"],
		["2024-9-9", "2024-9-9"],
		["", ""],
	])("reads the chosen date %j as the instant %j", (date, instant) => {
		expect(instantOfDate(date)).toBe(instant);
	});

	it("formats instants for inputs and people, and leaves what is not one alone", () => {
		expect(dateOf("2024-09-30T18:14:03.000Z")).toBe("2024-09-30");
		expect(minuteOf("2024-09-30T18:14:03.000Z")).toBe("2024-09-30T18:14");
		expect(shownInstant("2024-10-30T00:00:35.000Z")).toBe("2024-10-30 00:00 UTC");
		expect([dateOf("soon"), minuteOf(undefined), shownInstant(null), shownInstant("later")]).toEqual([
			"",
			"",
			"—",
			"later",
		]);
	});

	it("names CAs, statuses and verdicts", () => {
		expect([caName("google"), caName("lets_encrypt"), caName("ssl_com"), caName(""), caName("acme")]).toEqual([
			"Google Trust Services",
			"Let's Encrypt",
			"SSL.com",
			"not chosen",
			"acme",
		]);
		expect(statusWords("pending_validation")).toBe("pending validation");
		expect([verdictWords(true), verdictWords(false), verdictWords(null)]).toEqual(["Validates", "Fails", "Unknown"]);
	});

	it("sends the order form as the API's body, and sorts errors by the API's pointers", () => {
		expect(
			orderBody({
				hosts: " a.example,b.example  *.a.example ",
				validation_method: "txt",
				validity_days: "30",
				certificate_authority: "google",
			}),
		).toEqual({
			type: "advanced",
			hosts: ["a.example", "b.example", "*.a.example"],
			validation_method: "txt",
			validity_days: 30,
			certificate_authority: "google",
		});
		expect(
			orderBody({ hosts: "", validation_method: "txt", validity_days: "x", certificate_authority: "" }),
		).toMatchObject({
			hosts: [],
			validity_days: "x",
		});
		expect(["/hosts/2", "/validity_days", "/type"].map(orderFieldOf)).toEqual(["hosts", "validity_days", undefined]);
		expect(["/certificate", "/private_key", "/policy"].map(uploadFieldOf)).toEqual([
			"certificate",
			"private_key",
			undefined,
		]);
		expect(["/hostname", "/ssl/method", "/ssl/certificate_authority", "/ssl/type"].map(hostnameFieldOf)).toEqual([
			"hostname",
			"method",
			"certificate_authority",
			undefined,
		]);
	});
});
