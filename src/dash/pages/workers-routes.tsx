/**
 * The zone's Workers Routes page, as Cloudflare's dashboard shows it (Workers Routes: "Add route"
 * with a Route and a Worker, "None" turning Workers off where the route matches;
 * https://developers.cloudflare.com/workers/configuration/routing/routes/#set-up-a-route-in-the-dashboard):
 * the routes with their Worker, Add route, a row's Edit page and Delete.
 *
 * Every read and write is the API v4's `/workers/routes` (`api-call.ts`); a refusal shows the API's
 * message next to the field its `source.pointer` names (10022 a pattern outside the zone at Route,
 * 10020 a duplicate, 10019 a Worker the account lacks at Worker). Where Cloudflare's dashboard
 * lists the account's Workers, the Worker field offers them as the person types: edgezone's are
 * the names `WORKER_SCRIPTS` lists (docs/workers-routes.md), read from the deployment's
 * configuration, as the API checks them; any name may still be typed, for the API to judge. An
 * empty Worker is "None".
 */
import { Hono } from "hono";
import type { FC } from "hono/jsx";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { ConfigError } from "../../common/config";
import { accountWorkers } from "../../edge/workers-route/scripts";
import type { WorkersRoute } from "../../zone/workers-routes";
import { callApi, messagesOf, statusOf, zonePath } from "../api-call";
import {
	Csrf,
	ErrorSummary,
	type FormErrors,
	FormScope,
	formValues,
	NO_ERRORS,
	Notice,
	PostForm,
	sortErrors,
	TextField,
} from "../components/form";
import { Layout } from "../layout";
import { render } from "../render";
import type { Ctx, DashEnv } from "../types";

/** What a redirect after a successful POST says (`?done=`): fixed texts, nothing from the URL is shown. */
const DONE: Record<string, string> = {
	added: "Route added.",
	saved: "Route saved.",
	deleted: "Route deleted.",
};

/** A route form as typed. */
interface RouteValues {
	pattern: string;
	script: string;
}

const EMPTY: RouteValues = { pattern: "", script: "" };

/** The API body of a route form: no `script` for "None". */
const routeBody = (v: RouteValues) =>
	v.script === "" ? { pattern: v.pattern } : { pattern: v.pattern, script: v.script };

/** Where a route form field's errors show, by the pointer of the API's error. */
function routeFieldOf(pointer: string): string | undefined {
	const [, top] = pointer.split("/");
	return top === "pattern" || top === "script" ? top : undefined;
}

async function routeValuesOf(c: Ctx): Promise<RouteValues> {
	const form = await formValues(c);
	return { pattern: form.one("pattern").trim(), script: form.one("script").trim() };
}

const pagePath = (c: Ctx, rest = "") => `/zones/${c.var.zone.id}/workers-routes${rest}`;
const routePath = (c: Ctx) => zonePath(c, `/workers/routes/${encodeURIComponent(c.req.param("route_id") ?? "")}`);

/** The account's Workers, offered at the Worker field; none while `WORKER_SCRIPTS` is not valid (the API says so on Save). */
function workersOf(c: Ctx): string[] {
	try {
		return accountWorkers(c.env);
	} catch (error) {
		if (!(error instanceof ConfigError)) throw error;
		return [];
	}
}

/** The Route and Worker fields of both forms; `workers` the names the Worker field offers. */
const RouteFields: FC<{ values: RouteValues; workers: readonly string[] }> = ({ values, workers }) => (
	<>
		<TextField
			name="pattern"
			label="Route"
			value={values.pattern}
			required
			hint="The zone's name with an optional * before the host and after the path: shop.example.com/*"
		/>
		<TextField
			name="script"
			label="Worker"
			value={values.script}
			suggestions={workers}
			hint="A Worker of the account, one that WORKER_SCRIPTS lists; empty for None (no Worker where the route matches)."
		/>
	</>
);

const RouteRow: FC<{ route: WorkersRoute; csrf: string; base: string }> = ({ route, csrf, base }) => (
	<tr>
		<td>
			<code>{route.pattern}</code>
		</td>
		<td>{route.script ?? "None"}</td>
		<td>
			<div class="row-actions">
				<a href={`${base}/routes/${route.id}`} aria-label={`Edit ${route.pattern}`}>
					Edit
				</a>
				<PostForm
					action={`${base}/routes/${route.id}/delete`}
					csrf={csrf}
					confirm={`Delete the route ${route.pattern}?`}
				>
					<button type="submit" class="danger" aria-label={`Delete ${route.pattern}`}>
						Delete
					</button>
				</PostForm>
			</div>
		</td>
	</tr>
);

/** What the page shows besides the routes: a notice, the Add route form refused, a row's action refused. */
interface PageState {
	notice?: string;
	add?: { values: RouteValues; errors: FormErrors };
	rowErrors?: string[];
}

