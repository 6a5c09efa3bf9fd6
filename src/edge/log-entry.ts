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
 *   as the docs' filter example `"value":"ca"` shows) and ClientASN from `request.cf`;
 *   EdgeColoCode from `request.cf.colo`;
 * - ClientRequest*: the request as received: host, method, URI (path and query), path,
 *   protocol (`request.cf.httpProtocol`), scheme, User-Agent, Referer; ClientRequestBytes: the
 *   request line and headers in HTTP/1.1 form plus Content-Length (a chunked body is not counted);
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
 * - ZoneName; RequestHeaders / ResponseHeaders / Cookies (`logs/custom-fields.ts`).
 * Every other field is absent and formatted with its documented absent value (`logs/absent.ts`).
 */
import {
	type CustomFieldNames,
	customFieldNames,
	hasCustomFields,
	limitCustomFields,
	type Picked,
	pickCookies,
	pickHeaders,
} from "../logs/custom-fields";
import { CUSTOM_FIELD_OUTPUTS, type LogEntry } from "../logs/entry";
import type { EdgeConfig } from "../zone/edge-config";
import type { FirewallMatch } from "./firewall";
import { bufferEntry } from "./log-buffer";
import { derived, zoneView } from "./zone-view";

/** What the logs need of a zone's configuration, derived once per version. */
export interface LogSettings {
	/** Whether anything reads the zone's entries: an enabled `http_requests` job, or Logpull retention. */
	keep: boolean;
	/**
	 * The custom fields to pick, empty unless an enabled job lists one of the custom-field outputs
	 * or Logpull retention is on (Logpull's `fields` may name any of them).
	 */
	names: CustomFieldNames;
}

/** The log settings of a zone's configuration (`EdgeConfig.logpushJobs` holds the enabled jobs). */
export function logSettings(config: EdgeConfig): LogSettings {
	const jobs = config.logpushJobs.filter((job) => job.enabled && job.dataset === "http_requests");
	const wantsCustom =
		config.logpullRetention ||
		jobs.some((job) =>
			job.output_options.field_names.some((name) => (CUSTOM_FIELD_OUTPUTS as readonly string[]).includes(name)),
		);
	return {
		keep: jobs.length > 0 || config.logpullRetention,
		names: wantsCustom ? customFieldNames(config.logCustomFields) : { request: [], response: [], cookies: [] },
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

/** Custom fields picked before the edge adds anything to the response (spec: original headers only). */
export interface PickedFields {
	request: Picked;
	cookies: Picked;
	response: Picked;
}

/** Picks the configured headers and cookies of the request and of the gateway's (or firewall's) response. */
export function pickFields(names: CustomFieldNames, request: Request, response: Response): PickedFields | undefined {
	if (!hasCustomFields(names)) return undefined;
	return {
		request: pickHeaders(request.headers, names.request),
		cookies: pickCookies(request.headers.get("cookie"), names.cookies),
		response: pickHeaders(response.headers, names.response),
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
	picked: PickedFields | undefined;
}

/**
 * Logs a request once its answer is sent: returns the response to send (the same one, or one
 * whose body is counted as it streams) and queues the entry with `ctx.waitUntil`.
 */
export function logged(env: Env, ctx: ExecutionContext, facts: EdgeFacts, response: Response): Response {
	const respondedAt = Date.now();
	const known = knownBodyBytes(facts.request.method, response);
	if (known !== undefined || response.body === null) {
		const bytes = known ?? 0;
		bufferEntry(env, ctx, facts.zoneId, entryOf(facts, response, respondedAt, respondedAt, bytes));
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
		finished.then(() => bufferEntry(env, ctx, facts.zoneId, entryOf(facts, response, respondedAt, Date.now(), bytes))),
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
function knownBodyBytes(method: string, response: Response): number | undefined {
	if (method === "HEAD" || response.status === 204 || response.status === 304) return 0;
	const length = response.headers.get("content-length");
	return length === null ? undefined : Number(length);
}

/** The size of a head in HTTP/1.1 form: the first line, each `name: value` line, the blank line. */
function headBytes(firstLine: string, headers: Headers): number {
	let bytes = firstLine.length + 4;
	for (const [name, value] of headers) bytes += name.length + value.length + 4;
	return bytes;
}

function entryOf(
	facts: EdgeFacts,
	response: Response,
	respondedAt: number,
	endedAt: number,
	bodyBytes: number,
): LogEntry {
	const { request, url, matches } = facts;
	const headers = request.headers;
	const cf = (request.cf ?? {}) as { httpProtocol?: unknown; country?: unknown; asn?: unknown; colo?: unknown };
	const uri = url.pathname + url.search;
	const protocol = typeof cf.httpProtocol === "string" ? cf.httpProtocol : "";
	const requestBytes =
		headBytes(`${request.method} ${uri} ${protocol || "HTTP/1.1"}`, headers) +
		Number(headers.get("content-length") ?? 0);
	const responseBytes = headBytes(`HTTP/1.1 ${response.status} ${response.statusText}`, response.headers) + bodyBytes;
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
		ClientIP: headers.get("cf-connecting-ip") ?? "",
		ClientRequestHost: url.host,
		ClientRequestMethod: request.method,
		ClientRequestURI: uri,
		ClientRequestPath: url.pathname,
		ClientRequestProtocol: protocol,
		ClientRequestScheme: url.protocol.slice(0, -1),
		ClientRequestUserAgent: headers.get("user-agent") ?? "",
		ClientRequestReferer: headers.get("referer") ?? "",
		ClientRequestBytes: requestBytes,
		EdgeResponseStatus: response.status,
		EdgeResponseBytes: responseBytes,
		EdgeResponseBodyBytes: bodyBytes,
		EdgeResponseContentType: response.headers.get("content-type") ?? "",
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
	if (typeof cf.country === "string") entry.ClientCountry = cf.country.toLowerCase();
	if (typeof cf.asn === "number") entry.ClientASN = cf.asn;
	if (typeof cf.colo === "string") entry.EdgeColoCode = cf.colo;
	if (facts.picked !== undefined) Object.assign(entry, limitCustomFields(facts.picked));
	return entry;
}
