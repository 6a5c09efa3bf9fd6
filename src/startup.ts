/**
 * What a Worker has instead of a start-up hook: a Worker runs no code until its first request,
 * so the first request an isolate serves is where it checks its configuration, once, and logs
 * what is missing. `npx wrangler dev` on a fresh clone (no `.dev.vars`) then says at once why every
 * request will be refused, and the answers say it again (gateway `auth.ts`).
 */

/** The secrets of wrangler.toml's `[secrets] required`. */
type Secret = "GATEWAY_TOKENS" | "API_CREDENTIALS";

/** What to say of a secret that is unset or empty: what is missing and how to get it locally. */
export function notConfigured(name: Secret): string {
	return `${name} is not configured; run npm run dev or see .dev.vars.example`;
}

/** The required secrets, made once: this runs on every request. */
const SECRETS: readonly Secret[] = ["GATEWAY_TOKENS", "API_CREDENTIALS"];

/** The secrets already reported missing by this isolate. */
const reported = new Set<Secret>();

/** Logs each required secret that is unset or empty, once per isolate. */
export function reportMissingSecrets(env: Env): void {
	// Indexed: a for-of over an array literal allocated on every request (a V8 heap profile).
	for (let index = 0; index < SECRETS.length; index++) {
		const name = SECRETS[index] as Secret;
		if ((env[name] ?? "") !== "" || reported.has(name)) continue;
		reported.add(name);
		console.warn(`edgezone: ${notConfigured(name)} (every request needing it is refused until it is set).`);
	}
}
