/**
 * The simulated DNS of one zone: what the world's DNS (and the hostnames' web servers) would
 * answer Cloudflare when it validates custom hostnames (an emulator-only
 * route, edgezone's own: Cloudflare has no such API).
 *
 * One entry per name holds its CAA records, its TXT values and the HTTP tokens its web server
 * serves (path -> body). Custom hostnames read it: `_acme-challenge.<hostname>` TXT for
 * certificate validation, `_cf-custom-hostname.<hostname>` TXT or
 * `/.well-known/cf-custom-hostname-challenge/...` for ownership, the paths of `http_url` for
 * HTTP validation, and CAA records for the CA. Each TXT value and HTTP token keeps the zone
 * clock time it was first set (kept across PUTs that repeat it), and each name the time its CAA
 * records last changed, so validation can be dated on the clock (`custom-hostnames/lifecycle.ts`).
 * A deleted entry stays as an empty row with the time of deletion: removing a CAA record is a
 * change of CAA too.
 *
 * Which is which: a name inside a zone of this edgezone (the zone's name is the name or its
 * nearest parent) is answered from that zone's DNS records (`dns-records.ts`, the `/dns_records`
 * API; `zone-answers.ts`), as Cloudflare's own DNS answers it, even when another zone asks (DNS is
 * public). The entries here answer only for names no zone holds (a SaaS customer's own DNS); the
 * emulator route refuses to write a name a zone holds (`api/emulator/dns.ts`). An entry written
 * here before the zone holding its name existed is no longer read. A TXT record's time is its
 * `modified_on`; CAA's, the last time a CAA record of the name was added, changed or removed.
 * The CAA tree climb (RFC 8659 §3: the name, then each parent, until one has CAA records) reads
 * each name where it lives, so a zone's CAA at its apex covers a customer's name only if that
 * name is in the zone. Gap: a name inside a zone serves no HTTP tokens, as its web server is the
 * zone's origin, which validation does not fetch.
 *
 * Limits (edgezone's): 1,000 names per zone, 20 CAA records, 20 TXT values of at most 255
 * characters (one TXT string, RFC 1035 §3.3.14) and 20 HTTP tokens (path and body 1,024
 * characters each) per name.
 */
import type { CaaRecord } from "./custom-hostnames/authorities";
import { selfAndParents } from "./custom-hostnames/names";
import type { CaaAnswer } from "./dns-records";
import { CODES, invalid } from "./failure";

/** The records of one name, as a client writes them. */
export interface DnsRecords {
	caa: CaaRecord[];
	txt: string[];
	/** HTTP tokens: path (from `/`) -> body. */
	http: Record<string, string>;
}

/** One name of the simulated DNS, as the emulator's DNS route answers it. */
export interface DnsEntry extends DnsRecords {
	name: string;
}

/** What validation reads of the DNS: when a record was set (zone clock ms), undefined when absent. */
export interface DnsView {
	/** When `name` got the TXT value `value`. */
	txtSetAt(name: string, value: string): number | undefined;
	/** When `host` started to serve `body` at `path`. */
	httpSetAt(host: string, path: string, body: string): number | undefined;
	/**
	 * The relevant CAA record set of `name` (RFC 8659: the nearest of it and its parents with
	 * CAA records; empty when none), the name holding it (`name` when none), and the latest time
	 * CAA changed on that path of names.
	 */
	caa(name: string): { records: CaaRecord[]; owner: string; changedAt: number };
}

/** The most names one zone's simulated DNS holds. */
const MAX_DNS_NAMES = 1000;

interface DnsRow extends Record<string, SqlStorageValue> {
	name: string;
	caa: string;
	caa_changed_at: number;
	txt: string;
	http: string;
}

interface StoredTxt {
	value: string;
	set_at: number;
}

interface StoredHttp {
	path: string;
	body: string;
	set_at: number;
}

/** A TXT record of the zone's DNS records, as validation reads it. */
export interface TxtRecord {
	name: string;
	value: string;
	/** When it was last written, zone clock ms. */
	setAt: number;
}

/** The DNS records of the zones of this edgezone, as validation reads them (`zone-answers.ts`). */
export interface ZoneAnswers {
	/** The id of the zone holding `name` (its name or nearest parent), undefined when none does. */
	holder(name: string): string | undefined;
	/** The TXT records of the zone `zoneId`. */
	txt(zoneId: string): readonly TxtRecord[];
	/** The CAA records of the zone `zoneId`, by name, with when CAA last changed at each. */
	caa(zoneId: string): readonly CaaAnswer[];
}

/** The `emulator_dns` table; each method runs inside the caller's transaction. */
export class SimulatedDns {
	readonly #sql: SqlStorage;
	readonly #zones: ZoneAnswers;

	/** @param zones the zones' DNS records, which answer for the names they hold, read with each `view()`. */
	constructor(sql: SqlStorage, zones: ZoneAnswers) {
		this.#sql = sql;
		this.#zones = zones;
	}

	/** Every name holding records, by name. */
	list(): DnsEntry[] {
		return this.#sql
			.exec<DnsRow>("SELECT * FROM emulator_dns ORDER BY name")
			.toArray()
			.map(entryOf)
			.filter((entry) => entry.caa.length > 0 || entry.txt.length > 0 || Object.keys(entry.http).length > 0);
	}

	/** The records of `name`, empty when it has none. */
	get(name: string): DnsEntry {
		const row = this.#row(name);
		return row === undefined ? { name, caa: [], txt: [], http: {} } : entryOf(row);
	}

