import { api } from "./api/app";

export { Zone } from "./zone/zone";
export { ZoneRegistry } from "./zone/registry";

export default {
	async fetch(request, env, ctx): Promise<Response> {
		const url = new URL(request.url);
		if (url.pathname === "/client/v4" || url.pathname.startsWith("/client/v4/")) return api.fetch(request, env, ctx);
		return new Response("edgezone", { status: 200 });
	},
} satisfies ExportedHandler<Env>;
