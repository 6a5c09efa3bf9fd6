/**
 * The zone picker (`/`): the zones the signed-in credential reaches, as the API's
 * `GET /zones` lists them for it (a scoped credential sees only its zones), a page at a time;
 * and "Sign out everywhere", which ends every session of the credential (`session.ts`).
 */
import type { Zone } from "cloudflare/resources/zones/zones";
import { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { PageInfo } from "../../api/envelope";
import { callApi, messagesOf } from "../api-call";
import { ErrorSummary, PostForm } from "../components/form";
import { Layout } from "../layout";
import { render } from "../render";
import type { DashEnv } from "../types";

const PER_PAGE = 20;

/** Routes `/`: the zone picker. */
export const zones = new Hono<DashEnv>().get("/", async (c) => {
	const requested = Number.parseInt(c.req.query("page") ?? "1", 10);
	const page = Number.isSafeInteger(requested) && requested > 0 ? requested : 1;
	const answer = await callApi<Zone[]>(c, c.var.session.credential, "GET", `/zones?page=${page}&per_page=${PER_PAGE}`);
	const info = answer.ok ? (answer.resultInfo as PageInfo | undefined) : undefined;
	return render(
		c,
		<Layout title="Zones" csrf={c.var.csrf}>
			<h1>Zones</h1>
			{!answer.ok && <ErrorSummary messages={messagesOf(answer.errors)} />}
			{answer.ok && answer.result.length === 0 && <p>This credential reaches no zone.</p>}
			{answer.ok && answer.result.length > 0 && (
				<table>
					<caption class="hint">Zones this credential reaches; choose one to configure it.</caption>
					<thead>
						<tr>
							<th scope="col">Zone</th>
							<th scope="col">Status</th>
							<th scope="col">Zone ID</th>
						</tr>
					</thead>
					<tbody>
						{answer.result.map((zone) => (
							<tr>
								<td>
									<a href={`/zones/${zone.id}/logpush`}>{zone.name}</a>
								</td>
								<td>{zone.status}</td>
								<td>
									<code>{zone.id}</code>
								</td>
							</tr>
						))}
					</tbody>
				</table>
			)}
			{info !== undefined && info.total_pages > 1 && (
				<nav aria-label="Pages of zones" class="actions">
					{page > 1 && <a href={`/?page=${page - 1}`}>Previous page</a>}
					<span>
						Page {page} of {info.total_pages}
					</span>
					{page < info.total_pages && <a href={`/?page=${page + 1}`}>Next page</a>}
				</nav>
			)}
			<section class="card" aria-labelledby="sessions-heading">
				<h2 id="sessions-heading">Sessions</h2>
				<p>
					Signed in somewhere else with this credential, or left a browser signed in? Sign out everywhere ends every
					session of this credential, this one included.
				</p>
				<PostForm action="/sign-out/everywhere" csrf={c.var.csrf}>
					<div class="actions">
						<button type="submit" class="secondary">
							Sign out everywhere
						</button>
					</div>
				</PostForm>
			</section>
		</Layout>,
		answer.ok ? 200 : (answer.status as ContentfulStatusCode),
	);
});
