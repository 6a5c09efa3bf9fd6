/**
 * The SSL/TLS page of a zone (SSL/TLS > Edge Certificates): custom hostnames (create
 * with a CA selector whose default CA is explained, status, validation records, change of CA,
 * delete), the certificate packs with their CA (order, delete advanced ones), Universal SSL and Total TLS settings, custom
 * certificates (upload, parsed hosts, issuer and expiry, delete), and, marked as edgezone's own,
 * the zone's clock, the chain a certificate is served with on a chosen date and which clients
 * validate it, and the notices (e-mails) of the 2024 chain change.
 *
 * Every read and write is the API v4's (`api-call.ts`): `/custom_hostnames`,
 * `/ssl/certificate_packs?status=all`, `/ssl/universal/settings`, `/acm/total_tls`,
 * `/custom_certificates` and the emulator-only `/emulator/clock`, `/emulator/chains/{id}?at=`,
 * `/emulator/outbox`. Refusals show the API's message next to the field its `source.pointer` names.
 * Advanced packs can be ordered and deleted here. Gaps: Universal SSL and Total TLS changes, the
 * simulated DNS (the customer's TXT and CAA records) and custom-hostname settings are API-only for
 * now (the page shows the settings and records, not forms for them).
 */
import { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ChainAnswer, TotalTlsSettings, UniversalSettings } from "../../zone/certificates/store";
import type { ClockReading } from "../../zone/clock";
import type { Notice as OutboxNotice } from "../../zone/outbox";
import { type ApiAnswer, callApi, messagesOf, statusOf, zonePath } from "../api-call";
import { ErrorSummary, type FormErrors, formValues, NO_ERRORS, Notice, sortErrors } from "../components/form";
import { Layout } from "../layout";
import { render } from "../render";
import {
	type CertificatePack,
	type CustomCertificate,
	CustomCertificatesTable,
	EdgeSettings,
	EMPTY_ORDER,
	EMPTY_UPLOAD,
	OrderForm,
	type OrderValues,
	orderBody,
	orderFieldOf,
	PacksTable,
	UploadForm,
	type UploadValues,
	uploadFieldOf,
} from "../ssl/certificates";
import { type ChainChoice, ChainPanel, ClockPanel, OutboxPanel } from "../ssl/emulator";
import {
	CreateHostnameForm,
	type CustomHostname,
	EMPTY_HOSTNAME,
	HostnameCard,
	type HostnameValues,
	hostnameFieldOf,
} from "../ssl/hostnames";
import { dateOf, instantOfDate } from "../ssl/values";
import type { Ctx, DashEnv } from "../types";

/** What a redirect after a successful POST says (`?done=`): fixed texts, nothing from the URL is shown. */
const DONE: Record<string, string> = {
	"hostname-created": "Custom hostname added.",
	"hostname-deleted": "Custom hostname deleted.",
	"ca-changed": "Certificate authority changed: the certificate is re-issued.",
	"certificate-uploaded": "Custom certificate uploaded.",
	"certificate-deleted": "Custom certificate deleted.",
	"clock-set": "Emulator clock set.",
	"pack-ordered": "Advanced certificate ordered.",
	"pack-deleted": "Advanced certificate pack deleted.",
};

/** What the page shows besides the zone's state: a notice, and forms refused with their errors. */
interface PageState {
	notice?: string;
	hostname?: { values: HostnameValues; errors: FormErrors };
	/** A refused change of CA: the hostname's id and the errors. */
	ca?: { id: string; errors: FormErrors };
	upload?: { values: UploadValues; errors: FormErrors };
	order?: { values: OrderValues; errors: FormErrors };
	clock?: FormErrors;
	/** Errors of a row's action (delete). */
	actionErrors?: string[];
}

const pagePath = (c: Ctx, rest = "") => `/zones/${c.var.zone.id}/ssl${rest}`;
const get = <T,>(c: Ctx, rest: string) => callApi<T>(c, c.var.session.credential, "GET", zonePath(c, rest));

