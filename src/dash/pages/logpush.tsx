/** The Logpush page of a zone (Analytics & Logs > Logpush). */
import { Hono } from "hono";
import { Layout } from "../layout";
import { render } from "../render";
import type { DashEnv } from "../types";

/** Routes under `/zones/{zone_id}/logpush`. */
export const logpush = new Hono<DashEnv>().get("/", (c) =>
	render(
		c,
		<Layout title="Logpush" csrf={c.var.csrf} zone={{ ...c.var.zone, page: "logpush" }}>
			<h1>Logpush</h1>
		</Layout>,
	),
);
