import { DurableObject } from "cloudflare:workers";

/**
 * All state of one zone: rulesets, log-push jobs, filters, firewall rules,
 * custom hostnames and certificate packs, in SQLite storage.
 *
 * One instance per zone, addressed with `env.ZONE.idFromName(zone_id)`.
 * Each control-plane write is one RPC method running in one transaction
 * (ARCHITECTURE.md, "A zone is a Durable Object").
 */
export class Zone extends DurableObject<Env> {}
