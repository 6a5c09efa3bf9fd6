/**
 * What the zones of this edgezone answer in DNS, as one zone's validations read it: which zone
 * holds a name (the zone whose name is the name or its nearest parent, `edge/zone-names.ts`
 * `holdingZone`, as DNS delegates a subtree to the zone below the cut, RFC 1034 §4.2) and that
 * zone's DNS records (`dns-records.ts`): TXT records, and CAA records with the time CAA last
 * changed at each name. A name held by another zone is answered from THAT zone's records, read
 * over its RPC (`Zone.dnsAnswers`): DNS is public, so this is what any resolver
 * would see, not a leak. Names no zone holds are the simulated DNS's (`dns.ts`).
 *
 * The answers are a snapshot: `refresh` (async: the registry and the other zones are other
 * Durable Objects) is awaited before the zone's reads that validate, and the synchronous
 * validation code then reads it inside the zone's transaction. Until the first refresh no zone is
 * known, so every name is the simulated DNS's.
 *
 * Time: a record's time is its `modified_on` (a CAA change's, its `changedAt`) on the clock of the
 * zone holding it; another zone's clock may run ahead of this one's (the emulator clock is per
 * zone), so another zone's record is dated no later than this zone's now when it was read, lest it
 * look set in the future.
 * Gap: this zone stores what the DNS proved (`CustomHostnameStore.settle`) only before its own DNS
 * writes, so another zone's record removed before then un-verifies the hostname it proved.
 */
import { zoneRegistry, zoneState } from "../common/durable-objects";
import { holdingZone } from "../edge/zone-names";
import { selfAndParents } from "./custom-hostnames/names";
import type { TxtRecord, ZoneAnswers } from "./dns";
import type { CaaAnswer } from "./dns-records";
import type { ZoneName } from "./registry";

/** The zones' answers, refreshed before each validating read of one zone (`zone.ts`). */
export class ZoneAnswerSnapshot implements ZoneAnswers {
	readonly #ownTxt: () => TxtRecord[];
	readonly #ownCaa: () => CaaAnswer[];
	#zones: readonly ZoneName[] = [];
	#selfId: string | undefined;
	#foreign = new Map<string, { txt: readonly TxtRecord[]; caa: readonly CaaAnswer[] }>();

	/**
	 * @param ownTxt this zone's TXT records, read when asked (inside the caller's transaction).
	 * @param ownCaa this zone's CAA records by name, read the same way.
	 */
	constructor(ownTxt: () => TxtRecord[], ownCaa: () => CaaAnswer[]) {
		this.#ownTxt = ownTxt;
		this.#ownCaa = ownCaa;
	}

	/**
	 * Reads the zone list from the registry and the TXT and CAA records of every other zone holding
	 * one of `names` or a parent of one (their CAA and ownership names live there).
	 * @param self this zone's Durable Object id, to find its own entry in the list.
	 * @param now this zone's clock, ms: the latest time another zone's record is dated.
	 */
	async refresh(env: Env, self: DurableObjectId, names: Iterable<string>, now: number): Promise<void> {
		const zones = await zoneRegistry(env).zoneNames();
		if (this.#selfId === undefined || !zones.some((zone) => zone.id === this.#selfId))
			this.#selfId = zones.find((zone) => env.ZONE.idFromName(zone.id).equals(self))?.id;
		const asked = new Set<string>();
		for (const name of names) {
			for (const candidate of selfAndParents(name)) {
				const holder = holdingZone(candidate, zones);
				if (holder !== undefined && holder.id !== this.#selfId) asked.add(holder.id);
			}
		}
		const foreign = await Promise.all(
			[...asked].map(async (id) => {
				const { txt, caa } = await zoneState(env, id).dnsAnswers();
				return [
					id,
					{
						txt: txt.map((r) => ({ ...r, setAt: Math.min(r.setAt, now) })),
						caa: caa.map((r) => ({ ...r, changedAt: Math.min(r.changedAt, now) })),
					},
				] as const;
			}),
		);
		this.#zones = zones;
		this.#foreign = new Map(foreign);
	}

	holder(name: string): string | undefined {
		return holdingZone(name, this.#zones)?.id;
	}

	txt(zoneId: string): readonly TxtRecord[] {
		return zoneId === this.#selfId ? this.#ownTxt() : (this.#foreign.get(zoneId)?.txt ?? []);
	}

	caa(zoneId: string): readonly CaaAnswer[] {
		return zoneId === this.#selfId ? this.#ownCaa() : (this.#foreign.get(zoneId)?.caa ?? []);
	}
}