/** The Workers Routes page: the routes table and the Add route form. */
async function routesPage(c: Ctx, state: PageState = {}, status: ContentfulStatusCode = 200) {
	const routes = await callApi<WorkersRoute[]>(c, c.var.session.credential, "GET", zonePath(c, "/workers/routes"));
	const add = state.add ?? { values: EMPTY, errors: NO_ERRORS };
	return render(
		c,
		<Layout title="Workers Routes" csrf={c.var.csrf} zone={{ ...c.var.zone, page: "workers-routes" }}>
			<h1>Workers Routes</h1>
			<Notice text={state.notice} />
			<section class="card" aria-labelledby="routes-heading">
				<h2 id="routes-heading">HTTP routes</h2>
				<ErrorSummary messages={state.rowErrors ?? []} />
				{!routes.ok ? (
					<ErrorSummary messages={messagesOf(routes.errors)} />
				) : routes.result.length === 0 ? (
					<p>No routes in this zone.</p>
				) : (
					<table>
						<thead>
							<tr>
								<th scope="col">Route</th>
								<th scope="col">Worker</th>
								<th scope="col">Actions</th>
							</tr>
						</thead>
						<tbody>
							{routes.result.map((route) => (
								<RouteRow route={route} csrf={c.var.csrf} base={pagePath(c)} />
							))}
						</tbody>
					</table>
				)}
				<h3 id="add-route-heading">Add route</h3>
				<ErrorSummary messages={add.errors.form} />
				<form method="post" action={pagePath(c, "/routes")} aria-labelledby="add-route-heading">
					<Csrf token={c.var.csrf} />
					<FormScope form="route" errors={add.errors}>
						<RouteFields values={add.values} workers={workersOf(c)} />
					</FormScope>
					<div class="actions">
						<button type="submit">Save</button>
					</div>
				</form>
			</section>
		</Layout>,
		status,
	);
}

/** The Edit route page of the path's route; `state` the form as typed and refused. */
async function editPage(
	c: Ctx,
	state: { values?: RouteValues; errors?: FormErrors } = {},
	status: ContentfulStatusCode = 200,
) {
	const answer = await callApi<WorkersRoute>(c, c.var.session.credential, "GET", routePath(c));
	const errors = state.errors ?? NO_ERRORS;
	return render(
		c,
		<Layout title="Edit route" csrf={c.var.csrf} zone={{ ...c.var.zone, page: "workers-routes" }}>
			<p class="crumbs">
				<a href={pagePath(c)}>Workers Routes</a> › Edit
			</p>
			<h1>Edit route</h1>
			{answer.ok ? (
				<>
					<ErrorSummary messages={errors.form} />
					<form method="post" action={pagePath(c, `/routes/${answer.result.id}`)} aria-label="Edit route">
						<Csrf token={c.var.csrf} />
						<FormScope form="edit-route" errors={errors}>
							<RouteFields
								values={state.values ?? { pattern: answer.result.pattern, script: answer.result.script ?? "" }}
								workers={workersOf(c)}
							/>
						</FormScope>
						<div class="actions">
							<button type="submit">Save</button>
						</div>
					</form>
				</>
			) : (
				<ErrorSummary messages={messagesOf(answer.errors)} />
			)}
		</Layout>,
		answer.ok ? status : statusOf(answer),
	);
}

/** Routes under `/zones/{zone_id}/workers-routes`. */
export const workersRoutes = new Hono<DashEnv>()
	.get("/", (c) => routesPage(c, { notice: DONE[c.req.query("done") ?? ""] }))
	.post("/routes", async (c) => {
		const values = await routeValuesOf(c);
		const answer = await callApi(
			c,
			c.var.session.credential,
			"POST",
			zonePath(c, "/workers/routes"),
			routeBody(values),
		);
		if (!answer.ok) {
			return routesPage(c, { add: { values, errors: sortErrors(answer.errors, routeFieldOf) } }, statusOf(answer));
		}
		return c.redirect(pagePath(c, "?done=added"), 303);
	})
	.get("/routes/:route_id", (c) => editPage(c))
	.post("/routes/:route_id", async (c) => {
		const values = await routeValuesOf(c);
		const answer = await callApi(c, c.var.session.credential, "PUT", routePath(c), routeBody(values));
		if (!answer.ok) return editPage(c, { values, errors: sortErrors(answer.errors, routeFieldOf) }, statusOf(answer));
		return c.redirect(pagePath(c, "?done=saved"), 303);
	})
	.post("/routes/:route_id/delete", async (c) => {
		const answer = await callApi(c, c.var.session.credential, "DELETE", routePath(c));
		if (!answer.ok) return routesPage(c, { rowErrors: messagesOf(answer.errors) }, statusOf(answer));
		return c.redirect(pagePath(c, "?done=deleted"), 303);
	});
