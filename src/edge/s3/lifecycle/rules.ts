/**
 * A bucket's object lifecycle rules (https://developers.cloudflare.com/r2/buckets/object-lifecycles/)
 * as S3's PutBucketLifecycleConfiguration sends them and GetBucketLifecycleConfiguration answers
 * them (https://docs.aws.amazon.com/AmazonS3/latest/API/API_LifecycleRule.html), and when a rule
 * is due. No Workers API here: the ledger stores the rules (`store.ts`), `sweep.ts` applies them.
 *
 * What R2's rules hold, and so what is taken: a prefix (`<Filter><Prefix>`, or the older
 * `<Prefix>` of the rule), Enabled or Disabled, an expiration (`Days` or a `Date`) and an abort of
 * incomplete multipart uploads (`DaysAfterInitiation`). R2's rules filter by prefix only, and R2
 * keeps no versions, so tag and size filters and the noncurrent-version actions are refused 501.
 * Storage class transitions (R2's Standard to Infrequent Access) are refused 501 too: the binding
 * can change an object's storage class only by writing it again, which would give it a new upload
 * time and, for a multipart object, a new ETag (edgezone's choice: refused rather than kept and
 * never applied).
 *
 * A bucket no configuration was ever put to has R2's default rule: abort incomplete multipart
 * uploads seven days after initiation ("Buckets have a default lifecycle rule", object-lifecycles
 * page above; named "Default Multipart Abort Rule" by the dashboard and the API).
 */
import { XMLParser } from "fast-xml-parser";
import { randomHexId } from "../../../common/ids";
import { MAX_KEY_BYTES } from "../../../wire/limits";
import type { DocumentLimits } from "../body/xml-body";
import { S3Error } from "../errors";
import { S3_NAMESPACE, type XmlContent } from "../xml";

/** One lifecycle rule, as stored. */
export interface LifecycleRule {
	/** S3's `ID`: 1 to 255 characters, unique in the configuration. */
	id: string;
	enabled: boolean;
	/** The keys it applies to: those starting with this ("" for every key). */
	prefix: string;
	/**
	 * The prefix was put as the rule's own `<Prefix>` (S3's older form, before `<Filter>`), and is
	 * answered back so: S3 answers a rule in the form it was given.
	 */
	prefixInRule?: true;
	/** Objects expire this many days after upload, or on this date (RFC 3339, midnight UTC). */
	expiration?: { days: number } | { date: string };
	/** Incomplete multipart uploads are aborted this many days after initiation. */
	abortAfterDays?: number;
}

/** R2's most rules in one configuration (object-lifecycles page: "a 1000 rule maximum"). */
const MAX_RULES = 1000;

/** S3's longest rule ID (API_LifecycleRule.html, "ID"). */
const MAX_ID_LENGTH = 255;

const DAY_MS = 86_400_000;

/**
 * The largest `<LifecycleConfiguration>` taken (`../xml-body.ts`). Bytes per rule: its ID, 255
 * characters each written at worst as a 10-byte character reference (`&#x10FFFF;`), 2,550; its
 * prefix, a key (MAX_KEY_BYTES) with every byte an entity of at most 6 bytes, 6,144; the markup of
 * its elements and their numbers and dates, under 512; and 512 of indentation: 9,718. Then 1 KiB
 * for the root and the declaration: 9,719,024 bytes. Elements per rule: `<Rule>`, `<ID>`,
 * `<Status>`, `<Filter>`, `<And>`, `<Prefix>`, `<Expiration>`, `<Days>` or `<Date>`,
 * `<AbortIncompleteMultipartUpload>`, `<DaysAfterInitiation>`: 10, and the root: 10,001.
 */
export const LIFECYCLE_LIMITS: DocumentLimits = {
	bytes: MAX_RULES * (10 * MAX_ID_LENGTH + 6 * MAX_KEY_BYTES + 1024) + 1024,
	elements: 10 * MAX_RULES + 1,
};

/** R2's rule on a bucket that never had a lifecycle configuration put (module comment). */
export const DEFAULT_RULES: readonly LifecycleRule[] = [
	{ id: "Default Multipart Abort Rule", enabled: true, prefix: "", abortAfterDays: 7 },
];

/**
 * When an object uploaded (or an upload initiated) at `since` is due under a rule of `days`:
 * S3 adds the days and rounds up to the next midnight UTC
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/lifecycle-expire-general-considerations.html).
 * @param since ms since the epoch. @returns ms since the epoch.
 */
export function dueAfterDays(since: number, days: number): number {
	return (Math.floor((since + days * DAY_MS) / DAY_MS) + 1) * DAY_MS;
}

/** When an object of `key` uploaded at `uploaded` (ms) expires under `rule`; undefined for never. */
export function expiryOf(rule: LifecycleRule, key: string, uploaded: number): number | undefined {
	if (!rule.enabled || rule.expiration === undefined || !key.startsWith(rule.prefix)) return undefined;
	const expiration = rule.expiration;
	return "days" in expiration ? dueAfterDays(uploaded, expiration.days) : Date.parse(expiration.date);
}

