/**
 * Typed failures of zone operations, and the Cloudflare error codes they carry.
 *
 * Zone RPC methods return a `Result` instead of throwing, because an Error thrown
 * across RPC loses its class and fields. The API layer turns a failure into the
 * envelope (`src/api/errors.ts`).
 *
 * Codes marked "observed" were seen in real API answers (the issue or source named beside each);
 * the others are not public and are edgezone's choice, kept stable so clients can rely on them.
 */
import type { z } from "zod";

/** What went wrong, which decides the HTTP status: 400, 404, or 409 for a name already taken. */
type FailureKind = "invalid" | "not_found" | "conflict";

/** One failure: a Cloudflare error code, a message and, for bad input, the JSON pointer of the field. */
export interface Failure {
	kind: FailureKind;
	code: number;
	message: string;
	pointer?: string;
	/** Extra facts of the error, as the real API sends them (10102: `{id}` of the existing filter). */
	meta?: Record<string, string>;
}

/** The outcome of a zone operation. */
export type Result<T> = { ok: true; value: T } | { ok: false; failures: Failure[] };

/** Error codes used by zone operations. */
export const CODES = {
	/** Observed: a second `kind: zone` ruleset for one phase (terraform-provider-cloudflare#3444, #6273). */
	zoneRulesetPerPhase: 20217,
	/** Observed (third-party clients; no official doc): no entrypoint ruleset in a phase. */
	entrypointNotFound: 10003,
	/** Chosen: unknown ruleset, rule or ruleset version (404 is documented, the code is not). */
	rulesetNotFound: 10005,
	/** Chosen: any invalid ruleset or rule body; the message and `source.pointer` tell which field. */
	rulesetInvalid: 20200,
	/** Observed for logpush validation errors (terraform-provider-cloudflare#1019). */
	logpushInvalid: 1002,
	/** Chosen: unknown log-push job ("job not found" text from the Terraform provider). */
	logpushJobNotFound: 1004,
	/** Mentioned by third-party code for an unknown zone id (unverified; no official source). */
	zoneNotFound: 1003,
	/** Chosen: invalid zone body or query. */
	zoneInvalid: 1001,
	/** Zone name already taken ("<name> already exists"). */
	zoneExists: 1061,
	/** Chosen (the real code is not public): an expression the Rules language refuses, rulesets API. */
	rulesetExpression: 20125,
	/** Chosen: any invalid filters body or query; the message and `source.pointer` tell which field. */
	filterInvalid: 10100,
	/** Chosen: unknown filter id. */
	filterNotFound: 10101,
	/** Observed (terraform-provider-cloudflare#1577): a filter with this expression exists, `meta.id`. */
	filterDuplicate: 10102,
	/** Chosen: a filter that firewall rules reference cannot be deleted. */
	filterInUse: 10103,
	/** Chosen: a filter created by the firewall rules API (locked) cannot be changed or deleted through the filters API. */
	filterLocked: 10104,
	/** Chosen (10014 is an unconfirmed guess): an expression the Rules language refuses, filters API. */
	filterExpression: 10014,
	/** Chosen: any invalid firewall rules body or query. */
	firewallRuleInvalid: 10200,
	/** Chosen: unknown firewall rule id. */
	firewallRuleNotFound: 10201,
	/** Observed (cloudflare/cloudflare-php#144): a rule's filter is invalid or a duplicate, "at index N". */
	firewallRuleFilter: 10202,
	/** Chosen: the zone's rule quota would be exceeded (firewall/api/call-sequence docs). */
	firewallRuleQuota: 10203,
	/** Chosen: too many filters in the zone (edgezone's bound, `limits.ts`). */
	filterQuota: 10105,
	/** Chosen: an invalid certificate pack order, PATCH or list query (codes not public). */
	certificatePackInvalid: 1470,
	/** Chosen: unknown certificate pack id. */
	certificatePackNotFound: 1471,
	/** Chosen: the universal pack cannot be deleted or changed through the packs API. */
	certificatePackUniversal: 1472,
	/** Chosen: the zone's quota of advanced packs is used up. */
	certificatePackQuota: 1473,
	/** Chosen: an invalid Universal SSL or Total TLS settings body. */
	sslSettingsInvalid: 1474,
	/** Chosen: an invalid custom certificate body or query other than the certificate and key themselves. */
	customCertificateInvalid: 1475,
	/** Documented (custom certificates troubleshooting): "Invalid certificate." also for an unknown `{custom_certificate_id}`. */
	customCertificateNotFound: 1002,
	/** Documented: "You have reached the maximum number of custom certificates." */
	customCertificateQuota: 1212,
	/** Documented: "This certificate has already been submitted." */
	customCertificateDuplicate: 1220,
	/** Documented: "The certificate chain you uploaded does not include any hostnames from your zone." */
	customCertificateNoZoneHost: 2103,
	/** Chosen: an invalid body or query of an emulator-only route (`/zones/{zone_id}/emulator/...`, not Cloudflare's). */
	emulatorInvalid: 9400,
	/** Chosen: the emulator DNS route names a name a zone holds, whose DNS is that zone's DNS records. */
	emulatorDnsHeldByZone: 9401,
	/** Chosen: an emulator-only route names something the zone does not have. */
	emulatorNotFound: 9404,
	/** Chosen: any invalid custom hostnames body or query (the real code is not public). */
	customHostnameInvalid: 1400,
	/** Observed (third-party clients, 409): "Duplicate custom hostname found." */
	customHostnameDuplicate: 1406,
	/** Observed (third-party clients, 404): unknown custom hostname id. */
	customHostnameNotFound: 1436,
	/** Observed (terraform-provider-cloudflare v4 reads it as "not found"): no fallback origin set. */
	fallbackOriginNotFound: 1414,
	/** Chosen: the zone's hard cap of custom hostnames (`quota`) is reached. */
	customHostnameQuota: 1415,
	/** Chosen (the real code is not public): an invalid R2 temporary credentials request. */
	r2TemporaryCredentialsInvalid: 10040,
	/** Chosen (the real code is not public; the endpoint is the rulesets' family): an invalid URL normalization body. */
	urlNormalizationInvalid: 20200,
	/** Chosen (the real code is not public; the endpoint is the rulesets' family): an invalid Managed Transforms body. */
	managedTransformsInvalid: 20200,
	/** Observed as the wrapper of DNS validation errors, "DNS Validation Error" (hashicorp/terraform#11991): any invalid DNS records body or query. */
	dnsRecordInvalid: 1004,
	/** Observed (pulumi/pulumi-cloudflare#1174, a custom domain's POST): "The specified bucket does not exist." */
	r2BucketNotFound: 10006,
	/** Chosen (the real code is not public; the R2 API's invalid request, as 10040): an invalid custom domain or r2.dev body. */
	r2CustomDomainInvalid: 10040,
	/** Chosen (the real code is not public): the bucket has no custom domain of that name. */
	r2CustomDomainNotFound: 10061,
	/** Chosen (the real code is not public): the domain is connected to a bucket already. */
	r2CustomDomainTaken: 10062,
	/** Observed (terraform-provider-cloudflare#1810, #1787): "Unrecognized zone setting name: <id> (1006)". */
	zoneSettingUnknown: 1006,
	/** Chosen (the real code is not public): a value the zone setting does not take. */
	zoneSettingInvalid: 1007,
} as const;

