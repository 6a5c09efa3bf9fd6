/**
 * The dashboard's session: the API credential a person signed in with, sealed in a cookie, and
 * the CSRF token every form carries.
 *
 * - The cookie holds `{credential, sid, exp}` sealed with AES-256-GCM (WebCrypto); the key is
 *   derived with HKDF-SHA-256 (RFC 5869) from the `API_CREDENTIALS` secret. Deriving from it
 *   rather than from a secret of its own means no new secret to set, and changing the
 *   credentials (say, revoking a token) signs every session out, since old cookies no longer open.
 *   The cookie is `HttpOnly; SameSite=Strict; Path=/` (`Secure` too over https), 8 hours.
 * - A session is also recorded on the server (`zone/dashboard-sessions.ts`, in the registry
 *   Durable Object) by its `sid` and an HMAC of its credential (`credentialId`): a cookie opens
 *   only while its session is recorded, so sign-out, which deletes the record, ends the session
 *   wherever a copy of the cookie is, and "sign out everywhere" ends every session of the
 *   credential. One RPC per request checks it; nothing is cached, so a session ended in one
 *   isolate is refused by every other at its next request.
 * - The CSRF token of a session is HMAC-SHA-256(sid) under a second HKDF key (the synchronizer
 *   token pattern bound to the session, OWASP CSRF cheat sheet); the sign-in form, before any
 *   session, binds its token to a random nonce in a short-lived cookie of its own, so a
 *   third-party page cannot sign a browser in with someone else's credential.
 * The Bucket page adds the gateway token a person gives it (`gatewayToken`), sealed the same way:
 * the gateway's tokens are not the API's credentials, and the page asks for one once.
 * Nothing here trusts the cookie's content beyond what AES-GCM authenticates; the credential is
 * re-checked by the API on every call (`api-call.ts`).
 */

import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { zoneRegistry } from "../common/durable-objects";
import { fromBase64Url, toBase64Url } from "../common/encoding";
import type { DashEnv } from "./types";

/** A credential of the API v4, as a person types it at sign-in. */
export type Credential = { token: string } | { email: string; key: string };

/** A signed-in session. `sid` identifies it for CSRF; `exp` is in seconds since the epoch. */
export interface Session {
	credential: Credential;
	sid: string;
	exp: number;
	/** The bucket gateway's token (`GATEWAY_TOKENS`) the Bucket page presents, once the person gave it. */
	gatewayToken?: string;
}

/** Name of the session cookie. */
const SESSION_COOKIE = "edgezone_session";
/** The request header a page script sends the session's CSRF token in (a form sends its `csrf` field). */
export const CSRF_HEADER = "x-csrf-token";
/** Name of the sign-in nonce cookie (CSRF of the sign-in form). */
const SIGN_IN_COOKIE = "edgezone_sign_in";
/** How long a session lasts, in seconds. */
export const SESSION_SECONDS = 8 * 60 * 60;
const SIGN_IN_SECONDS = 30 * 60;

const encoder = new TextEncoder();
const AAD = encoder.encode("edgezone dashboard session v1");

interface Keys {
	seal: CryptoKey;
	csrf: CryptoKey;
	credential: CryptoKey;
}

// One derivation per isolate and secret value: HKDF is cheap, but not free on every request.
let cached: { secret: string; keys: Promise<Keys> } | undefined;

/** The sealing and CSRF keys derived from `secret` (HKDF-SHA-256, distinct `info` each). */
function keysFor(secret: string): Promise<Keys> {
	if (cached?.secret !== secret) cached = { secret, keys: deriveKeys(secret) };
	return cached.keys;
}

