/** The dashboard's sealed session cookie and CSRF tokens (src/dash/session.ts), as pure functions. */
import { describe, expect, it } from "vitest";
import { checkCsrf, csrfToken, newSession, SESSION_SECONDS, seal, unseal } from "../../src/dash/session";

const SECRET = '[{"token":"a","zones":"*"}]';
const OTHER_SECRET = '[{"token":"b","zones":"*"}]';

describe("a sealed session", () => {
	it("opens with the same secret and gives back the credential", async () => {
		const session = newSession({ email: "a@example.com", key: "k" });
		expect(await unseal(await seal(session, SECRET), SECRET)).toEqual(session);
	});

	it("does not show the credential in the cookie", async () => {
		const sealed = await seal(newSession({ token: "secret_token_value" }), SECRET);
		expect(
			atob(
				sealed
					.replace(/-/g, "+")
					.replace(/_/g, "/")
					.padEnd(Math.ceil(sealed.length / 4) * 4, "="),
			),
		).not.toContain("secret_token_value");
	});

	it("does not open under another secret (changing API_CREDENTIALS signs everyone out)", async () => {
		expect(await unseal(await seal(newSession({ token: "t" }), SECRET), OTHER_SECRET)).toBeUndefined();
	});

	it("does not open once one byte is changed", async () => {
		const sealed = await seal(newSession({ token: "t" }), SECRET);
		const flipped = `${sealed.slice(0, 20)}${sealed[20] === "A" ? "B" : "A"}${sealed.slice(21)}`;
		expect(await unseal(flipped, SECRET)).toBeUndefined();
		expect(await unseal("not base64url!", SECRET)).toBeUndefined();
		expect(await unseal("", SECRET)).toBeUndefined();
	});

	it("expires after SESSION_SECONDS", async () => {
		const now = Date.UTC(2025, 0, 1);
		const sealed = await seal(newSession({ token: "t" }, now), SECRET);
		expect(await unseal(sealed, SECRET, now + (SESSION_SECONDS - 1) * 1000)).toBeDefined();
		expect(await unseal(sealed, SECRET, now + SESSION_SECONDS * 1000)).toBeUndefined();
	});
});

describe("a CSRF token", () => {
	it("is accepted for its own binding only", async () => {
		const token = await csrfToken("session-1", SECRET);
		expect(await checkCsrf(token, "session-1", SECRET)).toBe(true);
		expect(await checkCsrf(token, "session-2", SECRET)).toBe(false);
		expect(await checkCsrf(token, "session-1", OTHER_SECRET)).toBe(false);
		expect(await checkCsrf("", "session-1", SECRET)).toBe(false);
		expect(await checkCsrf(`${token}x`, "session-1", SECRET)).toBe(false);
	});
});
