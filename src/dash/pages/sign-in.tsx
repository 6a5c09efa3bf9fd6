/**
 * Sign in and sign out. A person gives an API token, or an email and its Global API key; the
 * credential is checked by the API's own `authenticate` (`api/auth.ts`), so the dashboard
 * accepts exactly what `/client/v4` accepts and shows the API's message when it refuses
 * (9106, 6003 with its chain, 9103, 9109). The credential then lives only in the sealed cookie;
 * the server records the session's id and an HMAC of the credential (`session.ts`).
 */
import { Hono } from "hono";
import { authenticate } from "../../api/auth";
import type { ResponseInfo } from "../../api/envelope";
import { ApiError } from "../../api/errors";
import { addError, Csrf, ErrorSummary, type FormErrors, NO_ERRORS, TextField } from "../components/form";
import { Layout } from "../layout";
import { render } from "../render";
import { type Credential, checkSignInToken, credentialHeaders, signInToken, startSession } from "../session";
import type { DashEnv } from "../types";

// Which sign-in field an auth error is about: the `error_chain` codes of Cloudflare's 6003 "Invalid
// request headers" (api/errors.ts; as answered in https://github.com/cloudflare/cloudflare-typescript/issues/161).
const FIELD_OF_CODE: Record<number, string> = { 6111: "token", 9109: "token", 6102: "email", 6103: "key" };

/** Sorts auth errors by field: a chain's links each go to their own field. */
function authErrors(errors: ResponseInfo[]): FormErrors {
	const sorted: FormErrors = { fields: {}, form: [] };
	for (const error of errors) {
		const links = error.error_chain ?? [error];
		for (const link of links) {
			addError(sorted, FIELD_OF_CODE[link.code], link.message);
		}
	}
	// A summary too, so a screen reader hears at once why signing in failed.
	if (sorted.form.length === 0) sorted.form.push(...errors.map((e) => e.message));
	return sorted;
}

const SignInPage = (p: { csrf: string; errors: FormErrors; email?: string }) => (
	<Layout title="Sign in">
		<h1>Sign in to edgezone</h1>
		<p>Use an API token, or an email address and its Global API key: the credentials the API v4 accepts.</p>
		<ErrorSummary messages={p.errors.form} />
		<form method="post" action="/sign-in">
			<Csrf token={p.csrf} />
			<TextField
				form="sign-in"
				name="token"
				label="API token"
				type="password"
				autocomplete="off"
				errors={p.errors}
				hint="40 characters; leave empty to sign in with an email and key instead."
			/>
			<TextField
				form="sign-in"
				name="email"
				label="Email"
				type="email"
				autocomplete="username"
				value={p.email}
				errors={p.errors}
			/>
			<TextField
				form="sign-in"
				name="key"
				label="Global API key"
				type="password"
				autocomplete="current-password"
				errors={p.errors}
			/>
			<div class="actions">
				<button type="submit">Sign in</button>
			</div>
		</form>
	</Layout>
);

/** Routes `/sign-in` (GET, POST). Sign-out is in `app.tsx`, behind the session check. */
export const signIn = new Hono<DashEnv>()
	.get("/sign-in", async (c) => render(c, <SignInPage csrf={await signInToken(c)} errors={NO_ERRORS} />))
	.post("/sign-in", async (c) => {
		const form = await c.req.parseBody();
		const field = (name: string) => (typeof form[name] === "string" ? form[name].trim() : "");
		if (!(await checkSignInToken(c, field("csrf")))) {
			const errors = { fields: {}, form: ["The sign-in form expired; please try again."] };
			return render(c, <SignInPage csrf={await signInToken(c)} errors={errors} />, 403);
		}
		const credential: Credential =
			field("token") !== "" ? { token: field("token") } : { email: field("email"), key: field("key") };
		// Empty fields are absent headers, as curl without them: the API's 9106.
		const headers = new Headers(
			Object.entries(credentialHeaders(credential)).filter(([, value]) => value !== "" && value !== "Bearer "),
		);
		try {
			authenticate(headers, c.env.API_CREDENTIALS);
		} catch (error) {
			if (!(error instanceof ApiError)) throw error;
			const page = <SignInPage csrf={await signInToken(c)} errors={authErrors(error.errors)} email={field("email")} />;
			return render(c, page, error.status === 500 ? 500 : 401);
		}
		await startSession(c, credential);
		return c.redirect("/", 303);
	});
