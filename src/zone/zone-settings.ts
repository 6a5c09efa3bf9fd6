/**
 * The zone settings edgezone applies (`/zones/{zone_id}/settings/{setting_id}`,
 * developers.cloudflare.com/api/resources/zones/subresources/settings/; SDK
 * `client.zones.settings.get/edit`), each with its values and Cloudflare's default.
 *
 * Emulates: `ip_geolocation` ("IP Geolocation", Network; `on` by default: "Cloudflare adds a
 * CF-IPCountry HTTP header containing the country code that corresponds to the visitor", the SDK's
 * `IPGeolocation`), which the edge reads for each request sent to an origin (`edge/origin/headers.ts`).
 * A setting never changed answers its default with `modified_on: null`, as the real API does for
 * settings left alone. Gaps: Cloudflare's other settings (some sixty) are not known here.
 */

import { CODES, invalid } from "./failure";

/** The settings edgezone knows: their values, the first the default. */
const ZONE_SETTINGS = {
	ip_geolocation: ["on", "off"],
} as const satisfies Record<string, readonly [string, ...string[]]>;

/** The id of a setting edgezone knows. */
type ZoneSettingId = keyof typeof ZONE_SETTINGS;

/** A setting as the API answers it (SDK `SettingGetResponse`). */
export type ZoneSetting = {
	[I in ZoneSettingId]: {
		id: I;
		value: (typeof ZONE_SETTINGS)[I][number];
		/** Whether the zone's plan lets it be changed: every setting here may be. */
		editable: true;
		/** When it was last changed (ISO 8601), null when never. */
		modified_on: string | null;
	};
}[ZoneSettingId];

/** `id` as a setting edgezone knows, else a 400 1006 (Cloudflare's "Unrecognized zone setting name"). */
function knownSetting(id: string): ZoneSettingId {
	if (!Object.hasOwn(ZONE_SETTINGS, id)) invalid(CODES.zoneSettingUnknown, `Unrecognized zone setting name: ${id}`);
	return id as ZoneSettingId;
}

/** The `zone_settings` table: one row per setting changed. Every method runs inside the caller's transaction. */
export class ZoneSettingStore {
	readonly #sql: SqlStorage;

	constructor(sql: SqlStorage) {
		this.#sql = sql;
	}

	/** The setting `id` in force; 400 1006 when edgezone does not know it. */
	get(id: string): ZoneSetting {
		const setting = knownSetting(id);
		const row = this.#sql
			.exec<{ value: string; modified_on: string }>(
				"SELECT value, modified_on FROM zone_settings WHERE id = ?",
				setting,
			)
			.toArray()[0];
		// Written only by `edit`, with one of the setting's values.
		const value = row?.value ?? ZONE_SETTINGS[setting][0];
		return { id: setting, value, editable: true, modified_on: row?.modified_on ?? null } as ZoneSetting;
	}

	/** Sets `id` to `value` at `now`; answers the setting. 400 1006 for an unknown setting, 1007 for a value it does not take. */
	edit(id: string, value: unknown, now: Date): ZoneSetting {
		const setting = knownSetting(id);
		const values: readonly unknown[] = ZONE_SETTINGS[setting];
		if (typeof value !== "string" || !values.includes(value)) {
			const expected = values.map((v) => `"${v}"`).join(" or ");
			invalid(CODES.zoneSettingInvalid, `Invalid value for zone setting ${setting}: expected ${expected}`, "/value");
		}
		const modified = now.toISOString();
		this.#sql.exec(
			"INSERT INTO zone_settings (id, value, modified_on) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET value = excluded.value, modified_on = excluded.modified_on",
			setting,
			value,
			modified,
		);
		return { id: setting, value, editable: true, modified_on: modified } as ZoneSetting;
	}
}
