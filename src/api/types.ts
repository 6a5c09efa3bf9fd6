/** Hono environment of the API app: bindings and the per-request variables set by middleware. */
import type { Zone as ZoneObject } from "cloudflare/resources/zones/zones";
import type { Zone } from "../zone/zone";
import type { Caller } from "./auth";

/** `c.env` is the Worker's Env; `c.var` holds what `auth` and `zoneAccess` found. */
export interface ApiEnv {
	Bindings: Env;
	Variables: {
		caller: Caller;
		/** The zone of a `/zones/{zone_id}/...` path, from the registry. */
		zone: ZoneObject;
		/** The zone's Durable Object. */
		zoneState: DurableObjectStub<Zone>;
	};
}
