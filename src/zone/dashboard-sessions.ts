/**
 * The dashboard's sessions on the server: which sealed session cookies are still signed in.
 *
 * The cookie (`src/dash/session.ts`) carries the session's id; a cookie opens only while that id
 * is a row here and its expiry is ahead. Sign-out deletes the row, so a copy of the cookie kept
 * elsewhere stops working at once (OWASP Session Management Cheat Sheet, "Session Expiration":
 * the session must be invalidated on the server side on logout, not only in the browser).
 * "Sign out everywhere" deletes every row of one credential, which is stored as an HMAC the
 * Worker computes (`credentialId`), never as the credential itself.
 *
 * Kept in the `ZoneRegistry` Durable Object, edgezone's choice: sessions belong to a credential,
 * not to a zone, and the registry is the one instance every isolate already reaches, so no new
 * class is needed. Rows past their expiry are removed whenever a session starts, so the table
 * holds at most the sessions started in the last SESSION_SECONDS.
 */

/** Records a session `sid` of `credential` (an HMAC), signed in until `expiresAt` (seconds); drops expired ones. */
export function startSession(sql: SqlStorage, sid: string, credential: string, expiresAt: number, now: number): void {
	sql.exec("DELETE FROM dashboard_sessions WHERE expires_at <= ?", now);
	sql.exec(
		"INSERT OR REPLACE INTO dashboard_sessions (sid, credential, expires_at) VALUES (?, ?, ?)",
		sid,
		credential,
		expiresAt,
	);
}

/** Whether the session `sid` is signed in at `now` (seconds): started, not ended, not expired. */
export function sessionActive(sql: SqlStorage, sid: string, now: number): boolean {
	return sql.exec("SELECT 1 FROM dashboard_sessions WHERE sid = ? AND expires_at > ?", sid, now).toArray().length > 0;
}

/** Ends the session `sid` (nothing when it is not signed in). */
export function endSession(sql: SqlStorage, sid: string): void {
	sql.exec("DELETE FROM dashboard_sessions WHERE sid = ?", sid);
}

/** Ends every session of `credential` (an HMAC); answers how many were signed in. */
export function endCredentialSessions(sql: SqlStorage, credential: string): number {
	return sql.exec("DELETE FROM dashboard_sessions WHERE credential = ? RETURNING sid", credential).toArray().length;
}
