/**
 * The DNS page of a zone (DNS > Records), as Cloudflare's dashboard shows it
 * (https://developers.cloudflare.com/dns/manage-dns-records/how-to/create-dns-records/): the
 * zone's records with their proxy status ("Proxied" or "DNS only") and TTL ("Auto" for 1), Add
 * record, a row's proxy toggle, Edit (content, priority, TTL, proxied, comment) and Delete.
 *
 * Every read and write is the API v4's `/dns_records` (`api-call.ts`); a refusal shows the API's
 * message next to the field its `source.pointer` names (81053 a CNAME beside an A record at Name,
 * 9004 a TXT proxied at Proxied). Import and Export send a zone file to `/dns_records/import` and
 * download `/dns_records/export`. The parts live in `dns/records.tsx` and `dns/zone-file.tsx`.
 */
import { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { DnsRecord } from "../../zone/dns-records";
import { callApi, callApiText, messagesOf, statusOf, zonePath } from "../api-call";
import { contain } from "../bucket/containment";
import { ErrorSummary, type FormErrors, formValues, NO_ERRORS, Notice, sortErrors } from "../components/form";
import {
	AddRecordForm,
	EditRecordForm,
	EMPTY_RECORD,
	RecordsTable,
	type RecordValues,
	recordBody,
	recordFieldOf,
	recordValuesOf,
	valuesOfRecord,
} from "../dns/records";
import { type ImportOutcome, ZoneFileCard } from "../dns/zone-file";
import { Layout } from "../layout";
import { render } from "../render";
import type { Ctx, DashEnv } from "../types";

/** What a redirect after a successful POST says (`?done=`): fixed texts, nothing from the URL is shown. */
const DONE: Record<string, string> = {
	added: "DNS record added.",
	saved: "DNS record saved.",
	proxied: "DNS record proxied.",
	"dns-only": "DNS record set to DNS only.",
	deleted: "DNS record deleted.",
};

/**
 * What the page shows besides the records: a notice, the Add record form refused, a row's action
 * refused, an import's outcome or refusal.
 */
interface PageState {
	notice?: string;
	add?: { values: RecordValues; errors: FormErrors };
	rowErrors?: string[];
	zoneFile?: { outcome?: ImportOutcome; errors: string[] };
}

const pagePath = (c: Ctx, rest = "") => `/zones/${c.var.zone.id}/dns${rest}`;
const recordPath = (c: Ctx) => zonePath(c, `/dns_records/${encodeURIComponent(c.req.param("record_id") ?? "")}`);

/** The DNS page: the records table and the Add record form. */
async function dnsPage(c: Ctx, state: PageState = {}, status: ContentfulStatusCode = 200) {
	// 5,000 per page: more than a zone holds (MAX_RECORDS), so one page is every record.
	const records = await callApi<DnsRecord[]>(
		c,
		c.var.session.credential,
		"GET",
		zonePath(c, "/dns_records?order=type&per_page=5000"),
	);
	const add = state.add ?? { values: EMPTY_RECORD, errors: NO_ERRORS };
	return render(
		c,
		<Layout title="DNS records" csrf={c.var.csrf} zone={{ ...c.var.zone, page: "dns" }}>
			<p class="crumbs">DNS › Records</p>
			<h1>DNS records</h1>
			<Notice text={state.notice} />
			<section class="card" aria-labelledby="records-heading">
				<h2 id="records-heading">Records</h2>
				<ErrorSummary messages={state.rowErrors ?? []} />
				{records.ok ? (
					<RecordsTable records={records.result} zone={c.var.zone.name} csrf={c.var.csrf} base={pagePath(c)} />
				) : (
					<ErrorSummary messages={messagesOf(records.errors)} />
				)}
				<AddRecordForm action={pagePath(c, "/records")} csrf={c.var.csrf} values={add.values} errors={add.errors} />
			</section>
			<ZoneFileCard
				importAction={pagePath(c, "/import")}
				exportHref={pagePath(c, "/export")}
				csrf={c.var.csrf}
				outcome={state.zoneFile?.outcome}
				errors={state.zoneFile?.errors ?? []}
			/>
		</Layout>,
		status,
	);
}

/** The Edit record page of the path's record; `state` the form as typed and refused. */
async function editPage(
	c: Ctx,
	state: { values?: RecordValues; errors?: FormErrors } = {},
	status: ContentfulStatusCode = 200,
) {
	const answer = await callApi<DnsRecord>(c, c.var.session.credential, "GET", recordPath(c));
	return render(
		c,
		<Layout title="Edit DNS record" csrf={c.var.csrf} zone={{ ...c.var.zone, page: "dns" }}>
			<p class="crumbs">
				DNS › <a href={pagePath(c)}>Records</a> › Edit
			</p>
			<h1>Edit DNS record</h1>
			{answer.ok ? (
				<EditRecordForm
					action={pagePath(c, `/records/${answer.result.id}`)}
					csrf={c.var.csrf}
					record={answer.result}
					zone={c.var.zone.name}
					values={state.values ?? valuesOfRecord(answer.result)}
					errors={state.errors ?? NO_ERRORS}
				/>
			) : (
				<ErrorSummary messages={messagesOf(answer.errors)} />
			)}
		</Layout>,
		answer.ok ? status : statusOf(answer),
	);
}

/** Routes under `/zones/{zone_id}/dns`. */
export const dns = new Hono<DashEnv>()
	.get("/", (c) => dnsPage(c, { notice: DONE[c.req.query("done") ?? ""] }))
	.post("/records", async (c) => {
		const values = recordValuesOf(await formValues(c));
		const answer = await callApi(
			c,
			c.var.session.credential,
			"POST",
			zonePath(c, "/dns_records"),
			recordBody(values, false),
		);
		if (!answer.ok) {
			return dnsPage(c, { add: { values, errors: sortErrors(answer.errors, recordFieldOf) } }, statusOf(answer));
		}
		return c.redirect(pagePath(c, "?done=added"), 303);
	})
	.post("/import", async (c) => {
		const body = await c.req.parseBody({ all: true });
		const file = body.file;
		if (!(file instanceof File) || file.size === 0) {
			return dnsPage(c, { zoneFile: { errors: ["Choose a zone file to import."] } }, 400);
		}
		const form = new FormData();
		form.append("file", file);
		form.append("proxied", body.proxied === "true" ? "true" : "false");
		const answer = await callApi<{ recs_added: number; total_records_parsed: number }>(
			c,
			c.var.session.credential,
			"POST",
			zonePath(c, "/dns_records/import"),
			form,
		);
		if (!answer.ok) return dnsPage(c, { zoneFile: { errors: messagesOf(answer.errors) } }, statusOf(answer));
		const outcome = {
			added: answer.result.recs_added,
			parsed: answer.result.total_records_parsed,
			leftOut: messagesOf(answer.messages ?? []),
		};
		return dnsPage(c, { zoneFile: { outcome, errors: [] } });
	})
	.get("/export", async (c) => {
		const answer = await callApiText(c, c.var.session.credential, zonePath(c, "/dns_records/export"));
		if (!answer.ok) return dnsPage(c, { zoneFile: { errors: messagesOf(answer.errors) } }, statusOf(answer));
		// The records' comments are anyone's text: contained as an object's bytes are. The zone's
		// name is a checked DNS name, safe inside the quoted filename.
		const headers = {
			"Content-Type": "text/plain; charset=utf-8",
			"Content-Disposition": `attachment; filename="${c.var.zone.name}.txt"`,
		};
		return contain(new Response(answer.text, { headers }));
	})
	.get("/records/:record_id", (c) => editPage(c))
	.post("/records/:record_id", async (c) => {
		const before = await callApi<DnsRecord>(c, c.var.session.credential, "GET", recordPath(c));
		if (!before.ok) return dnsPage(c, { rowErrors: messagesOf(before.errors) }, statusOf(before));
		const values = { ...recordValuesOf(await formValues(c), before.result.type), name: before.result.name };
		const answer = await callApi(c, c.var.session.credential, "PATCH", recordPath(c), recordBody(values, true));
		if (!answer.ok) return editPage(c, { values, errors: sortErrors(answer.errors, recordFieldOf) }, statusOf(answer));
		return c.redirect(pagePath(c, "?done=saved"), 303);
	})
	.post("/records/:record_id/proxied", async (c) => {
		const proxied = (await formValues(c)).one("proxied") === "true";
		const answer = await callApi(c, c.var.session.credential, "PATCH", recordPath(c), { proxied });
		if (!answer.ok) return dnsPage(c, { rowErrors: messagesOf(answer.errors) }, statusOf(answer));
		return c.redirect(pagePath(c, `?done=${proxied ? "proxied" : "dns-only"}`), 303);
	})
	.post("/records/:record_id/delete", async (c) => {
		const answer = await callApi(c, c.var.session.credential, "DELETE", recordPath(c));
		if (!answer.ok) return dnsPage(c, { rowErrors: messagesOf(answer.errors) }, statusOf(answer));
		return c.redirect(pagePath(c, "?done=deleted"), 303);
	});
