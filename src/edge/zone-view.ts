/**
 * The edge's isolate cache of each zone's configuration: one RPC answer (`Zone.edgeConfig`)
 * per zone and config version, shared by the firewall and the logs, each deriving what it
 * needs once per version (`derived`).
 *
 * Whether the version moved is asked of the zone's Durable Object (a one-row read) at most
 * every CONFIG_CHECK_INTERVAL_MS (`config-checks.ts`), and at once after the API wrote to the
 * zone in this isolate (`forgetConfigCheck`): locally a rule written through the API applies to
 * the very next request. The same call hands the zone the log entries waiting in this isolate.
 */
import { zoneState } from "../common/durable-objects";
import type { MaybePromise } from "../common/maybe-promise";
import type { EdgeConfig } from "../zone/edge-config";
import { CONFIG_CHECK_INTERVAL_MS } from "./config-checks";
import { putBack, takeWaiting } from "./log-buffer";
import { VersionedCache } from "./versioned-cache";

/** One zone's configuration at one version, with what was derived from it. */
export interface ZoneView {
	readonly config: EdgeConfig;
	/** Values derived from `config`, by the function that derived them. */
	readonly derived: Map<(config: EdgeConfig) => unknown, unknown>;
}

/** Per zone id: its view at the configuration version last read. */
const views = new VersionedCache<ZoneView>(CONFIG_CHECK_INTERVAL_MS);

/** The zone's view at its current version, at once from the isolate's cache when it is current. */
export function zoneView(env: Env, zoneId: string, now: number): MaybePromise<ZoneView> {
	return views.read(zoneId, now, async (held) => {
		// The check carries the log entries waiting in this isolate (`log-buffer.ts`): one RPC for both.
		const entries = takeWaiting(zoneId);
		let config: EdgeConfig | null;
		try {
			config = await zoneState(env, zoneId).edgeCheckIn(held?.version ?? -1, entries);
		} catch (error) {
			putBack(zoneId, entries, error);
			throw error;
		}
		if (config === null && held !== undefined) return held;
		if (config === null) throw new Error("edgeCheckIn(-1) answered null");
		return { version: config.version, value: { config, derived: new Map() } };
	});
}

/** Makes the next request of this isolate ask the zone again: call after a write to the zone. */
export function forgetConfigCheck(zoneId: string): void {
	views.expire(zoneId);
}

/** `make(view.config)`, computed once per view (so once per zone and version in this isolate). */
export function derived<T>(view: ZoneView, make: (config: EdgeConfig) => T): T {
	if (view.derived.has(make)) return view.derived.get(make) as T;
	const value = make(view.config);
	view.derived.set(make, value);
	return value;
}
