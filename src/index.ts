export { Zone } from "./zone/zone";

export default {
	async fetch(): Promise<Response> {
		return new Response("edgezone", { status: 200 });
	},
} satisfies ExportedHandler<Env>;
