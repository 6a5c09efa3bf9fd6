/**
 * The Public access page of a zone (R2 Object Storage > Public access), as the bucket's Settings
 * in Cloudflare's dashboard show it (https://developers.cloudflare.com/r2/buckets/public-buckets/):
 * for a bucket of `R2_BUCKETS` or one created at run time, its custom domains (Domain, Zone,
 * Status, Access, Minimum TLS; Connect domain, a row's Enable / Disable and Remove), its r2.dev
 * subdomain (Allow or Disallow access, the URL while allowed) and its CORS policy, which the
 * public hosts answer browsers by (shown and edited as the dashboard's JSON,
 * `../bucket/cors-policy.ts`; Save policy, Delete policy). A domain is connected in the page's
 * zone, as the page's zone is the one in view.
 *
 * Every read and write is the API v4's `/accounts/{account_id}/r2/buckets/{bucket}/domains` and
 * `.../cors` (`api-call.ts`), with the account of the buckets (`DEFAULT_ACCOUNT_ID`); a refusal
 * shows the API's message, beside the Domain field when its `source.pointer` names it.
 */
import type { CustomGetResponse } from "cloudflare/resources/r2/buckets/domains/custom";
import type { ManagedListResponse } from "cloudflare/resources/r2/buckets/domains/managed";
import { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { bucketNames } from "../../runtime-buckets/catalog";
import { MIN_TLS_VERSIONS } from "../../zone/r2-custom-domains";
import { callApi, messagesOf, statusOf } from "../api-call";
import { type ApiCorsRule, parsePolicy, policyText } from "../bucket/cors-policy";
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
	TextArea,
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
	"cors-saved": "CORS policy saved.",
	"cors-deleted": "CORS policy deleted.",
};

/** What the policy field holds for a bucket without one: the docs' example, for a page on localhost:3000. */
const EXAMPLE_POLICY = policyText([{ allowed: { origins: ["http://localhost:3000"], methods: ["GET"] } }]);

const TLS_OPTIONS: [string, string][] = MIN_TLS_VERSIONS.map((v) => [v, `TLS ${v}`]);

/** What the page shows besides the lists: a notice, the Connect form refused, a row's action refused. */
interface PageState {
	notice?: string;
	connect?: { domain: string; minTLS: string; errors: FormErrors };
	rowErrors?: string[];
	/** The policy typed and refused. */
	cors?: { policy: string; errors: FormErrors };
}

/**
 * The bucket in view: the query's `bucket` when the Worker serves it (declared or created), else
 * the first served; with every served bucket's name, for the choice.
 */
async function bucketOf(c: Ctx): Promise<{ bucket: string; names: readonly string[] }> {
	const names = await bucketNames(c.env, Date.now());
	const asked = c.req.query("bucket") ?? "";
	return { bucket: names.includes(asked) ? asked : (names[0] ?? ""), names };
}

const pagePath = (c: Ctx, bucket: string, rest = "", query = "") =>
	`/zones/${c.var.zone.id}/bucket-domains${rest}?bucket=${encodeURIComponent(bucket)}${query}`;
const bucketPath = (c: Ctx, bucket: string, rest: string) =>
	`/accounts/${c.env.DEFAULT_ACCOUNT_ID}/r2/buckets/${encodeURIComponent(bucket)}${rest}`;
const apiPath = (c: Ctx, bucket: string, rest: string) => bucketPath(c, bucket, `/domains${rest}`);

