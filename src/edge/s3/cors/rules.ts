/**
 * A bucket's CORS rules as S3's PutBucketCors sends them and GetBucketCors answers them
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/API_PutBucketCors.html, `CORSRule`:
 * https://docs.aws.amazon.com/AmazonS3/latest/API/API_CORSRule.html), which R2 keeps per bucket
 * (https://developers.cloudflare.com/r2/buckets/cors/), and how a request is matched against them
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/cors.html, "How does Amazon S3 evaluate
 * the CORS configuration on a bucket?": the first rule whose AllowedOrigin matches the Origin,
 * whose AllowedMethod holds the method (a preflight's Access-Control-Request-Method), and, for a
 * preflight, whose AllowedHeader match every header of Access-Control-Request-Headers). No
 * Workers API here: the ledger stores the rules (`store.ts`), `cached-rules.ts` reads them.
 *
 * What is taken, as S3 takes it (https://docs.aws.amazon.com/AmazonS3/latest/userguide/ManageCorsUsing.html):
 * up to 100 rules; each with one or more AllowedOrigin (at most one `*` wildcard each) and
 * AllowedMethod (GET, PUT, POST, DELETE, HEAD), any AllowedHeader (at most one `*` each, matched
 * without regard to case) and ExposeHeader, an ID of at most 255 characters, a MaxAgeSeconds.
 */
import { XMLParser } from "fast-xml-parser";
import type { DocumentLimits } from "../body/xml-body";
import { S3Error } from "../errors";
import { S3_NAMESPACE, type XmlContent } from "../xml";

/** One CORS rule, as stored. */
export interface CorsRule {
	id?: string;
	/** Origins, each `*`-wildcarded at most once (`*` alone: any origin). */
	allowedOrigins: string[];
	/** Of GET, PUT, POST, DELETE, HEAD. */
	allowedMethods: string[];
	/** Request headers a preflight may name, lower case, each `*`-wildcarded at most once. */
	allowedHeaders: string[];
	/** Answer headers a script may read. */
	exposeHeaders: string[];
	/** How long a browser may keep a preflight's answer, in seconds. */
	maxAgeSeconds?: number;
}

/** S3's most rules in one configuration (API_CORSConfiguration.html: "up to 100 rules"). */
const MAX_RULES = 100;

/** S3's longest rule ID (API_CORSRule.html, "ID"). */
const MAX_ID_LENGTH = 255;

/** The methods a rule may allow (API_CORSRule.html, "AllowedMethods"). */
const METHODS = new Set(["GET", "PUT", "POST", "DELETE", "HEAD"]);

/**
 * The largest `<CORSConfiguration>` taken (`../xml-body.ts`): edgezone's bound, as S3 states none
 * in bytes. 100 rules of 640 bytes each (an ID, five methods, a few origins and headers with
 * their markup) is 64,000; 64 KiB. Elements: a rule holds its ID, its MaxAgeSeconds, up to five
 * AllowedMethod, and its origins and headers, which S3 does not count; 40 a rule is room for 32
 * origins and headers in each of 100 rules: 4,001 with the root.
 */
export const CORS_LIMITS: DocumentLimits = { bytes: 64 * 1024, elements: 40 * MAX_RULES + 1 };

const LISTS = ["AllowedOrigin", "AllowedMethod", "AllowedHeader", "ExposeHeader"];

const parser = new XMLParser({
	parseTagValue: false,
	trimValues: true,
	isArray: (name, path) =>
		(path === "CORSConfiguration.CORSRule" && name === "CORSRule") ||
		(LISTS.includes(name) && path === `CORSConfiguration.CORSRule.${name}`),
});

const malformed = (detail?: string) => new S3Error("MalformedXML", detail);

/** The strings of a repeated element; a child element in one is not S3's. */
function texts(value: unknown): string[] {
	if (value === undefined) return [];
	if (!Array.isArray(value) || !value.every((item): item is string => typeof item === "string")) throw malformed();
	return value;
}

const wildcards = (value: string) => value.split("*").length - 1;

