/**
 * The zone's Network page, as Cloudflare's dashboard shows its IP Geolocation card ("Include the
 * country code of the visitor location with all requests to your website", read by the origin
 * in the `CF-IPCountry` header; https://developers.cloudflare.com/network/ip-geolocation/): the
 * setting's state and one button that turns it on or off.
 *
 * Every read and write is the API v4's `/settings/ip_geolocation` (`api-call.ts`); a refusal (a
 * read-only credential) shows the API's message above the card.
 */
import { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ZoneSetting } from "../../zone/zone-settings";
import { callApi, messagesOf, statusOf, zonePath } from "../api-call";
import { ErrorSummary, formValues, Notice, PostForm } from "../components/form";
import { Layout } from "../layout";
import { render } from "../render";
import type { Ctx, DashEnv } from "../types";

/** What a redirect after a successful POST says (`?done=`): fixed texts, nothing from the URL is shown. */
const DONE: Record<string, string> = {
	on: "IP Geolocation turned on.",
	off: "IP Geolocation turned off.",
};

const pagePath = (c: Ctx, rest = "") => `/zones/${c.var.zone.id}/network${rest}`;
const settingPath = (c: Ctx) => zonePath(c, "/settings/ip_geolocation");

/** The Network page; `errors` the API's refusal of a change. */
async function networkPage(
	c: Ctx,
	state: { notice?: string; errors?: string[] } = {},
	status: ContentfulStatusCode = 200,
) {
	const setting = await callApi<ZoneSetting>(c, c.var.session.credential, "GET", settingPath(c));
	return render(
		c,
		<Layout title="Network" csrf={c.var.csrf} zone={{ ...c.var.zone, page: "network" }}>
			<h1>Network</h1>
			<Notice text={state.notice} />
			<ErrorSummary messages={state.errors ?? []} />
			<section class="card" aria-labelledby="ip-geolocation-heading">
				<h2 id="ip-geolocation-heading">IP Geolocation</h2>
				<p>
					Include the country code of the visitor location with all requests to your website, in the{" "}
					<code>CF-IPCountry</code> header.
				</p>
				{setting.ok ? (
					<PostForm action={pagePath(c, "/ip-geolocation")} csrf={c.var.csrf} label="IP Geolocation">
						<p>
							Status: <strong>{setting.result.value === "on" ? "On" : "Off"}</strong>
						</p>
						<input type="hidden" name="value" value={setting.result.value === "on" ? "off" : "on"} />
						<div class="actions">
							<button type="submit">{setting.result.value === "on" ? "Turn off" : "Turn on"}</button>
						</div>
					</PostForm>
				) : (
					<ErrorSummary messages={messagesOf(setting.errors)} />
				)}
			</section>
		</Layout>,
		status,
	);
}

/** Routes under `/zones/{zone_id}/network`. */
export const network = new Hono<DashEnv>()
	.get("/", (c) => networkPage(c, { notice: DONE[c.req.query("done") ?? ""] }))
	.post("/ip-geolocation", async (c) => {
		const value = (await formValues(c)).one("value");
		const answer = await callApi<ZoneSetting>(c, c.var.session.credential, "PATCH", settingPath(c), { value });
		if (!answer.ok) return networkPage(c, { errors: messagesOf(answer.errors) }, statusOf(answer));
		return c.redirect(pagePath(c, `?done=${answer.result.value}`), 303);
	});
