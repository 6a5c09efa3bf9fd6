import type { Context } from "hono";

/** Hono environment of the gateway: the Worker's bindings and the key the request names. */
export interface GatewayEnv {
	Bindings: Env;
	Variables: { key: string };
}

/** The context every gateway handler receives. */
export type GatewayContext = Context<GatewayEnv>;