/** When an upload of `key` initiated at `initiated` (ms) is aborted under `rule`; undefined for never. */
export function abortOf(rule: LifecycleRule, key: string, initiated: number): number | undefined {
	if (!rule.enabled || rule.abortAfterDays === undefined || !key.startsWith(rule.prefix)) return undefined;
	return dueAfterDays(initiated, rule.abortAfterDays);
}

/**
 * The rule that makes something due first, by `due` (`expiryOf` or `abortOf` of one object or
 * upload), and when (ms since the epoch); undefined when no rule does.
 */
export function firstDue(
	rules: readonly LifecycleRule[],
	due: (rule: LifecycleRule) => number | undefined,
): { at: number; rule: LifecycleRule } | undefined {
	let first: { at: number; rule: LifecycleRule } | undefined;
	for (const rule of rules) {
		const at = due(rule);
		if (at !== undefined && (first === undefined || at < first.at)) first = { at, rule };
	}
	return first;
}

const parser = new XMLParser({
	parseTagValue: false,
	trimValues: true,
	isArray: (name, path) => path === "LifecycleConfiguration.Rule" && name === "Rule",
});

type Element = Record<string, unknown>;

/** One element with children; a repeated element (an array) is not one. */
const isElement = (value: unknown): value is Element =>
	typeof value === "object" && value !== null && !Array.isArray(value);
/** An element's text: fast-xml-parser gives "" for an empty element. */
const isText = (value: unknown): value is string => typeof value === "string";

const malformed = (detail?: string) => new S3Error("MalformedXML", detail);
const notR2 = (what: string) =>
	new S3Error(
		"NotImplemented",
		`${what} is not implemented: R2's lifecycle rules filter by prefix, and expire objects or abort incomplete multipart uploads (edgezone does not apply storage class transitions).`,
	);

/** S3's refusal of a day count that is not a positive integer. */
function positiveDays(value: unknown, element: string, action: string): number {
	if (!isText(value) || !/^[0-9]{1,9}$/.test(value) || Number(value) < 1) {
		throw new S3Error("InvalidArgument", `'${element}' for ${action} action must be a positive integer`);
	}
	return Number(value);
}

/** The prefix of a rule: `<Filter>` (empty, `<Prefix>`, or `<And>` of a prefix alone) or the rule's own `<Prefix>`. */
function prefixOf(rule: Element): string {
	if (rule.Filter !== undefined && rule.Prefix !== undefined) {
		throw malformed("A rule takes a <Filter> or a <Prefix>, not both.");
	}
	if (rule.Prefix !== undefined) {
		if (!isText(rule.Prefix)) throw malformed();
		return rule.Prefix;
	}
	const filter = rule.Filter;
	if (filter === undefined || filter === "") return "";
	if (!isElement(filter)) throw malformed();
	for (const name of ["Tag", "ObjectSizeGreaterThan", "ObjectSizeLessThan"]) {
		if (name in filter) throw notR2(`A lifecycle filter on ${name}`);
	}
	if (isElement(filter.And)) {
		const and = filter.And;
		for (const name of Object.keys(and)) if (name !== "Prefix") throw notR2(`A lifecycle filter on ${name}`);
		return isText(and.Prefix) ? and.Prefix : "";
	}
	if (filter.Prefix === undefined) return "";
	if (!isText(filter.Prefix)) throw malformed();
	return filter.Prefix;
}

/** A rule's expiration: `<Days>` or a `<Date>` at midnight UTC. */
function expirationOf(value: unknown): LifecycleRule["expiration"] {
	if (!isElement(value)) throw malformed("<Expiration> needs <Days> or <Date>.");
	if ("ExpiredObjectDeleteMarker" in value) throw notR2("ExpiredObjectDeleteMarker");
	if ((value.Days === undefined) === (value.Date === undefined)) {
		throw malformed("<Expiration> needs one of <Days> and <Date>.");
	}
	if (value.Days !== undefined) return { days: positiveDays(value.Days, "Days", "Expiration") };
	const date = isText(value.Date) ? Date.parse(value.Date) : Number.NaN;
	if (!isText(value.Date) || !/^\d{4}-\d{2}-\d{2}T/.test(value.Date) || Number.isNaN(date)) {
		throw new S3Error("InvalidArgument", "'Date' must be in ISO 8601 format");
	}
	if (date % DAY_MS !== 0) throw new S3Error("InvalidArgument", "'Date' must be at midnight GMT");
	return { date: new Date(date).toISOString() };
}

