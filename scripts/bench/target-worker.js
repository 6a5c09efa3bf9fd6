// The Worker behind the route in scripts/bench-workers-route.mjs: answers a path ending in /1k with
// 1 KiB and one ending in /64m with 64 MiB (the floor hands it `/__worker-floor/1k` as it came),
// from memory (no storage), typed application/octet-stream so that Miniflare's emulation of
// Cloudflare's compression leaves both alone. Plain JavaScript, run by wrangler dev as the
// benchmark's second config.
const SIZES = { "/1k": 1024, "/64m": 64 * 1024 * 1024 };
const BODIES = new Map();

export default {
	fetch(request) {
		const path = new URL(request.url).pathname;
		const size = SIZES[path.slice(path.lastIndexOf("/"))];
		if (size === undefined) return new Response(null, { status: 404 });
		let body = BODIES.get(size);
		if (body === undefined) {
			body = new Uint8Array(size).fill(0x61);
			BODIES.set(size, body);
		}
		return new Response(body, { headers: { "content-type": "application/octet-stream" } });
	},
};