/** One `<CORSRule>`. */
function ruleOf(rule: unknown): CorsRule {
	if (typeof rule !== "object" || rule === null || Array.isArray(rule)) throw malformed();
	const element = rule as Record<string, unknown>;
	const allowedOrigins = texts(element.AllowedOrigin);
	const allowedMethods = texts(element.AllowedMethod);
	if (allowedOrigins.length === 0 || allowedMethods.length === 0) {
		throw malformed("Each <CORSRule> needs one or more <AllowedOrigin> and <AllowedMethod>.");
	}
	for (const method of allowedMethods) {
		if (!METHODS.has(method)) {
			throw new S3Error(
				"InvalidRequest",
				`Found unsupported HTTP method in CORS config. Unsupported method is ${method}`,
			);
		}
	}
	for (const origin of allowedOrigins) {
		if (wildcards(origin) > 1) {
			throw new S3Error("InvalidRequest", `AllowedOrigin "${origin}" can not have more than one wildcard.`);
		}
	}
	const allowedHeaders = texts(element.AllowedHeader).map((header) => header.toLowerCase());
	for (const header of allowedHeaders) {
		if (wildcards(header) > 1) {
			throw new S3Error("InvalidRequest", `AllowedHeader "${header}" can not have more than one wildcard.`);
		}
	}
	const parsed: CorsRule = {
		allowedOrigins,
		allowedMethods,
		allowedHeaders,
		exposeHeaders: texts(element.ExposeHeader),
	};
	if (element.ID !== undefined && element.ID !== "") {
		if (typeof element.ID !== "string") throw malformed();
		if (element.ID.length > MAX_ID_LENGTH) {
			throw new S3Error("InvalidArgument", `ID length should not exceed allowed limit of ${MAX_ID_LENGTH}`);
		}
		parsed.id = element.ID;
	}
	if (element.MaxAgeSeconds !== undefined) {
		if (typeof element.MaxAgeSeconds !== "string" || !/^\d{1,9}$/.test(element.MaxAgeSeconds)) throw malformed();
		parsed.maxAgeSeconds = Number(element.MaxAgeSeconds);
	}
	return parsed;
}

/**
 * The rules of a `<CORSConfiguration>` document, checked whole: a refused document stores nothing.
 * @throws S3Error 400 MalformedXML for a document that does not parse, holds no rule or over 100,
 * a rule without an origin or a method, or a MaxAgeSeconds that is not a number; 400 InvalidRequest
 * for a method S3 does not take or an origin or header with two wildcards; 400 InvalidArgument for
 * an ID over 255 characters.
 */
export function parseCors(text: string): CorsRule[] {
	let document: { CORSConfiguration?: { CORSRule?: unknown[] } | string };
	try {
		document = parser.parse(text, true) as typeof document;
	} catch {
		throw malformed();
	}
	const root = document.CORSConfiguration;
	const rules = typeof root === "object" ? root.CORSRule : undefined;
	if (!Array.isArray(rules) || rules.length === 0 || rules.length > MAX_RULES) {
		throw malformed(`Send 1 to ${MAX_RULES} <CORSRule> in <CORSConfiguration>.`);
	}
	return rules.map(ruleOf);
}

/** The `<CORSConfiguration>` content of GetBucketCors for `rules`. */
export function corsDocument(rules: readonly CorsRule[]): XmlContent {
	return {
		"@_xmlns": S3_NAMESPACE,
		CORSRule: rules.map((rule) => {
			const element: XmlContent = {};
			if (rule.id !== undefined) element.ID = rule.id;
			element.AllowedOrigin = rule.allowedOrigins;
			element.AllowedMethod = rule.allowedMethods;
			if (rule.allowedHeaders.length > 0) element.AllowedHeader = rule.allowedHeaders;
			if (rule.exposeHeaders.length > 0) element.ExposeHeader = rule.exposeHeaders;
			if (rule.maxAgeSeconds !== undefined) element.MaxAgeSeconds = rule.maxAgeSeconds;
			return element;
		}),
	};
}

/** Whether `value` matches `pattern`, which holds at most one `*` (any run of characters). */
function wildcardMatch(pattern: string, value: string): boolean {
	const star = pattern.indexOf("*");
	if (star === -1) return pattern === value;
	const head = pattern.slice(0, star);
	const tail = pattern.slice(star + 1);
	return value.length >= head.length + tail.length && value.startsWith(head) && value.endsWith(tail);
}

/** What a request asks of the rules: its Origin, its method (a preflight's requested one), and a preflight's requested headers. */
export interface CorsAsk {
	origin: string;
	method: string;
	/** Lower case; undefined for an actual request, whose headers are not weighed. */
	headers?: readonly string[];
}

/**
 * The first rule that allows `ask` (module comment), or undefined when none does.
 */
export function matchingRule(rules: readonly CorsRule[], ask: CorsAsk): CorsRule | undefined {
	return rules.find(
		(rule) =>
			rule.allowedOrigins.some((pattern) => wildcardMatch(pattern, ask.origin)) &&
			rule.allowedMethods.includes(ask.method) &&
			(ask.headers ?? []).every((header) => rule.allowedHeaders.some((pattern) => wildcardMatch(pattern, header))),
	);
}

/** The `Access-Control-Allow-Origin` a matching rule answers: `*` for a rule of any origin, else the origin itself. */
export function allowedOriginOf(rule: CorsRule, origin: string): string {
	return rule.allowedOrigins.includes("*") ? "*" : origin;
}
