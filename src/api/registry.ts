/** The one zone registry instance (see `src/zone/registry.ts`). */
import type { ZoneRegistry } from "../zone/registry";

/** The stub of the registry Durable Object, addressed by the well-known name "registry". */
export function registry(env: Env): DurableObjectStub<ZoneRegistry> {
	return env.ZONE_REGISTRY.get(env.ZONE_REGISTRY.idFromName("registry"));
}
