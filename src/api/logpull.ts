/**
 * `/zones/{zone_id}/logs`: Cloudflare's Logpull API over the entries the zone retains (docs
 * `logs/logpull/requesting-logs`, `logs/logpull/enabling-log-retention`; SDK `client.logs.received.get`, `client.logs.received.fields.get`, `client.logs.RayID.get`,
 * `client.logs.control.retention.get/create`).
 *
 * Emulates:
 * - `GET /received?start&end[&count][&sample][&fields][&timestamps][&CVE-2021-44228]`: the
 *   retained entries received (logged by the edge) in [start, end), newline-delimited JSON, one record per
 *   line (not the envelope), streamed page by page; `sample` keeps a record when the hash of its
 *   RayID falls under it (log-push's `sample_rate`, `logs/format.ts`), so a repeated call answers
 *   the same records; `count` applies to the records returned after sampling (SDK docs). A
 *   window the zone retained nothing for, retention off included, answers 200 with an empty
 *   body (a zone without retention "Retrieved 0 logs", cloudflare/logshare#15).
 * - `GET /received/fields`: the dataset's fields, name -> description, as a bare JSON object
 *   (the SDK does not unwrap a `result` here).
 * - `GET /rayids/{ray_id}[?fields][&timestamps]`: the retained records of that Ray ID in the
 *   retention window ("zero, one, or more records"), ndjson.
 * - `GET|POST /control/retention/flag`: `{"flag": bool}` in the envelope; POST requires `flag`.
 * Records are written by `logs/format.ts` (the fields, timestamps and redaction of log-push's
 * ndjson). Errors are 400s in the envelope, code 1002 (the Logs APIs' validation code of
 * terraform-provider-cloudflare#1019: Logpull's own code is not documented) with the messages of `logs/logpull.ts`.
 * Windows follow real time, not the zone's emulator clock: entries carry real times.
 * Gaps: the response's Content-Type is edgezone's (`application/x-ndjson`, so the SDK hands
 * back the text); records are in the order received (Cloudflare: "not sorted").
 */
import type { RetentionCreateResponse, RetentionGetResponse } from "cloudflare/resources/logs/control/retention";
import type { FieldGetResponse } from "cloudflare/resources/logs/received/fields";
import { Hono } from "hono";
import { z } from "zod";
import { flushZone } from "../edge/log-buffer";
import { HTTP_REQUESTS_FIELDS } from "../logs/datasets/http-requests";
import type { LogEntry } from "../logs/entry";
import { formatRecord, formatter, frameBatch } from "../logs/format";
import { checkArgs, type LogpullQuery, parseOutput, parseReceived, RAYIDS_ARGS } from "../logs/logpull";
import { retentionMs } from "../zone/retention";
import type { Zone } from "../zone/zone";
import { ok } from "./envelope";
import { ApiError, unwrap } from "./errors";
import { reads, writes } from "./permissions";
import type { ApiEnv } from "./types";
import { parseBody } from "./validate";

/** Envelope code of a refused Logpull query (see the file header). */
const LOGPULL_INVALID = 1002;
/** Entries read per RPC while a response streams. */
const PAGE = 1000;
const KNOWN_FIELDS: ReadonlySet<string> = new Set(Object.keys(HTTP_REQUESTS_FIELDS));
const FLAG = z.strictObject({ flag: z.boolean() });

const badQuery = (message: string) => new ApiError(400, [{ code: LOGPULL_INVALID, message }]);

/** Unwraps a parse outcome, or throws its 400. */
function orRefuse<T>(parsed: { ok: true; value: T } | { ok: false; message: string }): T {
	if (!parsed.ok) throw badQuery(parsed.message);
	return parsed.value;
}

/** The ms `end` must be before now: LOGPULL_MIN_END_AGE_SECONDS (Cloudflare: 60), 0 when unset. */
function minEndAgeMs(env: Env): number {
	const seconds = Number(env.LOGPULL_MIN_END_AGE_SECONDS);
	return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 0;
}

/**
 * The records of `query` as a streamed ndjson body, read from the zone PAGE entries at a time.
 * @param rayId only this Ray ID's entries, when given.
 */
function records(zone: DurableObjectStub<Zone>, query: LogpullQuery, rayId?: string): Response {
	const f = formatter(query.output);
	const encoder = new TextEncoder();
	let seq = 0;
	let left = query.count ?? Number.POSITIVE_INFINITY;
	const body = new ReadableStream<Uint8Array>({
		async pull(controller) {
			const page = unwrap(
				await zone.logpullPage({ from: query.from, to: query.to, rayId, sample: query.sample }, seq, PAGE),
			);
			const lines = page.entries.slice(0, left).map((entry) => formatRecord(JSON.parse(entry) as LogEntry, f));
			left -= lines.length;
			if (lines.length > 0) controller.enqueue(encoder.encode(frameBatch(lines, query.output)));
			if (page.next === null || left <= 0) controller.close();
			else seq = page.next;
		},
	});
	return new Response(body, { status: 200, headers: { "Content-Type": "application/x-ndjson; charset=utf-8" } });
}

/**
 * Routes under `/zones/{zone_id}/logs`. The reads first hand the zone what this isolate's edge still
 * holds for it (`log-buffer.ts` batches entries for up to a second), so a request just made is
 * there: under `wrangler dev`, one isolate, nothing is missed.
 */
export const logpull = new Hono<ApiEnv>()
	// "Logs Read" or "Logs Write" reads, as the API reference's "Accepted Permissions" say; the
	// retention flag's POST needs Logs Write.
	.get("/received", reads("Logs"), async (c) => {
		await flushZone(c.env, c.var.zone.id);
		const query = orRefuse(
			parseReceived(c.req.query(), KNOWN_FIELDS, Date.now(), {
				retentionMs: retentionMs(c.env),
				minEndAgeMs: minEndAgeMs(c.env),
			}),
		);
		return records(c.var.zoneState, query);
	})
	.get("/received/fields", reads("Logs"), (c) => c.json(HTTP_REQUESTS_FIELDS satisfies FieldGetResponse))
	.get("/rayids/:ray_id", reads("Logs"), async (c) => {
		await flushZone(c.env, c.var.zone.id);
		const args = c.req.query();
		orRefuse(checkArgs(args, RAYIDS_ARGS));
		const rayId = c.req.param("ray_id");
		// A CF-Ray header value carries "-<colo>": the docs say to remove it; refused here with a hint.
		if (!/^[0-9a-f]{16}$/.test(rayId))
			throw badQuery(`bad query: "${rayId}" is not a Ray ID (16 lower-case hex digits, without the "-<colo>" suffix)`);
		const output = orRefuse(parseOutput(args, KNOWN_FIELDS));
		const now = Date.now();
		return records(
			c.var.zoneState,
			{ from: now - retentionMs(c.env), to: now + 1, count: undefined, sample: 1, output },
			rayId,
		);
	})
	.get("/control/retention/flag", reads("Logs"), async (c) =>
		ok(unwrap(await c.var.zoneState.logpullRetention()) satisfies RetentionGetResponse),
	)
	.post("/control/retention/flag", writes("Logs"), async (c) => {
		const { flag } = await parseBody(c, FLAG, LOGPULL_INVALID);
		return ok(unwrap(await c.var.zoneState.setLogpullRetention(flag)) satisfies RetentionCreateResponse);
	});
