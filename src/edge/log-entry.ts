/**
 * The `http_requests` entry of one edge request (issue 9; cloudflare-api-v4.md §4.6; docs
 * `logs/logpush/logpush-job/datasets/zone/http_requests`), built after the response is known
 * and handed to the zone's pending log (`log-buffer.ts`) without delaying the response.
 *
 * Values, and where they come from:
 * - RayID: the Ray ID of `CF-Ray` (without the data-center suffix, as Logpush writes it);
 * - EdgeStartTimestamp: when the edge received the request; EdgeEndTimestamp: when the body was
 *   sent (end of the stream when it is counted, else when the answer was handed over);
 *   EdgeTimeToFirstByteMs: from receipt to the answer's headers (workerd's clock moves only across
 *   I/O, so short requests log 0);
 * - ClientIP: `CF-Connecting-IP` (what the firewall's `ip.src` reads); ClientCountry (lower case,
 *   as the docs' filter example `"value":"ca"` shows), ClientASN, ClientCity, ClientRegionCode,
 *   ClientLatitude, ClientLongitude from the location the firewall's `ip.src.*` fields read
 *   (`geo.ts`: `request.cf`, or the emulator's trusted geo headers); EdgeColoCode from
 *   `request.cf.colo`;
 * - ClientRequest*: the request as received: host, method, URI (path and query), path,
 *   protocol (`request.cf.httpProtocol`), scheme, User-Agent, Referer; ClientRequestBytes: the
 *   request line and headers in HTTP/1.1 form plus the body: Content-Length, or a body without
 *   one (chunked) counted as the gateway reads it (`countBody`, nothing buffered);
 * - EdgeResponseStatus, EdgeResponseContentType; EdgeResponseBodyBytes: Content-Length when the
 *   gateway set it (0 for HEAD, 204 and 304), else counted as the body streams (a pass-through
 *   TransformStream, nothing buffered); EdgeResponseBytes: that plus the status line and the
 *   headers sent (CF-Ray included) in HTTP/1.1 form;
 * - CacheCacheStatus `dynamic`: edgezone has no cache, so no request is eligible for it (the
 *   docs: "dynamic means that a request is not eligible for cache ... for example that it was
 *   blocked by the firewall"); OriginResponseStatus: the gateway's status, 0 when the firewall
 *   answered ("0 means that there was no response received from the origin server");
 * - SecurityAction / SecurityRuleID: the firewall rule that ended the request, else absent;
 *   SecurityActions / SecurityRuleIDs / SecuritySources and the older FirewallMatchesActions /
 *   FirewallMatchesRuleIDs / FirewallMatchesSources: every rule that matched, in order;
 * - ZoneName; RequestHeaders / ResponseHeaders / Cookies / ResponseFields (`logs/custom-field-objects.ts`), read
 *   from one pass over each head (`log-heads.ts`).
 * Every other field is absent and formatted with its documented absent value (`logs/absent.ts`).
 */
import {
	type CustomFieldNames,
	customFieldNames,
	hasCustomFields,
	limitCustomFields,
	NO_CUSTOM_FIELDS,
	pickCookies,
	pickEvery,
	pickHeaders,
} from "../logs/custom-field-objects";
import { CUSTOM_FIELD_OUTPUTS, type LogEntry } from "../logs/entry";
import { intervalMs, readingJobs } from "../logs/job-limits";
import type { EdgeConfig } from "../zone/edge-config";
import type { LogpushJob } from "../zone/logpush";
import type { FirewallMatch } from "./firewall";
import type { Geo } from "./geo";
import { bufferEntry, holdMs } from "./log-buffer";
import { type Head, headBytes, headerLineBytes, scanHead } from "./log-heads";
import { derived, zoneView } from "./zone-view";

/** Request headers every entry reads (ClientIP, the User-Agent and Referer fields, Cookies); the body's size is `countBody`'s. */
const REQUEST_HEADERS = ["cf-connecting-ip", "user-agent", "referer", "cookie"];
/** Response headers every entry reads (EdgeResponseContentType, the body's size). */
const RESPONSE_HEADERS = ["content-type", "content-length"];

/** What the logs need of a zone's configuration, derived once per version. */
export interface LogSettings {
	/** Whether anything reads the zone's entries: an enabled `http_requests` job, or Logpull retention. */
	keep: boolean;
	/** The enabled `http_requests` jobs. */
	jobs: readonly LogpushJob[];
	/**
	 * The custom fields to pick, empty unless an enabled job lists one of the custom-field outputs
	 * or Logpull retention is on (Logpull's `fields` may name any of them).
	 */
	names: CustomFieldNames;
	/** The request headers an entry reads: REQUEST_HEADERS and the custom fields' (lower case). */
	requestHeaders: ReadonlySet<string>;
	/** The response headers an entry reads: RESPONSE_HEADERS and the custom fields'. */
	responseHeaders: ReadonlySet<string>;
	/** The response headers logged with every value (`preserve_duplicates`). */
	duplicates: ReadonlySet<string>;
}

