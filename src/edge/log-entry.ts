/**
 * The edge's log tap (`openLogTap`) and the `http_requests` entry it builds for one edge request
 * (docs `logs/logpush/logpush-job/datasets/zone/http_requests`,
 * https://developers.cloudflare.com/logs/logpush/logpush-job/datasets/zone/http_requests/). The
 * pipeline opens the tap after the firewall; the tap sees the request on its way to the gateway,
 * then the answer, and hands the entry to the zone's pending log (`log-buffer.ts`) once the
 * answer's body is sent, without delaying the response. A zone whose entries nothing reads gets a
 * tap that passes everything on as it is. One byte counter (`countBytes`, a pass-through
 * TransformStream, nothing buffered) serves both bodies.
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
 *   one (chunked) counted as the gateway reads it;
 * - EdgeResponseStatus, EdgeResponseContentType; EdgeResponseBodyBytes: Content-Length when the
 *   gateway set it (0 for HEAD, 204 and 304), else counted as the body streams; EdgeResponseBytes: that plus the status line and the
 *   headers sent (CF-Ray included) in HTTP/1.1 form;
 * - CacheCacheStatus `dynamic`: edgezone has no cache, so no request is eligible for it (the
 *   docs: "dynamic means that a request is not eligible for cache ... for example that it was
 *   blocked by the firewall"); OriginResponseStatus: the origin's status when the request went to
 *   a proxied record's origin (0 when it gave none: refused, timed out, unresolved), else the
 *   gateway's status, 0 when the firewall answered ("0 means that there was no response received
 *   from the origin server"); for an origin also OriginIP (its address when it is an IP),
 *   OriginResponseDurationMs (to its response headers), OriginResponseHTTPExpires and
 *   OriginResponseHTTPLastModified (its `expires` / `last-modified`, `origin/proxy.ts`);
 * - SecurityAction / SecurityRuleID: the firewall rule that ended the request, else absent;
 *   SecurityActions / SecurityRuleIDs / SecuritySources and the older FirewallMatchesActions /
 *   FirewallMatchesRuleIDs / FirewallMatchesSources: every rule that matched, in order;
 * - ZoneName; RequestHeaders / ResponseHeaders / Cookies / ResponseFields
 *   (`logs/custom-field-objects.ts`), read from one pass over each head (`log-heads.ts`).
 * Every other field is absent and formatted with its documented absent value (`logs/absent.ts`).
 */

import { andThen, type MaybePromise } from "../common/maybe-promise";
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
import type { Verdict } from "./firewall";
import { geoOfCf } from "./geo";
import { bufferEntry, holdMs } from "./log-buffer";
import { type Head, headBytes, headerLineBytes, scanHead } from "./log-heads";
import type { OriginFacts } from "./origin/proxy";
import type { RequestContext } from "./request-fields";
import { derived, zoneView } from "./zone-view";

/** Request headers every entry reads (ClientIP, the User-Agent and Referer fields, Cookies); the body's size is counted apart. */
const REQUEST_HEADERS = ["cf-connecting-ip", "user-agent", "referer", "cookie"];
/** Response headers every entry reads (EdgeResponseContentType, the body's size). */
const RESPONSE_HEADERS = ["content-type", "content-length"];

/** What the logs need of a zone's configuration, derived once per version. */
interface LogSettings {
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
	/** The request headers `transformed_request_fields` read, after the request header rules. */
	transformedHeaders: ReadonlySet<string>;
	/** The response headers an entry reads: RESPONSE_HEADERS and the custom fields'. */
	responseHeaders: ReadonlySet<string>;
	/** The response headers logged with every value (`preserve_duplicates`). */
	duplicates: ReadonlySet<string>;
}

/** The log settings of a zone's configuration (`EdgeConfig.logpushJobs` holds the enabled jobs). */
function logSettings(config: EdgeConfig): LogSettings {
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
		transformedHeaders: new Set(names.transformed),
		responseHeaders: new Set([...RESPONSE_HEADERS, ...names.response]),
		duplicates: new Set(names.duplicates),
	};
}