/** One `<Rule>`. */
function ruleOf(rule: unknown): LifecycleRule {
	if (!isElement(rule)) throw malformed();
	for (const name of ["Transition", "NoncurrentVersionTransition"]) {
		if (name in rule) throw notR2(`A lifecycle ${name}`);
	}
	if ("NoncurrentVersionExpiration" in rule) throw notR2("NoncurrentVersionExpiration");
	if (rule.Status !== "Enabled" && rule.Status !== "Disabled") {
		throw malformed("<Status> is Enabled or Disabled.");
	}
	const id = rule.ID === undefined || rule.ID === "" ? randomHexId() : rule.ID;
	if (!isText(id)) throw malformed();
	if (id.length > MAX_ID_LENGTH) {
		throw new S3Error("InvalidArgument", `ID length should not exceed allowed limit of ${MAX_ID_LENGTH}`);
	}
	const parsed: LifecycleRule = { id, enabled: rule.Status === "Enabled", prefix: prefixOf(rule) };
	if (rule.Prefix !== undefined) parsed.prefixInRule = true;
	if (rule.Expiration !== undefined) parsed.expiration = expirationOf(rule.Expiration);
	if (rule.AbortIncompleteMultipartUpload !== undefined) {
		const abort = rule.AbortIncompleteMultipartUpload;
		const days = isElement(abort) ? abort.DaysAfterInitiation : undefined;
		parsed.abortAfterDays = positiveDays(days, "DaysAfterInitiation", "AbortIncompleteMultipartUpload");
	}
	if (parsed.expiration === undefined && parsed.abortAfterDays === undefined) {
		throw new S3Error("InvalidRequest", "At least one action needs to be specified in a rule");
	}
	return parsed;
}

/**
 * The rules of a `<LifecycleConfiguration>` document, checked whole: a refused document stores
 * nothing (API_PutBucketLifecycleConfiguration.html; R2's limit of 1000 rules).
 * @throws S3Error 400 MalformedXML for a document that does not parse or holds no rule; 400
 * InvalidArgument for a bad day count or date, an ID over 255 characters, a repeated ID or over
 * 1000 rules; 400 InvalidRequest for a rule with no action; 501 NotImplemented for what R2's
 * rules do not hold (module comment).
 */
export function parseLifecycle(text: string): LifecycleRule[] {
	let document: { LifecycleConfiguration?: { Rule?: unknown[] } };
	try {
		document = parser.parse(text, true) as typeof document;
	} catch {
		throw malformed();
	}
	const rules = document.LifecycleConfiguration?.Rule;
	if (!Array.isArray(rules) || rules.length === 0)
		throw malformed("Send one or more <Rule> in <LifecycleConfiguration>.");
	if (rules.length > MAX_RULES) {
		throw new S3Error("InvalidArgument", `A lifecycle configuration holds at most ${MAX_RULES} rules.`);
	}
	const parsed = rules.map(ruleOf);
	if (new Set(parsed.map((rule) => rule.id)).size !== parsed.length) {
		throw new S3Error("InvalidArgument", "Rule ID must be unique. Found same ID for more than one rule");
	}
	return parsed;
}

/** An S3 date-time without milliseconds, as S3 writes a rule's `Date`. */
const s3Date = (iso: string) => iso.replace(/\.000Z$/, "Z");

/**
 * The `<LifecycleConfiguration>` content of GetBucketLifecycleConfiguration for `rules`, each
 * prefix in the form it was put: in a `<Filter>`, or as the rule's own `<Prefix>`.
 */
export function lifecycleDocument(rules: readonly LifecycleRule[]): XmlContent {
	return {
		"@_xmlns": S3_NAMESPACE,
		Rule: rules.map((rule) => {
			const element: XmlContent = {
				ID: rule.id,
				...(rule.prefixInRule ? { Prefix: rule.prefix } : { Filter: { Prefix: rule.prefix } }),
				Status: rule.enabled ? "Enabled" : "Disabled",
			};
			const expiration = rule.expiration;
			if (expiration !== undefined) {
				element.Expiration = "days" in expiration ? { Days: expiration.days } : { Date: s3Date(expiration.date) };
			}
			if (rule.abortAfterDays !== undefined) {
				element.AbortIncompleteMultipartUpload = { DaysAfterInitiation: rule.abortAfterDays };
			}
			return element;
		}),
	};
}

/**
 * S3's `x-amz-expiration` for an object of `key` uploaded at `uploaded` (ms): when the earliest
 * enabled expiration rule makes it due, and that rule's ID, as R2 sends it on writes and reads
 * (object-lifecycles page: "newly uploaded objects' `x-amz-expiration` value immediately reflects
 * the expiration"; the format: https://docs.aws.amazon.com/AmazonS3/latest/API/API_HeadObject.html,
 * "x-amz-expiration"). Undefined when no rule expires it, or when the rule's ID holds a character
 * no header can carry (edgezone's choice: the header left out rather than the answer refused).
 */
export function expirationHeader(rules: readonly LifecycleRule[], key: string, uploaded: number): string | undefined {
	const first = firstDue(rules, (rule) => expiryOf(rule, key, uploaded));
	if (first === undefined || !/^[\x20-\x7e]*$/.test(first.rule.id)) return undefined;
	const id = first.rule.id.replace(/["\\]/g, (character) => `\\${character}`);
	return `expiry-date="${new Date(first.at).toUTCString()}", rule-id="${id}"`;
}
