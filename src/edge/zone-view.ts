/**
 * The edge's isolate cache of each zone's configuration: one RPC answer (`Zone.edgeConfig`)
 * per zone and config version, shared by the firewall and the logs, each deriving what it
 * needs once per version (`derived`).
 *
 * Whether the version moved is asked of the zone's Durable Object (a one-row read) at most
 * every CONFIG_CHECK_INTERVAL_MS, and at once after the API wrote to the zone in this isolate
 * (`zone/config-checks.ts`): locally a rule written through the API applies to the very next
 * request. The same call hands the zone the log entries waiting in this isolate.
 */
import { zoneState } from "../zone/addressing";
import { configCheckDue, configChecked } from "../zone/config-checks";
import type { EdgeConfig } from "../zone/edge-config";
import { putBack, takeWaiting } from "./log-buffer";

/** One zone's configuration at one version, with what was derived from it. */
export interface ZoneView {
	readonly config: EdgeConfig;
	/** Values derived from `config`, by the function that derived them. */
	readonly derived: Map<(config: EdgeConfig) => unknown, unknown>;
}

const views = new Map<string, ZoneView>();

/** The zone's view at its current version, from the isolate's cache when it is current. */
export async function zoneView(env: Env, zoneId: string, now: number): Promise<ZoneView> {
	const cached = views.get(zoneId);
	if (cached !== undefined && !configCheckDue(zoneId, now)) return cached;
	// The check carries the log entries waiting in this isolate (`log-buffer.ts`): one RPC for both.
	const entries = takeWaiting(zoneId);
	let config: EdgeConfig | null;
	try {
		config = await zoneState(env, zoneId).edgeCheckIn(cached?.config.version ?? -1, entries);
	} catch (error) {
		putBack(zoneId, entries, error);
		throw error;
	}
	configChecked(zoneId, now);
	if (config === null && cached !== undefined) return cached;
	if (config === null) throw new Error("edgeCheckIn(-1) answered null");
	const view: ZoneView = { config, derived: new Map() };
	views.set(zoneId, view);
	return view;
}

/** `make(view.config)`, computed once per view (so once per zone and version in this isolate). */
export function derived<T>(view: ZoneView, make: (config: EdgeConfig) => T): T {
	if (view.derived.has(make)) return view.derived.get(make) as T;
	const value = make(view.config);
	view.derived.set(make, value);
	return value;
}