/**
 * The edge's log of one request: it sees the request on its way to the gateway, then the answer,
 * and queues the request's `http_requests` entry once the answer's body is sent.
 */
interface LogTap {
	/**
	 * The request to hand the gateway: `request` itself, or (a body without Content-Length, when
	 * the zone's logs are read) a copy whose body is counted as the gateway reads it.
	 * @param url the request's URL, parsed once by the caller.
	 * @param transformed the request's headers as the request header rules left them, when a rule
	 * changed them (what `transformed_request_fields` log).
	 */
	request(request: Request, url: URL, transformed?: Headers): Request;
	/**
	 * The response to send: `response` itself, or one whose body is counted as it streams. Call it
	 * with the response as the gateway (or the firewall) made it, before the edge adds CF-Ray.
	 * @param verdict the firewall's: the rules that matched, and its answer when it ended the request.
	 * @param cfRay the `CF-Ray` header the edge adds to the answer (EdgeResponseBytes counts it).
	 * @param origin what the origin told, when the request went to one (`origin/proxy.ts`).
	 */
	answer(response: Response, verdict: Verdict, cfRay: string, origin?: OriginFacts): Response;
}

/** The tap of a zone whose logs nothing reads: it passes everything on as it is. */
const NO_TAP: LogTap = {
	request: (request) => request,
	answer: (response) => response,
};

/**
 * The log tap of one request to `zoneId`: a no-op when nothing reads the zone's entries (no
 * enabled `http_requests` job, no Logpull retention). The zone's view was just read by the
 * firewall, so this is a lookup in the isolate's cache.
 * @param context the request's Ray ID, zone name, receipt time and trusted geo, as the firewall read them.
 */
export function openLogTap(
	env: Env,
	ctx: ExecutionContext,
	zoneId: string,
	context: RequestContext,
): MaybePromise<LogTap> {
	return andThen(zoneView(env, zoneId, context.receivedAt), (view) => {
		const settings = derived(view, logSettings);
		return settings.keep ? new EntryTap(env, ctx, zoneId, context, settings) : NO_TAP;
	});
}

/** A pass-through stream over `body` that counts its bytes, nothing buffered; `ended` runs once it is flushed or cancelled. */
function countBytes(
	body: ReadableStream<Uint8Array>,
	ended?: () => void,
): { body: ReadableStream<Uint8Array>; bytes: () => number } {
	let bytes = 0;
	const counter = new TransformStream<Uint8Array, Uint8Array>({
		transform(chunk, controller) {
			bytes += chunk.byteLength;
			controller.enqueue(chunk);
		},
		flush: ended,
		cancel: ended,
	});
	return { body: body.pipeThrough(counter), bytes: () => bytes };
}

/**
 * The tap of a zone whose entries something reads: counts both bodies and builds the entry. One
 * per request; what it learns of the request and the answer is kept on it until the entry is built.
 */
class EntryTap implements LogTap {
	readonly #env: Env;
	readonly #ctx: ExecutionContext;
	readonly #zoneId: string;
	readonly #context: RequestContext;
	readonly #settings: LogSettings;
	#request: Request | undefined;
	#url: URL | undefined;
	#transformed: Headers | undefined;
	/** The request body's Content-Length (0 without a body): ClientRequestBytes' body part, unless counted. */
	#requestBodyLength = 0;
	/** The bytes the gateway read of a body without Content-Length, read once the answer's body is sent. */
	#requestBodyCounted: (() => number) | undefined;

	constructor(env: Env, ctx: ExecutionContext, zoneId: string, context: RequestContext, settings: LogSettings) {
		this.#env = env;
		this.#ctx = ctx;
		this.#zoneId = zoneId;
		this.#context = context;
		this.#settings = settings;
	}