async function deriveKeys(secret: string): Promise<Keys> {
	const base = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveKey"]);
	const hkdf = (info: string) => ({
		name: "HKDF",
		hash: "SHA-256",
		salt: encoder.encode("edgezone dashboard"),
		info: encoder.encode(info),
	});
	const hmac = (info: string) =>
		crypto.subtle.deriveKey(hkdf(info), base, { name: "HMAC", hash: "SHA-256", length: 256 }, false, [
			"sign",
			"verify",
		]);
	const [seal, csrf, credential] = await Promise.all([
		crypto.subtle.deriveKey(hkdf("session seal v1"), base, { name: "AES-GCM", length: 256 }, false, [
			"encrypt",
			"decrypt",
		]),
		hmac("csrf v1"),
		hmac("credential id v1"),
	]);
	return { seal, csrf, credential };
}

/** The secret the keys come from; a dashboard without it cannot sign anyone in. */
function secretOf(env: Env): string {
	const secret = env.API_CREDENTIALS ?? "";
	if (secret === "") throw new Error("API_CREDENTIALS is not configured; run npm run dev or see .dev.vars.example");
	return secret;
}

const randomId = () => toBase64Url(crypto.getRandomValues(new Uint8Array(16)));

/** A new session for `credential`, valid SESSION_SECONDS from `now` (milliseconds). */
export function newSession(credential: Credential, now = Date.now()): Session {
	return { credential, sid: randomId(), exp: Math.floor(now / 1000) + SESSION_SECONDS };
}

/** Seals a session: base64url of a 12-byte IV then the AES-GCM ciphertext of its JSON. */
export async function seal(session: Session, secret: string): Promise<string> {
	const { seal: key } = await keysFor(secret);
	const iv = crypto.getRandomValues(new Uint8Array(12));
	const plain = encoder.encode(JSON.stringify(session));
	const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: AAD }, key, plain));
	const out = new Uint8Array(iv.length + sealed.length);
	out.set(iv);
	out.set(sealed, iv.length);
	return toBase64Url(out);
}

/** Opens a sealed session; undefined when it is not one `seal` made with this secret, or it expired. */
export async function unseal(value: string, secret: string, now = Date.now()): Promise<Session | undefined> {
	const bytes = fromBase64Url(value);
	if (bytes === undefined || bytes.length < 12 + 16) return undefined;
	const { seal: key } = await keysFor(secret);
	let plain: ArrayBuffer;
	try {
		plain = await crypto.subtle.decrypt(
			{ name: "AES-GCM", iv: bytes.subarray(0, 12), additionalData: AAD },
			key,
			bytes.subarray(12),
		);
	} catch {
		return undefined;
	}
	const session = JSON.parse(new TextDecoder().decode(plain)) as Session;
	return session.exp > now / 1000 ? session : undefined;
}

/** The CSRF token bound to `binding` (a session id or a sign-in nonce): base64url HMAC-SHA-256. */
export async function csrfToken(binding: string, secret: string): Promise<string> {
	const { csrf } = await keysFor(secret);
	return toBase64Url(new Uint8Array(await crypto.subtle.sign("HMAC", csrf, encoder.encode(`csrf:${binding}`))));
}

/**
 * What the server stores to name a session's credential: base64url HMAC-SHA-256 of the credential
 * under its own HKDF key, so the sessions table never holds a credential, and holds nothing a
 * guess could be checked against without the secret.
 */
async function credentialId(credential: Credential, secret: string): Promise<string> {
	const { credential: key } = await keysFor(secret);
	// The email in lower case: the API matches it so (`api/auth.ts`), and so one credential has one id.
	const name =
		"token" in credential ? ["token", credential.token] : ["key", credential.email.toLowerCase(), credential.key];
	return toBase64Url(new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(JSON.stringify(name)))));
}

/** Whether `token` is the CSRF token of `binding`; compared by HMAC verify, in constant time. */
export async function checkCsrf(token: string, binding: string, secret: string): Promise<boolean> {
	const mac = fromBase64Url(token);
	if (mac === undefined || mac.length !== 32) return false;
	const { csrf } = await keysFor(secret);
	return crypto.subtle.verify("HMAC", csrf, mac, encoder.encode(`csrf:${binding}`));
}

const cookieOptions = (c: Context, maxAge: number) =>
	({
		httpOnly: true,
		sameSite: "Strict",
		path: "/",
		secure: new URL(c.req.url).protocol === "https:",
		maxAge,
	}) as const;

