/**
 * edgezone's Worker: the zone's API v4 under /client/v4 (on every host), the dashboard on the
 * host DASHBOARD_HOST, and the edge (firewall, then the bucket gateway) everywhere else.
 */
import { api } from "./api/app";
import { dash } from "./dash/app";
import { edge } from "./edge/pipeline";
import { reportMissingSecrets } from "./startup";

export { BucketLedger } from "./bucket/bucket-ledger";
export { ZoneRegistry } from "./zone/registry";
export { Zone } from "./zone/zone";

/** Whether a path belongs to the API v4 rather than naming an object key. */
function isApiPath(pathname: string): boolean {
	return pathname === "/client/v4" || pathname.startsWith("/client/v4/");
}

export default {
	fetch(request, env, ctx) {
		reportMissingSecrets(env);
		const url = new URL(request.url);
		if (isApiPath(url.pathname)) return api.fetch(request, env, ctx);
		// Its own host, so no object key is shadowed by a dashboard path.
		if (url.hostname === env.DASHBOARD_HOST) return dash.fetch(request, env, ctx);
		return edge(request, url, env, ctx);
	},
} satisfies ExportedHandler<Env>;
