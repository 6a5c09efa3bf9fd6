/**
 * A bucket's CORS policy as Cloudflare's dashboard edits it (pure): a JSON array of rules in S3's
 * form, `AllowedOrigins`, `AllowedMethods`, `AllowedHeaders`, `ExposeHeaders`, `MaxAgeSeconds`
 * and `ID` (developers.cloudflare.com/r2/buckets/cors/, "Add CORS policies from the dashboard"
 * and its example), read from and written to R2's API form, `{rules: [{id, allowed: {origins,
 * methods, headers}, exposeHeaders, maxAgeSeconds}]}` (`/accounts/{account_id}/r2/buckets/
 * {bucket_name}/cors`). What the API refuses of a rule's values (a wildcard too many, an ID too
 * long) the API says; this module refuses only what is not a policy at all.
 */
import type { CORSGetResponse } from "cloudflare/resources/r2/buckets/cors";
import { z } from "zod";

/** One rule of R2's API form. */
export type ApiCorsRule = CORSGetResponse.Rule;

const METHOD = z.enum(["GET", "PUT", "POST", "DELETE", "HEAD"]);

const STRINGS = z.array(z.string());

/** A rule as the dashboard's JSON writes it; no other key is taken, so a misspelt one is not lost unseen. */
const RULE = z.strictObject({
	ID: z.string().optional(),
	AllowedOrigins: STRINGS.min(1),
	AllowedMethods: z.array(METHOD).min(1),
	AllowedHeaders: STRINGS.optional(),
	ExposeHeaders: STRINGS.optional(),
	MaxAgeSeconds: z.number().int().min(0).optional(),
});

const POLICY = z.array(RULE);

/** The policy of `rules` as the dashboard shows it: S3's form, indented; `[]` for none. */
export function policyText(rules: readonly ApiCorsRule[]): string {
	const shown = rules.map((rule) => ({
		...(rule.id === undefined ? {} : { ID: rule.id }),
		AllowedOrigins: rule.allowed.origins,
		AllowedMethods: rule.allowed.methods,
		...(rule.allowed.headers === undefined || rule.allowed.headers.length === 0
			? {}
			: { AllowedHeaders: rule.allowed.headers }),
		...(rule.exposeHeaders === undefined || rule.exposeHeaders.length === 0
			? {}
			: { ExposeHeaders: rule.exposeHeaders }),
		...(rule.maxAgeSeconds === undefined ? {} : { MaxAgeSeconds: rule.maxAgeSeconds }),
	}));
	return JSON.stringify(shown, null, 2);
}

/**
 * The API's rules of a policy typed in the dashboard's form, or why it is not one: text that is
 * not JSON, or JSON that is not an array of rules (the first problem, named by where it is,
 * `[0].AllowedMethods[1]`).
 */
export function parsePolicy(text: string): { ok: true; rules: ApiCorsRule[] } | { ok: false; message: string } {
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		return { ok: false, message: "The policy is not JSON: write an array of rules, such as the example." };
	}
	const parsed = POLICY.safeParse(json);
	if (!parsed.success) {
		const [issue] = parsed.error.issues;
		const where = (issue?.path ?? []).map((part) => (typeof part === "number" ? `[${part}]` : `.${String(part)}`));
		const at = where.length === 0 ? "The policy" : `The policy's ${where.join("").replace(/^\./, "")}`;
		return { ok: false, message: `${at}: ${issue?.message ?? "not a rule"}.` };
	}
	return {
		ok: true,
		rules: parsed.data.map((rule) => ({
			...(rule.ID === undefined ? {} : { id: rule.ID }),
			allowed: {
				origins: rule.AllowedOrigins,
				methods: rule.AllowedMethods,
				...(rule.AllowedHeaders === undefined ? {} : { headers: rule.AllowedHeaders }),
			},
			...(rule.ExposeHeaders === undefined ? {} : { exposeHeaders: rule.ExposeHeaders }),
			...(rule.MaxAgeSeconds === undefined ? {} : { maxAgeSeconds: rule.MaxAgeSeconds }),
		})),
	};
}