/**
 * The request's session: `absent` without a session cookie; `ended` when the cookie does not
 * open, expired, or its session was signed out on the server; otherwise the session.
 */
export type SessionState = { state: "absent" } | { state: "ended" } | { state: "active"; session: Session };

/** Reads and checks the request's session cookie (one RPC to the registry when it opens). */
export async function readSession(c: Context<DashEnv>): Promise<SessionState> {
	const value = getCookie(c, SESSION_COOKIE);
	if (value === undefined) return { state: "absent" };
	const session = await unseal(value, secretOf(c.env));
	if (session === undefined || !(await zoneRegistry(c.env).dashboardSessionActive(session.sid)))
		return { state: "ended" };
	return { state: "active", session };
}

/** Signs `credential` in: a new session recorded on the server, and its cookie on the answer. */
export async function startSession(c: Context<DashEnv>, credential: Credential): Promise<void> {
	const session = newSession(credential);
	const id = await credentialId(credential, secretOf(c.env));
	await zoneRegistry(c.env).startDashboardSession(session.sid, id, session.exp);
	await writeSession(c, session);
}

/** Signs the session out on the server and clears its cookie. */
export async function endSession(c: Context<DashEnv>, session: Session): Promise<void> {
	await zoneRegistry(c.env).endDashboardSession(session.sid);
	clearSession(c);
}

/** Signs out every session of the session's credential, this one included, and clears its cookie. */
export async function endEverySession(c: Context<DashEnv>, session: Session): Promise<void> {
	await zoneRegistry(c.env).endDashboardSessionsOf(await credentialId(session.credential, secretOf(c.env)));
	clearSession(c);
}

/** Sets the session cookie on the answer (a session `startSession` recorded). */
export async function writeSession(c: Context<DashEnv>, session: Session): Promise<void> {
	setCookie(c, SESSION_COOKIE, await seal(session, secretOf(c.env)), cookieOptions(c, SESSION_SECONDS));
}

/** Clears the session cookie. */
export function clearSession(c: Context): void {
	setCookie(c, SESSION_COOKIE, "", cookieOptions(c, 0));
}

/**
 * The CSRF token of the sign-in form, bound to the nonce cookie: the request's nonce when it has
 * one (so two sign-in tabs, or a browser's own fetch of /favicon.ico landing on /sign-in, do not
 * invalidate the form on screen), otherwise a fresh one.
 */
export async function signInToken(c: Context<DashEnv>): Promise<string> {
	const current = getCookie(c, SIGN_IN_COOKIE);
	const nonce = current !== undefined && /^[A-Za-z0-9_-]{22}$/.test(current) ? current : randomId();
	setCookie(c, SIGN_IN_COOKIE, nonce, cookieOptions(c, SIGN_IN_SECONDS));
	return csrfToken(nonce, secretOf(c.env));
}

/** Whether the sign-in form's token matches the request's nonce cookie. */
export async function checkSignInToken(c: Context<DashEnv>, token: string): Promise<boolean> {
	const nonce = getCookie(c, SIGN_IN_COOKIE);
	return nonce !== undefined && checkCsrf(token, nonce, secretOf(c.env));
}

/** The CSRF token of a session, for its forms. */
export function sessionToken(c: Context<DashEnv>, session: Session): Promise<string> {
	return csrfToken(session.sid, secretOf(c.env));
}

/** Whether `token` is the session's CSRF token. */
export function checkSessionToken(c: Context<DashEnv>, session: Session, token: string): Promise<boolean> {
	return checkCsrf(token, session.sid, secretOf(c.env));
}

/** The headers that present a credential to the API v4 (`api/auth.ts`). */
export function credentialHeaders(credential: Credential): Record<string, string> {
	return "token" in credential
		? { Authorization: `Bearer ${credential.token}` }
		: { "X-Auth-Email": credential.email, "X-Auth-Key": credential.key };
}
