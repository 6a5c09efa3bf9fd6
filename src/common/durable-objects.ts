/**
 * How the Worker finds its Durable Objects: the one `ZoneRegistry` and the `Zone` of each zone.
 *
 * In one place, beside the classes, so the API, the edge pipeline and the dashboard address
 * the same instances. Names are stable: changing one would orphan every stored zone.
 */
import type { ZoneRegistry } from "../zone/registry";
import type { Zone } from "../zone/zone";

/** The registry's well-known name: one instance holds the list of all zones. */
const REGISTRY_NAME = "registry";

/** The stub of the zone registry (`ZoneRegistry`), the single instance named "registry". */
export function zoneRegistry(env: Env): DurableObjectStub<ZoneRegistry> {
	return env.ZONE_REGISTRY.get(env.ZONE_REGISTRY.idFromName(REGISTRY_NAME));
}

/**
 * The stub of one zone's state (`Zone`), named by the zone id (32 lower-case hex). Addressing
 * creates nothing: whether the zone exists is the registry's answer, so look it up there first.
 */
export function zoneState(env: Env, zoneId: string): DurableObjectStub<Zone> {
	return env.ZONE.get(env.ZONE.idFromName(zoneId));
}
