/**
 * The Public access page of a zone (R2 Object Storage > Public access), as the bucket's Settings
 * in Cloudflare's dashboard show it (https://developers.cloudflare.com/r2/buckets/public-buckets/):
 * for a bucket of `R2_BUCKETS`, its custom domains (Domain, Zone, Status, Access, Minimum TLS;
 * Connect domain, a row's Enable / Disable and Remove) and its r2.dev subdomain (Allow or Disallow
 * access, the URL while allowed). A domain is connected in the page's zone, as the page's zone is
 * the one in view.
 *
 * Every read and write is the API v4's `/accounts/{account_id}/r2/buckets/{bucket}/domains`
 * (`api-call.ts`), with the account of the buckets (`DEFAULT_ACCOUNT_ID`); a refusal shows the API's message, beside
 * the Domain field when its `source.pointer` names it.
 */
import type { CustomGetResponse } from "cloudflare/resources/r2/buckets/domains/custom";
import type { ManagedListResponse } from "cloudflare/resources/r2/buckets/domains/managed";
import { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { servedBucketNames } from "../../edge/s3/buckets";
import { MIN_TLS_VERSIONS } from "../../zone/r2-custom-domains";
import { callApi, messagesOf, statusOf } from "../api-call";
import {
	ErrorSummary,
	type FormErrors,
	FormScope,
	formValues,
	HeadedForm,
	NO_ERRORS,
	Notice,
	PostForm,
	SelectField,
	sortErrors,
	TextField,
} from "../components/form";
import { Listing } from "../components/listing";
import { Layout } from "../layout";
import { render } from "../render";
import type { Ctx, DashEnv } from "../types";

/** What a redirect after a successful POST says (`?done=`): fixed texts, nothing from the URL is shown. */
const DONE: Record<string, string> = {
	connected: "Custom domain connected.",
	enabled: "Custom domain enabled.",
	disabled: "Custom domain disabled.",
	removed: "Custom domain removed.",
	"dev-on": "r2.dev access allowed.",
	"dev-off": "r2.dev access disallowed.",
};

const TLS_OPTIONS: [string, string][] = MIN_TLS_VERSIONS.map((v) => [v, `TLS ${v}`]);

/** What the page shows besides the lists: a notice, the Connect form refused, a row's action refused. */
interface PageState {
	notice?: string;
	connect?: { domain: string; minTLS: string; errors: FormErrors };
	rowErrors?: string[];
}

/** The bucket in view: the query's or the form's `bucket` when the Worker serves it, else the first served. */
function bucketOf(c: Ctx, asked: string): string {
	const names = servedBucketNames(c.env);
	return names.includes(asked) ? asked : (names[0] ?? "");
}

const pagePath = (c: Ctx, bucket: string, rest = "", query = "") =>
	`/zones/${c.var.zone.id}/bucket-domains${rest}?bucket=${encodeURIComponent(bucket)}${query}`;
const apiPath = (c: Ctx, bucket: string, rest: string) =>
	`/accounts/${c.env.DEFAULT_ACCOUNT_ID}/r2/buckets/${encodeURIComponent(bucket)}/domains${rest}`;

/** The page of `bucket`. */
async function domainsPage(c: Ctx, bucket: string, state: PageState = {}, status: ContentfulStatusCode = 200) {
	const credential = c.var.session.credential;
	const custom = await callApi<{ domains: CustomGetResponse[] }>(c, credential, "GET", apiPath(c, bucket, "/custom"));
	const managed = await callApi<ManagedListResponse>(c, credential, "GET", apiPath(c, bucket, "/managed"));
	const connect = state.connect ?? { domain: "", minTLS: "1.0", errors: NO_ERRORS };
	return render(
		c,
		<Layout title="Public access" csrf={c.var.csrf} zone={{ ...c.var.zone, page: "bucket-domains" }}>
			<p class="crumbs">R2 Object Storage › Public access</p>
			<h1>Public access</h1>
			<Notice text={state.notice} />
			<form method="get" action={`/zones/${c.var.zone.id}/bucket-domains`} aria-label="Choose a bucket">
				<SelectField
					form="choose"
					name="bucket"
					label="Bucket"
					options={servedBucketNames(c.env).map((name): [string, string] => [name, name])}
					value={bucket}
				/>
				<div class="actions">
					<button type="submit" class="secondary">
						Open bucket
					</button>
				</div>
			</form>
			<section class="card" aria-labelledby="custom-domains-heading">
				<h2 id="custom-domains-heading">Custom domains</h2>
				<ErrorSummary messages={state.rowErrors ?? []} />
				{!custom.ok ? (
					<ErrorSummary messages={messagesOf(custom.errors)} />
				) : custom.result.domains.length === 0 ? (
					<p>No custom domain serves this bucket.</p>
				) : (
					<Listing columns={["Domain", "Zone", "Status", "Access", "Minimum TLS", "Actions"]}>
						{custom.result.domains.map((d) => (
							<tr>
								<td>{d.domain}</td>
								<td>{d.zoneName}</td>
								<td>{d.status.ownership === "active" && d.status.ssl === "active" ? "Active" : d.status.ownership}</td>
								<td>{d.enabled ? "Enabled" : "Disabled"}</td>
								<td>{d.minTLS}</td>
								<td>
									<div class="row-actions">
										<PostForm action={pagePath(c, bucket, `/custom/${d.domain}/enabled`)} csrf={c.var.csrf}>
											<input type="hidden" name="enabled" value={d.enabled ? "false" : "true"} />
											<button
												type="submit"
												class="secondary"
												aria-label={`${d.enabled ? "Disable" : "Enable"} ${d.domain}`}
											>
												{d.enabled ? "Disable" : "Enable"}
											</button>
										</PostForm>
										<PostForm
											action={pagePath(c, bucket, `/custom/${d.domain}/remove`)}
											csrf={c.var.csrf}
											confirm={`Remove ${d.domain}? The bucket will no longer be public there.`}
										>
											<button type="submit" class="danger" aria-label={`Remove ${d.domain}`}>
												Remove
											</button>
										</PostForm>
									</div>
								</td>
							</tr>
						))}
					</Listing>
				)}
				<HeadedForm
					id="connect-domain-heading"
					title="Connect domain"
					action={pagePath(c, bucket, "/custom")}
					csrf={c.var.csrf}
					errors={connect.errors}
					submit="Connect domain"
				>
					<FormScope form="connect" errors={connect.errors}>
						<TextField
							name="domain"
							label="Domain"
							value={connect.domain}
							required
							hint={`A name in this zone, such as cdn.${c.var.zone.name}. The bucket's objects become public there.`}
						/>
						<SelectField name="minTLS" label="Minimum TLS" options={TLS_OPTIONS} value={connect.minTLS} />
					</FormScope>
				</HeadedForm>
			</section>
			<section class="card" aria-labelledby="r2-dev-heading">
				<h2 id="r2-dev-heading">r2.dev subdomain</h2>
				{!managed.ok ? (
					<ErrorSummary messages={messagesOf(managed.errors)} />
				) : (
					<>
						<p>
							{managed.result.enabled ? (
								<>
									Allowed at <code>https://{managed.result.domain}</code>.
								</>
							) : (
								"Not allowed: the bucket is not public at its r2.dev URL."
							)}
						</p>
						<PostForm action={pagePath(c, bucket, "/managed")} csrf={c.var.csrf}>
							<input type="hidden" name="enabled" value={managed.result.enabled ? "false" : "true"} />
							<button type="submit" class="secondary">
								{managed.result.enabled ? "Disallow access" : "Allow access"}
							</button>
						</PostForm>
					</>
				)}
			</section>
		</Layout>,
		status,
	);
}

/** Where a Connect form field's errors show, by the pointer of the API's error. */
const connectFieldOf = (pointer: string) =>
	pointer === "/domain" ? "domain" : pointer === "/minTLS" ? "minTLS" : undefined;

/** Routes under `/zones/{zone_id}/bucket-domains`; the bucket is the `bucket` query parameter. */
export const bucketDomains = new Hono<DashEnv>()
	.get("/", (c) =>
		domainsPage(c, bucketOf(c, c.req.query("bucket") ?? ""), { notice: DONE[c.req.query("done") ?? ""] }),
	)
	.post("/custom", async (c) => {
		const bucket = bucketOf(c, c.req.query("bucket") ?? "");
		const form = await formValues(c);
		const values = { domain: form.one("domain").trim(), minTLS: form.one("minTLS") };
		const body = { domain: values.domain, zoneId: c.var.zone.id, enabled: true, minTLS: values.minTLS };
		const answer = await callApi(c, c.var.session.credential, "POST", apiPath(c, bucket, "/custom"), body);
		if (!answer.ok) {
			const connect = { ...values, errors: sortErrors(answer.errors, connectFieldOf) };
			return domainsPage(c, bucket, { connect }, statusOf(answer));
		}
		return c.redirect(pagePath(c, bucket, "", "&done=connected"), 303);
	})
	.post("/custom/:domain/enabled", async (c) => {
		const bucket = bucketOf(c, c.req.query("bucket") ?? "");
		const enabled = (await formValues(c)).one("enabled") === "true";
		const path = apiPath(c, bucket, `/custom/${encodeURIComponent(c.req.param("domain"))}`);
		const answer = await callApi(c, c.var.session.credential, "PUT", path, { enabled });
		if (!answer.ok) return domainsPage(c, bucket, { rowErrors: messagesOf(answer.errors) }, statusOf(answer));
		return c.redirect(pagePath(c, bucket, "", `&done=${enabled ? "enabled" : "disabled"}`), 303);
	})
	.post("/custom/:domain/remove", async (c) => {
		const bucket = bucketOf(c, c.req.query("bucket") ?? "");
		const path = apiPath(c, bucket, `/custom/${encodeURIComponent(c.req.param("domain"))}`);
		const answer = await callApi(c, c.var.session.credential, "DELETE", path);
		if (!answer.ok) return domainsPage(c, bucket, { rowErrors: messagesOf(answer.errors) }, statusOf(answer));
		return c.redirect(pagePath(c, bucket, "", "&done=removed"), 303);
	})
	.post("/managed", async (c) => {
		const bucket = bucketOf(c, c.req.query("bucket") ?? "");
		const enabled = (await formValues(c)).one("enabled") === "true";
		const answer = await callApi(c, c.var.session.credential, "PUT", apiPath(c, bucket, "/managed"), { enabled });
		if (!answer.ok) return domainsPage(c, bucket, { rowErrors: messagesOf(answer.errors) }, statusOf(answer));
		return c.redirect(pagePath(c, bucket, "", `&done=${enabled ? "dev-on" : "dev-off"}`), 303);
	});
