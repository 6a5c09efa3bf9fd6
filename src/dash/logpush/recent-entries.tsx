/**
 * The Logpush page's Recent entries: the zone's last requests with the custom fields they carried,
 * read through Logpull (`recent-log.ts`) while the zone's log retention is on.
 */
import type { FC } from "hono/jsx";
import { ErrorSummary, PostForm } from "../components/form";
import { Listing } from "../components/listing";
import type { RecentLog } from "../recent-log";

/** What Recent entries shows of each request: who, what, the answer, and the custom fields. */
export const RECENT_FIELDS = [
	"EdgeStartTimestamp",
	"ClientRequestMethod",
	"ClientRequestPath",
	"EdgeResponseStatus",
	"RayID",
	"RequestHeaders",
	"ResponseHeaders",
	"Cookies",
] as const;
/** Entries Recent entries shows, newest first. */
const RECENT_SHOWN = 20;

/** A custom-field object of an entry (`RequestHeaders`, ...) as `name: value` lines; "" when empty. */
function customFieldText(value: unknown): string {
	if (typeof value !== "object" || value === null) return "";
	return Object.entries(value)
		.map(([name, v]) => `${name}: ${String(v)}`)
		.join("\n");
}

/**
 * The zone's last requests, newest first, with the custom fields they carried, read through
 * Logpull (`recent-log.ts`); with log retention off, why there are none and a button to turn it on.
 */
export const RecentEntries: FC<{ log: RecentLog; csrf: string; retentionAction: string }> = ({
	log,
	csrf,
	retentionAction,
}) => (
	<section class="card" aria-labelledby="recent-heading">
		<h2 id="recent-heading">Recent entries</h2>
		{"errors" in log && <ErrorSummary messages={log.errors} />}
		{"retention" in log && !log.retention && (
			<>
				<p>
					Log retention is off: this zone keeps its requests only until a job delivers them. Turn it on to see the last
					hour's entries here (Logpull retention).
				</p>
				<PostForm action={retentionAction} csrf={csrf}>
					<button type="submit">Turn on log retention</button>
				</PostForm>
			</>
		)}
		{"records" in log && log.records.length === 0 && <p>No request in the last hour.</p>}
		{"records" in log && log.records.length > 0 && (
			<Listing
				caption={`The newest ${Math.min(RECENT_SHOWN, log.records.length)} of the last hour, newest first`}
				columns={["Time", "Request", "Status", "Ray ID", "Request headers", "Response headers", "Cookies"]}
			>
				{log.records
					.slice(-RECENT_SHOWN)
					.reverse()
					.map((r) => (
						<tr>
							<td>{String(r.EdgeStartTimestamp ?? "")}</td>
							<td>
								{String(r.ClientRequestMethod ?? "")} <code>{String(r.ClientRequestPath ?? "")}</code>
							</td>
							<td>{String(r.EdgeResponseStatus ?? "")}</td>
							<td>
								<code>{String(r.RayID ?? "")}</code>
							</td>
							<td class="pre">{customFieldText(r.RequestHeaders)}</td>
							<td class="pre">{customFieldText(r.ResponseHeaders)}</td>
							<td class="pre">{customFieldText(r.Cookies)}</td>
						</tr>
					))}
			</Listing>
		)}
	</section>
);