/** The chain view's certificates: packs, custom certificates, custom hostnames with a certificate. */
function chainChoices(
	packs: CertificatePack[],
	certificates: CustomCertificate[],
	hosts: CustomHostname[],
): ChainChoice[] {
	// A custom certificate is listed among the packs too, by the same id: it is shown once, as itself.
	const custom = new Set(certificates.map((c) => c.id));
	return [
		...packs.filter((p) => !custom.has(p.id)).map((p): ChainChoice => [p.id, `${p.type} pack: ${p.hosts.join(", ")}`]),
		...certificates.map((c): ChainChoice => [c.id, `Custom certificate: ${(c.hosts ?? []).join(", ")} (${c.issuer})`]),
		...hosts.filter((h) => h.ssl !== undefined).map((h): ChainChoice => [h.id, `Custom hostname: ${h.hostname}`]),
	];
}

const resultOr = <T,>(answer: ApiAnswer<T>): T | undefined => (answer.ok ? answer.result : undefined);
const errorsOf = (answer: ApiAnswer<unknown>): string[] => (answer.ok ? [] : messagesOf(answer.errors));

/** The SSL/TLS page. */
async function sslPage(c: Ctx, state: PageState = {}, status: ContentfulStatusCode = 200) {
	const [clock, hostnames, packs, universal, totalTls, certificates, outbox] = await Promise.all([
		get<ClockReading>(c, "/emulator/clock"),
		get<CustomHostname[]>(c, "/custom_hostnames?per_page=50"),
		get<CertificatePack[]>(c, "/ssl/certificate_packs?status=all&per_page=50"),
		get<UniversalSettings>(c, "/ssl/universal/settings"),
		get<TotalTlsSettings>(c, "/acm/total_tls"),
		get<CustomCertificate[]>(c, "/custom_certificates?per_page=50"),
		// Read after the certificates' reads have applied the clock's moves (the outbox says so).
		get<OutboxNotice[]>(c, "/emulator/outbox"),
	]);
	const hostList = resultOr(hostnames) ?? [];
	const packList = resultOr(packs) ?? [];
	const certificateList = resultOr(certificates) ?? [];

	// The chain view: `?chain=<id>&date=YYYY-MM-DD`; the date defaults to the zone's clock.
	// No date asked: the clock's instant itself (its day's midnight may precede today's certificates).
	const chosen = c.req.query("chain") ?? "";
	const asked = c.req.query("date") ?? "";
	const date = asked === "" ? dateOf(resultOr(clock)?.now) : asked;
	let chain: ApiAnswer<ChainAnswer> | undefined;
	if (chosen !== "") {
		const at = asked === "" ? "" : `?at=${encodeURIComponent(instantOfDate(asked))}`;
		chain = await get<ChainAnswer>(c, `/emulator/chains/${encodeURIComponent(chosen)}${at}`);
	}
	const chainErrors =
		chain === undefined || chain.ok
			? undefined
			: sortErrors(chain.errors, (pointer) => (pointer === "/at" ? "date" : undefined));

	const base = pagePath(c);
	const hostnameForm = state.hostname ?? { values: EMPTY_HOSTNAME, errors: NO_ERRORS };
	const upload = state.upload ?? { values: EMPTY_UPLOAD, errors: NO_ERRORS };
	return render(
		c,
		<Layout title="Edge Certificates" csrf={c.var.csrf} zone={{ ...c.var.zone, page: "ssl" }}>
			<link rel="stylesheet" href="/assets/ssl.css" />
			<p class="crumbs">SSL/TLS › Edge Certificates</p>
			<h1>Edge Certificates</h1>
			<Notice text={state.notice} />
			<ErrorSummary messages={state.actionErrors ?? []} />

			<ClockPanel
				clock={resultOr(clock)}
				action={`${base}/clock`}
				csrf={c.var.csrf}
				errors={state.clock ?? { fields: {}, form: errorsOf(clock) }}
			/>

			<section class="card" aria-labelledby="hostnames-heading">
				<h2 id="hostnames-heading">Custom hostnames</h2>
				<p>
					Your customers' hostnames served by this zone (Cloudflare for SaaS). Each needs its ownership TXT record and
					its certificate's validation records in the customer's DNS.
				</p>
				<ErrorSummary messages={errorsOf(hostnames)} />
				{hostnames.ok && hostList.length === 0 && <p>No custom hostnames yet.</p>}
				{hostList.map((host) => (
					<HostnameCard
						host={host}
						csrf={c.var.csrf}
						base={base}
						errors={state.ca?.id === host.id ? state.ca.errors : undefined}
					/>
				))}
				<CreateHostnameForm
					action={`${base}/hostnames`}
					csrf={c.var.csrf}
					values={hostnameForm.values}
					errors={hostnameForm.errors}
				/>
			</section>

			<section class="card" aria-labelledby="packs-heading">
				<h2 id="packs-heading">Certificate packs</h2>
				<EdgeSettings universal={resultOr(universal)} totalTls={resultOr(totalTls)} />
				<ErrorSummary messages={[...errorsOf(packs), ...errorsOf(universal), ...errorsOf(totalTls)]} />
				{packs.ok && <PacksTable packs={packList} base={base} date={asked} csrf={c.var.csrf} />}
				<OrderForm
					action={`${base}/packs`}
					csrf={c.var.csrf}
					values={(state.order ?? { values: EMPTY_ORDER }).values}
					errors={state.order?.errors ?? NO_ERRORS}
				/>
			</section>

			<section class="card" aria-labelledby="custom-certificates-heading">
				<h2 id="custom-certificates-heading">Custom certificates</h2>
				<ErrorSummary messages={errorsOf(certificates)} />
				{certificates.ok && (
					<CustomCertificatesTable certificates={certificateList} csrf={c.var.csrf} base={base} date={asked} />
				)}
				<UploadForm
					action={`${base}/custom-certificates`}
					csrf={c.var.csrf}
					values={upload.values}
					errors={upload.errors}
				/>
			</section>

			<ChainPanel
				action={base}
				choices={chainChoices(packList, certificateList, hostList)}
				chosen={chosen}
				date={date}
				answer={chain?.ok ? chain.result : undefined}
				errors={chainErrors}
			/>

			<OutboxPanel notices={resultOr(outbox)} errors={errorsOf(outbox)} />
		</Layout>,
		status,
	);
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

/** Routes under `/zones/{zone_id}/ssl`. */
export const ssl = new Hono<DashEnv>()
	.get("/", (c) => sslPage(c, { notice: DONE[c.req.query("done") ?? ""] }))
	.post("/hostnames", async (c) => {
		const form = (await formValues(c)).one;
		const values: HostnameValues = {
			hostname: form("hostname").trim(),
			method: form("method"),
			certificate_authority: form("certificate_authority"),
		};
		const body = {
			hostname: values.hostname,
			ssl: { method: values.method, type: "dv", certificate_authority: values.certificate_authority },
		};
		const answer = await callApi(c, c.var.session.credential, "POST", zonePath(c, "/custom_hostnames"), body);
		if (!answer.ok) {
			return sslPage(c, { hostname: { values, errors: sortErrors(answer.errors, hostnameFieldOf) } }, statusOf(answer));
		}
		return c.redirect(pagePath(c, "?done=hostname-created#hostnames-heading"), 303);
	})
	.post("/hostnames/:id/ca", async (c) => {
		const form = (await formValues(c)).one;
		const id = c.req.param("id");
		// The API's flow (https://developers.cloudflare.com/cloudflare-for-platforms/cloudflare-for-saas/security/certificate-management/issue-and-validate/issue-certificates/): the whole `ssl` with the CA; "" is the default CA.
		const body = { ssl: { method: form("method"), type: "dv", certificate_authority: form("certificate_authority") } };
		const path = zonePath(c, `/custom_hostnames/${encodeURIComponent(id)}`);
		const answer = await callApi(c, c.var.session.credential, "PATCH", path, body);
		if (!answer.ok) {
			return sslPage(c, { ca: { id, errors: sortErrors(answer.errors, hostnameFieldOf) } }, statusOf(answer));
		}
		return c.redirect(pagePath(c, `?done=ca-changed#hostname-${encodeURIComponent(id)}`), 303);
	})
	.post("/hostnames/:id/delete", async (c) => {
		const path = zonePath(c, `/custom_hostnames/${encodeURIComponent(c.req.param("id"))}`);
		const answer = await callApi(c, c.var.session.credential, "DELETE", path);
		if (!answer.ok) return sslPage(c, { actionErrors: messagesOf(answer.errors) }, statusOf(answer));
		return c.redirect(pagePath(c, "?done=hostname-deleted#hostnames-heading"), 303);
	})
	.post("/packs", async (c) => {
		const form = (await formValues(c)).one;
		const values: OrderValues = {
			hosts: form("hosts"),
			validation_method: form("validation_method"),
			validity_days: form("validity_days"),
			certificate_authority: form("certificate_authority"),
		};
		const path = zonePath(c, "/ssl/certificate_packs/order");
		const answer = await callApi(c, c.var.session.credential, "POST", path, orderBody(values));
		if (!answer.ok) {
			return sslPage(c, { order: { values, errors: sortErrors(answer.errors, orderFieldOf) } }, statusOf(answer));
		}
		return c.redirect(pagePath(c, "?done=pack-ordered#packs-heading"), 303);
	})
	.post("/packs/:id/delete", async (c) => {
		const path = zonePath(c, `/ssl/certificate_packs/${encodeURIComponent(c.req.param("id"))}`);
		const answer = await callApi(c, c.var.session.credential, "DELETE", path);
		if (!answer.ok) return sslPage(c, { actionErrors: messagesOf(answer.errors) }, statusOf(answer));
		return c.redirect(pagePath(c, "?done=pack-deleted#packs-heading"), 303);
	})
	.post("/custom-certificates", async (c) => {
		const form = (await formValues(c)).one;
		const values: UploadValues = {
			certificate: form("certificate"),
			private_key: form("private_key"),
			bundle_method: form("bundle_method"),
		};
		const answer = await callApi(c, c.var.session.credential, "POST", zonePath(c, "/custom_certificates"), values);
		if (!answer.ok) {
			// The key is not shown again: it is a secret, and the browser still holds what was pasted only here.
			const kept = { ...values, private_key: "" };
			return sslPage(
				c,
				{ upload: { values: kept, errors: sortErrors(answer.errors, uploadFieldOf) } },
				statusOf(answer),
			);
		}
		return c.redirect(pagePath(c, "?done=certificate-uploaded#custom-certificates-heading"), 303);
	})
	.post("/custom-certificates/:id/delete", async (c) => {
		const path = zonePath(c, `/custom_certificates/${encodeURIComponent(c.req.param("id"))}`);
		const answer = await callApi(c, c.var.session.credential, "DELETE", path);
		if (!answer.ok) return sslPage(c, { actionErrors: messagesOf(answer.errors) }, statusOf(answer));
		return c.redirect(pagePath(c, "?done=certificate-deleted#custom-certificates-heading"), 303);
	})
	.post("/clock", async (c) => {
		const form = (await formValues(c)).one;
		const typed = form("now");
		// A datetime-local value has no zone: the page says UTC, so it is read as UTC.
		const now = form("mode") === "real" ? null : DATE_TIME.test(typed) ? `${typed}:00Z` : typed;
		const body = { now, frozen: form("frozen") === "true" };
		const answer = await callApi(c, c.var.session.credential, "PUT", zonePath(c, "/emulator/clock"), body);
		if (!answer.ok) {
			return sslPage(
				c,
				{ clock: sortErrors(answer.errors, (p) => (p === "/now" ? "now" : undefined)) },
				statusOf(answer),
			);
		}
		return c.redirect(pagePath(c, "?done=clock-set"), 303);
	});