/** The log settings of a zone's configuration (`EdgeConfig.logpushJobs` holds the enabled jobs). */
export function logSettings(config: EdgeConfig): LogSettings {
	const jobs = readingJobs(config.logpushJobs);
	const wantsCustom =
		config.logpullRetention ||
		jobs.some((job) =>
			job.output_options.field_names.some((name) => (CUSTOM_FIELD_OUTPUTS as readonly string[]).includes(name)),
		);
	const names = wantsCustom ? customFieldNames(config.logCustomFields) : NO_CUSTOM_FIELDS;
	return {
		keep: jobs.length > 0 || config.logpullRetention,
		jobs,
		names,
		requestHeaders: new Set([...REQUEST_HEADERS, ...names.request]),
		responseHeaders: new Set([...RESPONSE_HEADERS, ...names.response]),
		duplicates: new Set(names.duplicates),
	};
}

/**
 * The zone's log settings when something reads its entries, else undefined. The view was just
 * read by the firewall, so this is a lookup in the isolate's cache.
 */
export async function logSettingsOf(env: Env, zoneId: string, now: number): Promise<LogSettings | undefined> {
	const settings = derived(await zoneView(env, zoneId, now), logSettings);
	return settings.keep ? settings : undefined;
}

/** The request to hand the gateway, and the size of its body in bytes once read. */
export interface CountedBody {
	request: Request;
	bytes: () => number;
}

/**
 * Counts a request's body for ClientRequestBytes: Content-Length when it has one (or 0 without a
 * body), else (chunked) the bytes the gateway reads, through a pass-through stream: the request
 * to hand the gateway is then a copy whose body is that stream. Nothing is buffered.
 */
export function countBody(request: Request): CountedBody {
	const length = request.body === null ? "0" : request.headers.get("content-length");
	if (length !== null) {
		const bytes = Number(length);
		return { request, bytes: () => bytes };
	}
	let bytes = 0;
	const counter = new TransformStream<Uint8Array, Uint8Array>({
		transform(chunk, controller) {
			bytes += chunk.byteLength;
			controller.enqueue(chunk);
		},
	});
	return { request: new Request(request, { body: request.body?.pipeThrough(counter) ?? null }), bytes: () => bytes };
}

/** The request's head and the response's, as the entry reads them. */
export interface Heads {
	request: Head;
	/** The response as the gateway (or the firewall) made it: before the edge adds CF-Ray (spec: original headers only). */
	response: Head;
}

/** Reads both heads once each (`log-heads.ts`): call it before anything is added to the response. */
export function readHeads(settings: LogSettings, request: Request, response: Response): Heads {
	return {
		request: scanHead(request.headers, settings.requestHeaders),
		response: scanHead(response.headers, settings.responseHeaders, settings.duplicates),
	};
}

/** What the edge knows of one request when its answer is ready. */
export interface EdgeFacts {
	request: Request;
	url: URL;
	rayId: string;
	zoneId: string;
	zoneName: string;
	receivedAt: number;
	matches: readonly FirewallMatch[];
	answeredByFirewall: boolean;
	heads: Heads;
	/** The request body's bytes (`countBody`), read once the answer is known. */
	requestBodyBytes: () => number;
	/** The `CF-Ray` header the answer carries (not in `heads.response`). */
	cfRay: string;
	/** The zone's log settings: the custom fields to log, the jobs that read the entry. */
	settings: LogSettings;
	/** Where the request came from, as the firewall's geo fields saw it. */
	geo: Geo;
}

/**
 * Logs a request once its answer is sent: returns the response to send (the same one, or one
 * whose body is counted as it streams) and queues the entry with `ctx.waitUntil`.
 */
export function logged(env: Env, ctx: ExecutionContext, facts: EdgeFacts, response: Response): Response {
	const respondedAt = Date.now();
	const hold = holdMs(facts.settings.jobs.map((job) => intervalMs(job, env)));
	const known = knownBodyBytes(facts.request.method, response.status, facts.heads.response);
	if (known !== undefined || response.body === null) {
		const bytes = known ?? 0;
		bufferEntry(env, ctx, facts.zoneId, entryOf(facts, response, respondedAt, respondedAt, bytes), hold);
		return response;
	}
	let bytes = 0;
	let done: (ended: boolean) => void = () => {};
	const finished = new Promise<boolean>((resolve) => {
		done = resolve;
	});
	const counter = new TransformStream<Uint8Array, Uint8Array>({
		transform(chunk, controller) {
			bytes += chunk.byteLength;
			controller.enqueue(chunk);
		},
		flush() {
			done(true);
		},
		cancel() {
			done(false);
		},
	});
	ctx.waitUntil(
		finished.then(() =>
			bufferEntry(env, ctx, facts.zoneId, entryOf(facts, response, respondedAt, Date.now(), bytes), hold),
		),
	);
	// The gateway's answers all carry encodeBody "manual" (stored bytes as they are); the
	// firewall's pages the runtime's default.
	return new Response(response.body.pipeThrough(counter), {
		status: response.status,
		statusText: response.statusText,
		headers: response.headers,
		encodeBody: facts.answeredByFirewall ? "automatic" : "manual",
	});
}