/**
 * Turns zod issues into failures with JSON pointers under `prefix` (e.g. `/rules/0`).
 * An unknown key becomes the real API's text `invalid JSON: unknown field "x"`
 * (terraform-provider-cloudflare#3241).
 */
export function fromZod(error: z.ZodError, code: number, prefix = ""): Failure[] {
	return error.issues.flatMap((issue): Failure[] => {
		const pointer = prefix + issue.path.map((p) => `/${String(p)}`).join("");
		if (issue.code === "unrecognized_keys") {
			return issue.keys.map((key) => ({
				kind: "invalid",
				code,
				message: `invalid JSON: unknown field "${key}"`,
				pointer: `${pointer}/${key}`,
			}));
		}
		// A refinement may carry its own code (`params: {code}`), e.g. 20125 for an expression.
		const own = issue.code === "custom" ? (issue.params as { code?: unknown } | undefined)?.code : undefined;
		return [
			{ kind: "invalid", code: typeof own === "number" ? own : code, message: issue.message, pointer: pointer || "/" },
		];
	});
}

/**
 * Thrown inside a transaction to roll it back and answer with failures; caught by the
 * Durable Object's transaction helper, never crosses RPC.
 */
export class FailureSignal extends Error {
	constructor(readonly failures: Failure[]) {
		super(failures.map((f) => f.message).join("; "));
	}
}

/** Throws a FailureSignal with one failure: `invalid(...)` / `notFound(...)` read well at call sites. */
export function invalid(code: number, message: string, pointer?: string): never {
	throw new FailureSignal([{ kind: "invalid", code, message, ...(pointer === undefined ? {} : { pointer }) }]);
}

/** Throws a FailureSignal for a name already taken (409). */
export function conflict(code: number, message: string, pointer?: string): never {
	throw new FailureSignal([{ kind: "conflict", code, message, ...(pointer === undefined ? {} : { pointer }) }]);
}

/** Throws a FailureSignal for a missing object (404). */
export function notFound(code: number, message: string): never {
	throw new FailureSignal([{ kind: "not_found", code, message }]);
}

/**
 * Runs `op` in one SQLite transaction of `storage`; a FailureSignal thrown inside rolls
 * the transaction back and becomes a failed Result. Any other error propagates.
 */
export function transact<T>(storage: DurableObjectStorage, op: () => T): Result<T> {
	try {
		return { ok: true, value: storage.transactionSync(op) };
	} catch (error) {
		if (error instanceof FailureSignal) return { ok: false, failures: error.failures };
		throw error;
	}
}

/** Carries the value of a rehearsed operation out of the transaction its throw rolls back. */
class Rehearsal<T> extends Error {
	constructor(readonly value: T) {
		super("rehearsal: rolled back on purpose");
		this.name = "Rehearsal";
	}
}

/**
 * Runs `op` as `transact` does, then rolls the transaction back whatever happened: the value
 * `op` would have committed, or its failures, with nothing persisted. The same code as the write
 * runs, so a rehearsal fails exactly where the write would (a dry run, `?dry_run=true`).
 */
export function rehearse<T>(storage: DurableObjectStorage, op: () => T): Result<T> {
	try {
		return transact(storage, () => {
			throw new Rehearsal(op());
		});
	} catch (error) {
		if (error instanceof Rehearsal) return { ok: true, value: error.value as T };
		throw error;
	}
}