	request(request: Request, url: URL, transformed?: Headers): Request {
		this.#request = request;
		this.#url = url;
		this.#transformed = transformed;
		const body = request.body;
		const length = body === null ? "0" : request.headers.get("content-length");
		if (body === null || length !== null) {
			this.#requestBodyLength = Number(length);
			return request;
		}
		const counted = countBytes(body);
		this.#requestBodyCounted = counted.bytes;
		return new Request(request, { body: counted.body });
	}

	answer(response: Response, verdict: Verdict, cfRay: string, origin?: OriginFacts): Response {
		const request = this.#request;
		const url = this.#url;
		if (request === undefined || url === undefined) throw new Error("LogTap.answer called before LogTap.request");
		const respondedAt = Date.now();
		const env = this.#env;
		const ctx = this.#ctx;
		const zoneId = this.#zoneId;
		const settings = this.#settings;
		// Both heads are read once each (`log-heads.ts`), before the edge adds anything to the response.
		const answer: Answer = {
			response,
			verdict,
			cfRay,
			origin,
			respondedAt,
			requestHead: scanHead(request.headers, settings.requestHeaders),
			transformedHead:
				settings.transformedHeaders.size > 0
					? scanHead(this.#transformed ?? request.headers, settings.transformedHeaders)
					: undefined,
			responseHead: scanHead(response.headers, settings.responseHeaders, settings.duplicates),
		};
		const hold = holdMs(settings.jobs.map((job) => intervalMs(job, env)));
		const bodyBytes = knownBodyBytes(request.method, response.status, answer.responseHead);
		if (bodyBytes !== undefined || response.body === null) {
			bufferEntry(env, ctx, zoneId, this.#entry(request, url, answer, respondedAt, bodyBytes ?? 0), hold);
			return response;
		}
		let ended: () => void = () => {};
		const sent = new Promise<void>((resolve) => {
			ended = resolve;
		});
		const counted = countBytes(response.body, () => ended());
		ctx.waitUntil(
			sent.then(() =>
				bufferEntry(env, ctx, zoneId, this.#entry(request, url, answer, Date.now(), counted.bytes()), hold),
			),
		);
		// The gateway's answers all carry encodeBody "manual" (stored bytes as they are); the
		// firewall's pages the runtime's default.
		return new Response(counted.body, {
			status: response.status,
			statusText: response.statusText,
			headers: response.headers,
			encodeBody: verdict.answer !== undefined ? "automatic" : "manual",
		});
	}

	/**
	 * The request's entry (the fields listed at the top of this module).
	 * @param endedAt when the answer's body was sent, ms since the epoch (EdgeEndTimestamp).
	 * @param responseBodyBytes the answer's body as sent (EdgeResponseBodyBytes).
	 */
	#entry(request: Request, url: URL, answer: Answer, endedAt: number, responseBodyBytes: number): LogEntry {
		const { response, verdict } = answer;
		const { matches } = verdict;
		const context = this.#context;
		const sent = answer.requestHead.values;
		const made = answer.responseHead.values;
		const cf = (request.cf ?? {}) as { httpProtocol?: unknown; colo?: unknown };
		const uri = url.pathname + url.search;
		const protocol = typeof cf.httpProtocol === "string" ? cf.httpProtocol : "";
		const requestBytes =
			headBytes(`${request.method} ${uri} ${protocol || "HTTP/1.1"}`, answer.requestHead) +
			(this.#requestBodyCounted?.() ?? this.#requestBodyLength);
		const responseBytes =
			headBytes(`HTTP/1.1 ${response.status} ${response.statusText}`, answer.responseHead) +
			headerLineBytes("cf-ray", answer.cfRay) +
			responseBodyBytes;
		const answeredByFirewall = verdict.answer !== undefined;
		const terminal = answeredByFirewall ? matches.at(-1) : undefined;
		// The Security* and older FirewallMatches* fields hold the same lists.
		const actions = matches.map((m) => m.action);
		const ruleIds = matches.map((m) => m.ruleId);
		const sources = matches.map((m) => m.source);
		const entry: Record<string, LogEntry[string]> = {
			RayID: context.rayId,
			EdgeStartTimestamp: context.receivedAt,
			EdgeEndTimestamp: endedAt,
			EdgeTimeToFirstByteMs: Math.max(0, answer.respondedAt - context.receivedAt),
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
			EdgeResponseBodyBytes: responseBodyBytes,
			EdgeResponseContentType: made.get("content-type") ?? "",
			CacheCacheStatus: "dynamic",
			OriginResponseStatus: answer.origin?.status ?? (answeredByFirewall ? 0 : response.status),
			ZoneName: context.zoneName,
			SecurityAction: terminal?.action ?? "",
			SecurityRuleID: terminal?.ruleId ?? "",
			SecurityActions: actions,
			SecurityRuleIDs: ruleIds,
			SecuritySources: sources,
			FirewallMatchesActions: actions,
			FirewallMatchesRuleIDs: ruleIds,
			FirewallMatchesSources: sources,
		};
		// Where the request came from, as the firewall's geo fields saw it (`geo.ts`).
		const geo = context.geo ?? geoOfCf(request.cf);
		if (geo.country !== undefined) entry.ClientCountry = geo.country.toLowerCase();
		if (geo.asn !== undefined) entry.ClientASN = geo.asn;
		if (geo.city !== undefined) entry.ClientCity = geo.city;
		if (geo.regionCode !== undefined) entry.ClientRegionCode = geo.regionCode;
		if (geo.latitude !== undefined) entry.ClientLatitude = geo.latitude;
		if (geo.longitude !== undefined) entry.ClientLongitude = geo.longitude;
		if (typeof cf.colo === "string") entry.EdgeColoCode = cf.colo;
		if (answer.origin !== undefined) {
			entry.OriginIP = answer.origin.ip;
			entry.OriginResponseDurationMs = answer.origin.durationMs;
			entry.OriginResponseHTTPExpires = answer.origin.expires;
			entry.OriginResponseHTTPLastModified = answer.origin.lastModified;
		}
		const { names } = this.#settings;
		if (hasCustomFields(names)) {
			const picked = {
				request: [
					...pickHeaders(sent, names.request),
					...(answer.transformedHead === undefined
						? []
						: pickHeaders(answer.transformedHead.values, names.transformed)),
				],
				cookies: pickCookies(sent.get("cookie") ?? null, names.cookies),
				response: pickHeaders(made, names.response),
				every: names.duplicates.length > 0 ? pickEvery(answer.responseHead.every, names.duplicates) : undefined,
			};
			Object.assign(entry, limitCustomFields(picked));
		}
		return entry;
	}
}

/** What the tap knows of the answer when it is handed over, the heads read before CF-Ray is added. */
interface Answer {
	response: Response;
	verdict: Verdict;
	/** The `CF-Ray` header the answer carries (not in `responseHead`). */
	cfRay: string;
	/** What the origin told, when the request went to one. */
	origin: OriginFacts | undefined;
	/** When the answer was handed over, ms since the epoch (EdgeTimeToFirstByteMs). */
	respondedAt: number;
	requestHead: Head;
	/** The request's head as the request header rules left it, read for `transformed_request_fields` only. */
	transformedHead: Head | undefined;
	/** The response as the gateway (or the firewall) made it. */
	responseHead: Head;
}

/** Body bytes known without reading the body: none for HEAD, 204 and 304, else Content-Length. */
function knownBodyBytes(method: string, status: number, head: Head): number | undefined {
	if (method === "HEAD" || status === 204 || status === 304) return 0;
	const length = head.values.get("content-length");
	return length === undefined ? undefined : Number(length);
}
