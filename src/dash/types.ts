/** Hono environment of the dashboard: the Worker's bindings and what its middleware found. */
import type { Context } from "hono";
import type { Session } from "./session";

/** `c.var.session` and `c.var.csrf` on every page after sign-in; `c.var.zone` on a zone's pages. */
export interface DashEnv {
	Bindings: Env;
	Variables: {
		session: Session;
		/** The CSRF token of the session, for the page's forms. */
		csrf: string;
		/** The zone of a `/zones/{zone_id}/...` page, as the API answered it. */
		zone: { id: string; name: string };
	};
}

/** The context of a dashboard request. */
export type Ctx = Context<DashEnv>;
