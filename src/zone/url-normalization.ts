/**
 * The zone's URL normalization setting (`/zones/{zone_id}/url_normalization`,
 * https://developers.cloudflare.com/api/resources/url_normalization/): its type and scope, which
 * the edge applies to every request before the zone's rules (`src/common/url-normalization.ts`).
 * A new zone, and a zone whose setting was deleted, has Cloudflare's default.
 */
import { DEFAULT_URL_NORMALIZATION, type UrlNormalization } from "../common/url-normalization";

/** The one-row `url_normalization` table. Every method runs inside the caller's transaction. */
export class UrlNormalizationStore {
	readonly #sql: SqlStorage;

	constructor(sql: SqlStorage) {
		this.#sql = sql;
	}

	/** The setting in force. */
	get(): UrlNormalization {
		const row = this.#sql
			.exec<{ type: string; scope: string }>("SELECT type, scope FROM url_normalization WHERE id = 1")
			.one();
		// Written only by `set`, from the API's validated values.
		return { type: row.type, scope: row.scope } as UrlNormalization;
	}

	/** Replaces the setting; answers it. */
	set(setting: UrlNormalization): UrlNormalization {
		this.#sql.exec("UPDATE url_normalization SET type = ?, scope = ? WHERE id = 1", setting.type, setting.scope);
		return { type: setting.type, scope: setting.scope };
	}

	/** Back to Cloudflare's default (the API's DELETE). */
	reset(): void {
		this.set(DEFAULT_URL_NORMALIZATION);
	}
}
