/**
 * The DNS page's Import and Export card, as Cloudflare's dashboard has it under DNS > Records
 * (https://developers.cloudflare.com/dns/manage-dns-records/how-to/import-and-export/): a zone file
 * to import with "Proxy imported DNS records" (selected, as there), Export to download the zone
 * file, and what an import did: the records added, and each record left out with the API's
 * message.
 */
import type { FC } from "hono/jsx";
import { Checkbox, Csrf, ErrorSummary } from "../components/form";

/** What an import answered: its counts, and the API's messages of the records left out. */
export interface ImportOutcome {
	added: number;
	parsed: number;
	leftOut: string[];
}

/** The card: the import form, the export link, and the last import's outcome. */
export const ZoneFileCard: FC<{
	importAction: string;
	exportHref: string;
	csrf: string;
	outcome?: ImportOutcome | undefined;
	errors: string[];
}> = (props) => (
	<section class="card" aria-labelledby="zone-file-heading">
		<h2 id="zone-file-heading">Import and export</h2>
		<ErrorSummary messages={props.errors} />
		{props.outcome === undefined ? null : (
			<div role="status">
				<p>
					{props.outcome.added} of {props.outcome.parsed} {props.outcome.parsed === 1 ? "record" : "records"} in the
					file added.
				</p>
				{props.outcome.leftOut.length === 0 ? null : (
					<>
						<h3>Not imported</h3>
						<ul>
							{props.outcome.leftOut.map((message) => (
								<li>{message}</li>
							))}
						</ul>
					</>
				)}
			</div>
		)}
		<form method="post" action={props.importAction} enctype="multipart/form-data" aria-label="Import DNS records">
			<Csrf token={props.csrf} />
			<div>
				<label for="zone-file-file">Zone file (BIND format, at most 256 KiB)</label>
				<input type="file" id="zone-file-file" name="file" accept=".txt,.zone,.db,text/plain" required />
			</div>
			<Checkbox form="zone-file" name="proxied" label="Proxy imported DNS records" checked={true} />
			<div class="actions">
				<button type="submit">Import</button>
			</div>
		</form>
		<p>
			<a href={props.exportHref} download>
				Export
			</a>{" "}
			the zone's records as a zone file.
		</p>
	</section>
);
