/**
 * The zone's outbox: the e-mails Cloudflare would send its owner about the zone's certificates
 * (docs `ssl/reference/migration-guides/lets-encrypt-chain`,
 * https://developers.cloudflare.com/ssl/reference/migration-guides/lets-encrypt-chain/: customers
 * whose certificates use the older CA are notified by e-mail), kept so a user can read them (`/zones/{zone_id}/emulator/outbox`, not Cloudflare's).
 *
 * A notice is keyed by what it is about (`key`), so deriving the same notice twice stores it
 * once: the moves of the clock are applied lazily, on every read, and may be derived again.
 * Listing shows the notices sent by the zone's current time, oldest first. Each method runs
 * inside the caller's transaction.
 */

/** One e-mail in the outbox. */
export interface Notice {
	id: string;
	/** When it was sent, on the zone's clock (RFC 3339). */
	date: string;
	/** Who gets it: Cloudflare mails the account's Super Administrators. */
	recipient: string;
	subject: string;
	text: string;
	/** What it is about: the certificate type and id (pack, custom hostname). */
	certificate_type: string;
	certificate_id: string | null;
}

/** A notice to send: its content, the instant (ms), and the key that makes it unique. */
export interface NoticeInput {
	key: string;
	at: number;
	recipient: string;
	subject: string;
	text: string;
	certificate_type: string;
	certificate_id: string | null;
}

interface NoticeRow extends Record<string, SqlStorageValue> {
	id: string;
	sent_at: number;
	recipient: string;
	subject: string;
	text: string;
	certificate_type: string;
	certificate_id: string | null;
}

/** The role Cloudflare's certificate e-mails go to. */
export const OWNER = "Super Administrators of the zone's account";

/** The `outbox` table. */
export class Outbox {
	readonly #sql: SqlStorage;

	constructor(sql: SqlStorage) {
		this.#sql = sql;
	}

	/** Stores a notice unless one with its key is there already. */
	send(notice: NoticeInput): void {
		this.#sql.exec(
			`INSERT INTO outbox (id, key, sent_at, recipient, subject, text, certificate_type, certificate_id)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING`,
			crypto.randomUUID(),
			notice.key,
			notice.at,
			notice.recipient,
			notice.subject,
			notice.text,
			notice.certificate_type,
			notice.certificate_id,
		);
	}

	/** The notices sent by `now` (ms), oldest first. */
	list(now: number): Notice[] {
		return this.#sql
			.exec<NoticeRow>("SELECT * FROM outbox WHERE sent_at <= ? ORDER BY sent_at, seq", now)
			.toArray()
			.map((row) => ({
				id: row.id,
				date: new Date(row.sent_at).toISOString(),
				recipient: row.recipient,
				subject: row.subject,
				text: row.text,
				certificate_type: row.certificate_type,
				certificate_id: row.certificate_id,
			}));
	}
}
