/**
 * edgezone's Worker: the zone's API v4 under /client/v4, and the bucket gateway everywhere else.
 */
import { gateway } from "./edge/gateway/app";

export { Zone } from "./zone/zone";

export default {
	fetch(request, env, ctx) {
		return gateway.fetch(request, env, ctx);
	},
} satisfies ExportedHandler<Env>;
