/**
 * `GET /zones/{zone_id}/dns_records/export` and `POST .../dns_records/import`: a zone's DNS records
 * as a BIND zone file, and records added from one (developers.cloudflare.com/dns/manage-dns-records/
 * how-to/import-and-export/; TS SDK `client.dns.records.export` (sends `Accept: text/plain`, reads
 * the text) and `client.dns.records.import` (multipart `file`, `proxied`)).
 *
 * Export answers the file as `text/plain` (`zone/zone-file/write.ts`). Import takes a multipart
 * form: `file` (text or a file, at most 256 KiB, "The zone file size limit is 256 KiB (262144
 * bytes)") and `proxied` (`true` or `false`, default false: whether proxiable records without a
 * `cf-proxied` tag are proxied). A file that cannot be read is refused whole (400, its line named;
 * `$INCLUDE` answers Cloudflare's "$INCLUDE directive not allowed"), nothing added. Otherwise each
 * record is created as `POST /dns_records` would create it, in one transaction; a record refused by
 * the record rules is left out and named in `messages` with its code, in the file's order, as
 * `{"code": 81053, "message": "abc.com: An A, AAAA or CNAME record already exists with that host."}`
 * (the real answer in github.com/cloudflare/python-cloudflare/issues/89), and the result counts
 * `recs_added`, `recs_added_by_type` and `total_records_parsed` (the zone's SOA and apex NS
 * records, Cloudflare's own, are parsed and skipped without a message). A body that is not a
 * multipart form answers the real API's text, "Failed to parse form data. Make sure the
 * Content-Type is multipart/form-data." (github.com/cloudflare/cloudflare-php/issues/226).
 * Codes: 1004 for all of these (Cloudflare's are not public). The import API's rate limit (three a
 * minute) is not applied.
 */
import type { RecordImportResponse } from "cloudflare/resources/dns/records";
import type { Context } from "hono";
import { boundedBody } from "../common/bounded-body";
import { EVERY_RECORD } from "../zone/dns-record-checks";
import { MAX_RECORDS } from "../zone/dns-records";
import { CODES } from "../zone/failure";
import { parseZoneFile } from "../zone/zone-file/parse";
import { importedRecord } from "../zone/zone-file/records";
import { writeZoneFile } from "../zone/zone-file/write";
import { RECORD } from "./dns-record-fields";
import { okWithMessages, type ResponseInfo } from "./envelope";
import { ApiError, bodyTooLarge, unwrap } from "./errors";
import type { ApiEnv } from "./types";

const CODE = CODES.dnsRecordInvalid;

/** Cloudflare's limit on an imported file, in bytes (the import and export page). */
const MAX_ZONE_FILE_BYTES = 262_144;

/** The form around the file: its boundaries and the `proxied` field, far below this. */
const MAX_FORM_OVERHEAD_BYTES = 16_384;

const refused = (message: string, pointer: string) => new ApiError(400, [{ code: CODE, message, source: { pointer } }]);

/** `GET .../dns_records/export`: every record of the zone, as a zone file. */
export async function exportZoneFile(c: Context<ApiEnv>): Promise<Response> {
	const page = unwrap(await c.var.zoneState.listDnsRecords(EVERY_RECORD, 1, MAX_RECORDS));
	const text = writeZoneFile({ name: c.var.zone.name, nameServers: c.var.zone.name_servers }, page.items, Date.now());
	return new Response(text, { headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

/** `POST .../dns_records/import`: the records of the form's zone file, added. */
export async function importZoneFile(c: Context<ApiEnv>): Promise<Response> {
	const { file, proxied } = await readForm(c.req.raw);
	const zone = c.var.zone.name;
	const parsed = parseZoneFile(file, zone, MAX_RECORDS);
	if (!parsed.ok) throw refused(`line ${parsed.line}: ${parsed.message}`, "/file");
	// The records left out, by the line they are on, whichever check refused them.
	const messages: (ResponseInfo & { line: number })[] = [];
	const inputs = [];
	const lines: number[] = [];
	for (const record of parsed.records) {
		const imported = importedRecord(record, zone, proxied);
		if (imported.kind === "skipped") continue;
		const leftOut = (code: number, why: string) =>
			messages.push({ line: record.line, code, message: `${record.name}: ${why}` });
		if (imported.kind === "refused") {
			leftOut(CODE, imported.message);
			continue;
		}
		const body = RECORD.safeParse(imported.body);
		if (!body.success) {
			const issue = body.error.issues[0];
			leftOut(CODE, `${issue?.path.join("/") ?? "record"}: ${issue?.message ?? "invalid"}`);
			continue;
		}
		inputs.push(body.data);
		lines.push(record.line);
	}
	const outcome = unwrap(await c.var.zoneState.importDnsRecords(inputs, zone));
	for (const r of outcome.refused) messages.push({ line: lines[r.index] ?? 0, code: r.code, message: r.message });
	const byType: Record<string, number> = {};
	for (const r of outcome.added) byType[r.type] = (byType[r.type] ?? 0) + 1;
	const result = {
		recs_added: outcome.added.length,
		recs_added_by_type: byType,
		total_records_parsed: parsed.records.length,
	} satisfies RecordImportResponse & { recs_added_by_type: Record<string, number> }; // the SDK omits the real answer's counts by type
	messages.sort((a, b) => a.line - b.line);
	return okWithMessages(
		result,
		messages.map(({ code, message }) => ({ code, message })),
	);
}

/** The form's `file` and `proxied`; each bound checked before the form is parsed or the file read. */
async function readForm(request: Request): Promise<{ file: string; proxied: boolean }> {
	const type = request.headers.get("Content-Type") ?? "";
	if (!/^multipart\/form-data\s*;/i.test(type)) {
		throw refused("Failed to parse form data. Make sure the Content-Type is multipart/form-data.", "/");
	}
	const limit = MAX_ZONE_FILE_BYTES + MAX_FORM_OVERHEAD_BYTES;
	const bytes = await boundedBody(request, limit);
	if (bytes === undefined) throw bodyTooLarge(CODE, limit);
	let form: FormData;
	try {
		form = await new Response(bytes, { headers: { "Content-Type": type } }).formData();
	} catch {
		throw refused("Failed to parse form data. Make sure the Content-Type is multipart/form-data.", "/");
	}
	const file = form.get("file");
	if (file === null) throw refused("file is required: the zone file to import", "/file");
	const text = typeof file === "string" ? file : await file.text();
	if (new TextEncoder().encode(text).byteLength > MAX_ZONE_FILE_BYTES) {
		throw refused(`The zone file size limit is 256 KiB (${MAX_ZONE_FILE_BYTES} bytes).`, "/file");
	}
	const proxied = form.get("proxied") ?? "false";
	if (proxied !== "true" && proxied !== "false") throw refused('proxied is "true" or "false"', "/proxied");
	return { file: text, proxied: proxied === "true" };
}
