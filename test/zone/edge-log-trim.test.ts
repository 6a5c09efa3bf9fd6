/**
 * The edge log's trim over a zone's storage: however many enabled log-push jobs a zone has, the
 * trim runs (the storage binds at most 100 variables to a query) and keeps their cursors alone.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { zoneState } from "../../src/common/durable-objects";
import { EdgeLogStore } from "../../src/zone/edge-log";
import type { Zone } from "../../src/zone/zone";
import { freshZone } from "../api/http";

it("trims with 150 jobs' cursors, deleting only the cursors of jobs no longer listed", async () => {
	const zone_id = await freshZone();
	const cursors = await runInDurableObject(zoneState(env, zone_id), (_zone: Zone, state) => {
		const log = new EdgeLogStore(state.storage.sql);
		const now = Date.now();
		const jobs = Array.from({ length: 150 }, (_, i) => i + 1);
		for (const id of [...jobs, 151]) log.cursor(id, now);
		log.trim(jobs, now, now, 100);
		return state.storage.sql.exec<{ job_id: number }>("SELECT job_id FROM logpush_cursors ORDER BY job_id").toArray();
	});
	expect(cursors.map((c) => c.job_id)).toEqual(Array.from({ length: 150 }, (_, i) => i + 1));
});