/** The page of `bucket`, one of `names`. */
async function domainsPage(
	c: Ctx,
	{ bucket, names }: { bucket: string; names: readonly string[] },
	state: PageState = {},
	status: ContentfulStatusCode = 200,
) {
	const credential = c.var.session.credential;
	const [custom, managed, cors] = await Promise.all([
		callApi<{ domains: CustomGetResponse[] }>(c, credential, "GET", apiPath(c, bucket, "/custom")),
		callApi<ManagedListResponse>(c, credential, "GET", apiPath(c, bucket, "/managed")),
		callApi<{ rules?: ApiCorsRule[] }>(c, credential, "GET", bucketPath(c, bucket, "/cors")),
	]);
	const connect = state.connect ?? { domain: "", minTLS: "1.0", errors: NO_ERRORS };
	const rules = cors.ok ? (cors.result.rules ?? []) : [];
	const policy = state.cors?.policy ?? (rules.length === 0 ? EXAMPLE_POLICY : policyText(rules));
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
					options={names.map((name): [string, string] => [name, name])}
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
			<section class="card" aria-labelledby="cors-heading">
				<h2 id="cors-heading">CORS policy</h2>
				{!cors.ok ? (
					<ErrorSummary messages={messagesOf(cors.errors)} />
				) : rules.length === 0 ? (
					<p>No CORS policy: pages on other sites cannot read this bucket's public objects.</p>
				) : (
					<>
						<figure class="policy">
							<figcaption>Current policy</figcaption>
							<pre>{policyText(rules)}</pre>
						</figure>
						<PostForm
							action={pagePath(c, bucket, "/cors/delete")}
							csrf={c.var.csrf}
							confirm="Delete the CORS policy? Pages on other sites will no longer read this bucket."
						>
							<button type="submit" class="danger">
								Delete policy
							</button>
						</PostForm>
					</>
				)}
				<HeadedForm
					id="cors-edit-heading"
					title={rules.length === 0 ? "Add CORS policy" : "Edit CORS policy"}
					action={pagePath(c, bucket, "/cors")}
					csrf={c.var.csrf}
					errors={state.cors?.errors ?? NO_ERRORS}
					submit="Save policy"
				>
					<FormScope form="cors" errors={state.cors?.errors ?? NO_ERRORS}>
						<TextArea
							name="policy"
							label="Policy (JSON)"
							value={policy}
							rows={10}
							hint="An array of rules, each with AllowedOrigins and AllowedMethods, and optionally AllowedHeaders, ExposeHeaders, MaxAgeSeconds and ID."
						/>
					</FormScope>
				</HeadedForm>
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
	.get("/", async (c) => domainsPage(c, await bucketOf(c), { notice: DONE[c.req.query("done") ?? ""] }))
	.post("/custom", async (c) => {
		const view = await bucketOf(c);
		const form = await formValues(c);
		const values = { domain: form.one("domain").trim(), minTLS: form.one("minTLS") };
		const body = { domain: values.domain, zoneId: c.var.zone.id, enabled: true, minTLS: values.minTLS };
		const answer = await callApi(c, c.var.session.credential, "POST", apiPath(c, view.bucket, "/custom"), body);
		if (!answer.ok) {
			const connect = { ...values, errors: sortErrors(answer.errors, connectFieldOf) };
			return domainsPage(c, view, { connect }, statusOf(answer));
		}
		return c.redirect(pagePath(c, view.bucket, "", "&done=connected"), 303);
	})
	.post("/custom/:domain/enabled", async (c) => {
		const view = await bucketOf(c);
		const enabled = (await formValues(c)).one("enabled") === "true";
		const path = apiPath(c, view.bucket, `/custom/${encodeURIComponent(c.req.param("domain"))}`);
		const answer = await callApi(c, c.var.session.credential, "PUT", path, { enabled });
		if (!answer.ok) return domainsPage(c, view, { rowErrors: messagesOf(answer.errors) }, statusOf(answer));
		return c.redirect(pagePath(c, view.bucket, "", `&done=${enabled ? "enabled" : "disabled"}`), 303);
	})
	.post("/custom/:domain/remove", async (c) => {
		const view = await bucketOf(c);
		const path = apiPath(c, view.bucket, `/custom/${encodeURIComponent(c.req.param("domain"))}`);
		const answer = await callApi(c, c.var.session.credential, "DELETE", path);
		if (!answer.ok) return domainsPage(c, view, { rowErrors: messagesOf(answer.errors) }, statusOf(answer));
		return c.redirect(pagePath(c, view.bucket, "", "&done=removed"), 303);
	})
	.post("/managed", async (c) => {
		const view = await bucketOf(c);
		const enabled = (await formValues(c)).one("enabled") === "true";
		const answer = await callApi(c, c.var.session.credential, "PUT", apiPath(c, view.bucket, "/managed"), { enabled });
		if (!answer.ok) return domainsPage(c, view, { rowErrors: messagesOf(answer.errors) }, statusOf(answer));
		return c.redirect(pagePath(c, view.bucket, "", `&done=${enabled ? "dev-on" : "dev-off"}`), 303);
	})
	.post("/cors", async (c) => {
		const view = await bucketOf(c);
		const policy = (await formValues(c)).one("policy");
		const refused = (errors: FormErrors, status: ContentfulStatusCode) =>
			domainsPage(c, view, { cors: { policy, errors } }, status);
		const parsed = parsePolicy(policy);
		if (!parsed.ok) return refused({ fields: { policy: [parsed.message] }, form: [] }, 400);
		const path = bucketPath(c, view.bucket, "/cors");
		const answer = await callApi(c, c.var.session.credential, "PUT", path, { rules: parsed.rules });
		// The API's refusals point into its own body, not the typed JSON: they are the field's.
		if (!answer.ok) return refused({ fields: { policy: messagesOf(answer.errors) }, form: [] }, statusOf(answer));
		return c.redirect(pagePath(c, view.bucket, "", "&done=cors-saved"), 303);
	})
	.post("/cors/delete", async (c) => {
		const view = await bucketOf(c);
		const answer = await callApi(c, c.var.session.credential, "DELETE", bucketPath(c, view.bucket, "/cors"));
		if (!answer.ok) return domainsPage(c, view, { rowErrors: messagesOf(answer.errors) }, statusOf(answer));
		return c.redirect(pagePath(c, view.bucket, "", "&done=cors-deleted"), 303);
	});