	/** Replaces the records of `name` at zone time `now` (ms); values already there keep their time. */
	put(name: string, records: DnsRecords, now: number): DnsEntry {
		const old = this.#row(name);
		if (old === undefined && this.#count() >= MAX_DNS_NAMES) {
			// Emptied names only remember when their CAA changed: forget them before refusing.
			this.#sql.exec("DELETE FROM emulator_dns WHERE caa = '[]' AND txt = '[]' AND http = '[]'");
			if (this.#count() >= MAX_DNS_NAMES)
				invalid(CODES.emulatorInvalid, `the simulated DNS holds at most ${MAX_DNS_NAMES} names`);
		}
		const oldTxt = old === undefined ? [] : (JSON.parse(old.txt) as StoredTxt[]);
		const oldHttp = old === undefined ? [] : (JSON.parse(old.http) as StoredHttp[]);
		const txt: StoredTxt[] = [...new Set(records.txt)].map((value) => ({
			value,
			set_at: oldTxt.find((t) => t.value === value)?.set_at ?? now,
		}));
		const http: StoredHttp[] = Object.entries(records.http).map(([path, body]) => ({
			path,
			body,
			set_at: oldHttp.find((h) => h.path === path && h.body === body)?.set_at ?? now,
		}));
		const caa = JSON.stringify(records.caa);
		const caaChangedAt = old !== undefined && old.caa === caa ? old.caa_changed_at : now;
		this.#sql.exec(
			`INSERT INTO emulator_dns (name, caa, caa_changed_at, txt, http) VALUES (?, ?, ?, ?, ?)
			 ON CONFLICT (name) DO UPDATE SET caa = excluded.caa, caa_changed_at = excluded.caa_changed_at,
			 txt = excluded.txt, http = excluded.http`,
			name,
			caa,
			caaChangedAt,
			JSON.stringify(txt),
			JSON.stringify(http),
		);
		return this.get(name);
	}

	/** Removes every record of `name` at zone time `now`; false when it had none. */
	delete(name: string, now: number): boolean {
		const old = this.#row(name);
		if (old === undefined) return false;
		const had = old.caa !== "[]" || old.txt !== "[]" || old.http !== "[]";
		if (old.caa === "[]") {
			// No CAA to date the removal of: the name goes entirely.
			this.#sql.exec("DELETE FROM emulator_dns WHERE name = ?", name);
			return had;
		}
		this.#sql.exec(
			"UPDATE emulator_dns SET caa = '[]', caa_changed_at = ?, txt = '[]', http = '[]' WHERE name = ?",
			now,
			name,
		);
		return had;
	}

	/** A snapshot of the whole DNS for validation, read once. */
	view(): DnsView {
		const rows = new Map(
			this.#sql
				.exec<DnsRow>("SELECT * FROM emulator_dns")
				.toArray()
				.map((row) => [row.name, row]),
		);
		// Names a zone holds are that zone's records' to answer; the rows only for the others.
		const unheld = (name: string) => (this.#zones.holder(name) === undefined ? rows.get(name) : undefined);
		// CAA of a name: the zone's records where a zone holds it (read once per zone and view), the rows elsewhere.
		const zoneCaa = new Map<string, Map<string, CaaAnswer>>();
		const caaAt = (name: string): { records: CaaRecord[]; changedAt: number } | undefined => {
			const holder = this.#zones.holder(name);
			if (holder !== undefined) {
				let answers = zoneCaa.get(holder);
				if (answers === undefined) {
					answers = new Map(this.#zones.caa(holder).map((answer) => [answer.name, answer]));
					zoneCaa.set(holder, answers);
				}
				return answers.get(name);
			}
			const row = rows.get(name);
			return row === undefined
				? undefined
				: { records: JSON.parse(row.caa) as CaaRecord[], changedAt: row.caa_changed_at };
		};
		const txt = (name: string) => JSON.parse(unheld(name)?.txt ?? "[]") as StoredTxt[];
		const recordSetAt = (name: string, value: string) => {
			const holder = this.#zones.holder(name);
			if (holder === undefined) return undefined;
			return this.#zones.txt(holder).find((r) => r.name === name && r.value === value)?.setAt;
		};
		const http = (name: string) => JSON.parse(unheld(name)?.http ?? "[]") as StoredHttp[];
		return {
			txtSetAt: (name, value) => txt(name).find((t) => t.value === value)?.set_at ?? recordSetAt(name, value),
			httpSetAt: (host, path, body) => http(host).find((h) => h.path === path && h.body === body)?.set_at,
			caa: (name) => {
				let changedAt = 0;
				let records: CaaRecord[] | undefined;
				let owner = name;
				for (const candidate of selfAndParents(name)) {
					const at = caaAt(candidate);
					if (at === undefined) continue;
					changedAt = Math.max(changedAt, at.changedAt);
					if (at.records.length > 0) {
						records = at.records;
						owner = candidate;
						break;
					}
				}
				return { records: records ?? [], owner, changedAt };
			},
		};
	}

	#row(name: string): DnsRow | undefined {
		return this.#sql.exec<DnsRow>("SELECT * FROM emulator_dns WHERE name = ?", name).toArray()[0];
	}

	#count(): number {
		return this.#sql.exec<{ n: number }>("SELECT count(*) AS n FROM emulator_dns").one().n;
	}
}

function entryOf(row: DnsRow): DnsEntry {
	return {
		name: row.name,
		caa: JSON.parse(row.caa) as CaaRecord[],
		txt: (JSON.parse(row.txt) as StoredTxt[]).map((t) => t.value),
		http: Object.fromEntries((JSON.parse(row.http) as StoredHttp[]).map((h) => [h.path, h.body])),
	};
}
