/**
 * The zone's Rules > Settings page, as Cloudflare's dashboard shows its Managed Transforms tab
 * ("enable or disable the desired Managed Transforms by selecting the toggle next to each entry";
 * https://developers.cloudflare.com/rules/transform/managed-transforms/configure/): the HTTP
 * request header and HTTP response header transforms, each with its state and one button that
 * turns it on or off. A transform whose other half is on cannot be turned on, and says which is
 * on, as the dashboard disables a conflicting toggle.
 *
 * Every read and write is the API v4's `/managed_headers` (`api-call.ts`); a refusal (a read-only
 * credential) shows the API's message above the card.
 */
import { Hono } from "hono";
import type { FC } from "hono/jsx";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ManagedTransform, ManagedTransforms, TransformList } from "../../zone/managed-transforms";
import { callApi, messagesOf, statusOf, zonePath } from "../api-call";
import { ErrorSummary, formValues, Notice, PostForm } from "../components/form";
import { Layout } from "../layout";
import { render } from "../render";
import type { Ctx, DashEnv } from "../types";

/** What a redirect after a successful POST says (`?done=`): fixed texts, nothing from the URL is shown. */
const DONE: Record<string, string> = {
	on: "Managed Transform turned on.",
	off: "Managed Transform turned off.",
};

/** Each transform's name and what it does, as the docs' reference page gives them. */
const LABELS: Record<string, readonly [string, string]> = {
	add_visitor_location_headers: [
		"Add visitor location headers",
		"Adds the visitor's city, country, continent, coordinates, region, metro and postal codes to the request sent to the origin (cf-ipcity, cf-ipcountry, ...).",
	],
	add_true_client_ip_headers: [
		'Add "True-Client-IP" header',
		"Adds a true-client-ip request header with the visitor's IP address.",
	],
	remove_visitor_ip_headers: [
		"Remove visitor IP headers",
		"Removes the request headers that may hold the visitor's IP address (cf-connecting-ip, x-forwarded-for, true-client-ip).",
	],
	"remove_x-powered-by_header": [
		'Remove "X-Powered-By" headers',
		"Removes the X-Powered-By response header, which names the application at the origin.",
	],
	add_security_headers: [
		"Add security headers",
		"Adds x-content-type-options, x-xss-protection, x-frame-options, referrer-policy and expect-ct to every answer.",
	],
};

const LISTS: readonly (readonly [TransformList, string])[] = [
	["managed_request_headers", "HTTP request headers"],
	["managed_response_headers", "HTTP response headers"],
];

const pagePath = (c: Ctx, rest = "") => `/zones/${c.var.zone.id}/rules-settings${rest}`;
const apiPath = (c: Ctx) => zonePath(c, "/managed_headers");

const nameOf = (id: string) => LABELS[id]?.[0] ?? id;

const TransformRow: FC<{ transform: ManagedTransform; list: TransformList; csrf: string; action: string }> = ({
	transform,
	list,
	csrf,
	action,
}) => {
	const name = nameOf(transform.id);
	const blocked = !transform.enabled && transform.has_conflict;
	return (
		<tr>
			<th scope="row">{name}</th>
			<td>{LABELS[transform.id]?.[1] ?? ""}</td>
			<td>{transform.enabled ? "On" : "Off"}</td>
			<td>
				{blocked ? (
					<span>Unavailable while {(transform.conflicts_with ?? []).map(nameOf).join(", ")} is on</span>
				) : (
					<PostForm action={action} csrf={csrf} label={name}>
						<input type="hidden" name="list" value={list} />
						<input type="hidden" name="id" value={transform.id} />
						<input type="hidden" name="enabled" value={transform.enabled ? "false" : "true"} />
						<button type="submit" aria-label={`${transform.enabled ? "Turn off" : "Turn on"} ${name}`}>
							{transform.enabled ? "Turn off" : "Turn on"}
						</button>
					</PostForm>
				)}
			</td>
		</tr>
	);
};

/** The Settings page; `errors` the API's refusal of a change. */
async function settingsPage(
	c: Ctx,
	state: { notice?: string; errors?: string[] } = {},
	status: ContentfulStatusCode = 200,
) {
	const transforms = await callApi<ManagedTransforms>(c, c.var.session.credential, "GET", apiPath(c));
	return render(
		c,
		<Layout title="Rules settings" csrf={c.var.csrf} zone={{ ...c.var.zone, page: "rules-settings" }}>
			<h1>Rules settings</h1>
			<Notice text={state.notice} />
			<ErrorSummary messages={state.errors ?? []} />
			<section class="card" aria-labelledby="managed-transforms-heading">
				<h2 id="managed-transforms-heading">Managed Transforms</h2>
				<p>Common adjustments to the headers of requests and answers, applied to all of the zone's traffic.</p>
				{!transforms.ok ? (
					<ErrorSummary messages={messagesOf(transforms.errors)} />
				) : (
					LISTS.map(([list, heading]) => (
						<>
							<h3 id={`${list}-heading`}>{heading}</h3>
							<table aria-labelledby={`${list}-heading`}>
								<thead>
									<tr>
										<th scope="col">Managed Transform</th>
										<th scope="col">What it does</th>
										<th scope="col">Status</th>
										<th scope="col">Action</th>
									</tr>
								</thead>
								<tbody>
									{transforms.result[list].map((transform) => (
										<TransformRow
											transform={transform}
											list={list}
											csrf={c.var.csrf}
											action={pagePath(c, "/managed-transforms")}
										/>
									))}
								</tbody>
							</table>
						</>
					))
				)}
			</section>
		</Layout>,
		status,
	);
}

/** Routes under `/zones/{zone_id}/rules-settings`. */
export const rulesSettings = new Hono<DashEnv>()
	.get("/", (c) => settingsPage(c, { notice: DONE[c.req.query("done") ?? ""] }))
	.post("/managed-transforms", async (c) => {
		const form = await formValues(c);
		const list =
			form.one("list") === "managed_response_headers" ? "managed_response_headers" : "managed_request_headers";
		const enabled = form.one("enabled") === "true";
		const answer = await callApi<ManagedTransforms>(c, c.var.session.credential, "PATCH", apiPath(c), {
			[list]: [{ id: form.one("id"), enabled }],
		});
		if (!answer.ok) return settingsPage(c, { errors: messagesOf(answer.errors) }, statusOf(answer));
		return c.redirect(pagePath(c, `?done=${enabled ? "on" : "off"}`), 303);
	});