/** Body bytes known without reading the body: none for HEAD, 204 and 304, else Content-Length. */
function knownBodyBytes(method: string, status: number, head: Head): number | undefined {
	if (method === "HEAD" || status === 204 || status === 304) return 0;
	const length = head.values.get("content-length");
	return length === undefined ? undefined : Number(length);
}

function entryOf(
	facts: EdgeFacts,
	response: Response,
	respondedAt: number,
	endedAt: number,
	bodyBytes: number,
): LogEntry {
	const { request, url, matches } = facts;
	const sent = facts.heads.request.values;
	const made = facts.heads.response.values;
	const cf = (request.cf ?? {}) as { httpProtocol?: unknown; colo?: unknown };
	const uri = url.pathname + url.search;
	const protocol = typeof cf.httpProtocol === "string" ? cf.httpProtocol : "";
	const requestBytes =
		headBytes(`${request.method} ${uri} ${protocol || "HTTP/1.1"}`, facts.heads.request) + facts.requestBodyBytes();
	const responseBytes =
		headBytes(`HTTP/1.1 ${response.status} ${response.statusText}`, facts.heads.response) +
		headerLineBytes("cf-ray", facts.cfRay) +
		bodyBytes;
	const terminal = facts.answeredByFirewall ? matches.at(-1) : undefined;
	// The Security* and older FirewallMatches* fields hold the same lists.
	const actions = matches.map((m) => m.action);
	const ruleIds = matches.map((m) => m.ruleId);
	const sources = matches.map((m) => m.source);
	const entry: Record<string, LogEntry[string]> = {
		RayID: facts.rayId,
		EdgeStartTimestamp: facts.receivedAt,
		EdgeEndTimestamp: endedAt,
		EdgeTimeToFirstByteMs: Math.max(0, respondedAt - facts.receivedAt),
		ClientIP: sent.get("cf-connecting-ip") ?? "",
		ClientRequestHost: url.host,
		ClientRequestMethod: request.method,
		ClientRequestURI: uri,
		ClientRequestPath: url.pathname,
		ClientRequestProtocol: protocol,
		ClientRequestScheme: url.protocol.slice(0, -1),
		ClientRequestUserAgent: sent.get("user-agent") ?? "",
		ClientRequestReferer: sent.get("referer") ?? "",
		ClientRequestBytes: requestBytes,
		EdgeResponseStatus: response.status,
		EdgeResponseBytes: responseBytes,
		EdgeResponseBodyBytes: bodyBytes,
		EdgeResponseContentType: made.get("content-type") ?? "",
		CacheCacheStatus: "dynamic",
		OriginResponseStatus: facts.answeredByFirewall ? 0 : response.status,
		ZoneName: facts.zoneName,
		SecurityAction: terminal?.action ?? "",
		SecurityRuleID: terminal?.ruleId ?? "",
		SecurityActions: actions,
		SecurityRuleIDs: ruleIds,
		SecuritySources: sources,
		FirewallMatchesActions: actions,
		FirewallMatchesRuleIDs: ruleIds,
		FirewallMatchesSources: sources,
	};
	const { geo } = facts;
	if (geo.country !== undefined) entry.ClientCountry = geo.country.toLowerCase();
	if (geo.asn !== undefined) entry.ClientASN = geo.asn;
	if (geo.city !== undefined) entry.ClientCity = geo.city;
	if (geo.regionCode !== undefined) entry.ClientRegionCode = geo.regionCode;
	if (geo.latitude !== undefined) entry.ClientLatitude = geo.latitude;
	if (geo.longitude !== undefined) entry.ClientLongitude = geo.longitude;
	if (typeof cf.colo === "string") entry.EdgeColoCode = cf.colo;
	const { names } = facts.settings;
	if (hasCustomFields(names)) {
		const picked = {
			request: pickHeaders(sent, names.request),
			cookies: pickCookies(sent.get("cookie") ?? null, names.cookies),
			response: pickHeaders(made, names.response),
			every: names.duplicates.length > 0 ? pickEvery(facts.heads.response.every, names.duplicates) : undefined,
		};
		Object.assign(entry, limitCustomFields(picked));
	}
	return entry;
}
