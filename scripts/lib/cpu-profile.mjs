// A V8 CPU profile of the Worker `wrangler dev` runs, through wrangler's inspector proxy (the
// Chrome DevTools Protocol's Profiler domain, https://chromedevtools.github.io/devtools-protocol/tot/Profiler/),
// summed per function: where a request's JavaScript time goes, calls into the runtime included
// (a native call's time is the caller's, or its own entry such as `fetch`).

import { fmt } from "./bench.mjs";

/**
 * Profiles the Worker while `work` runs, and answers the time per function in µs per `requests`:
 * `self` (in the function itself) and `total` (with what it called), each a Map of
 * "name file:line" to µs, and `sampleUs`, the mean interval between samples.
 * @param inspectorPort the port given to `wrangler dev --inspector-port`.
 * @throws Error when the inspector does not answer within 30 s, or Node has no WebSocket (before 22).
 */
export async function cpuProfile(inspectorPort, requests, work) {
	if (typeof WebSocket === "undefined")
		throw new Error("a CPU profile needs Node 22's WebSocket: run it with the project's Node, `npx node scripts/…`");
	// wrangler's proxy refuses a client with a User-Agent but no Origin (its DevTools check).
	const socket = new WebSocket(`ws://127.0.0.1:${inspectorPort}/ws`, { headers: { Origin: "http://localhost" } });
	const replies = new Map();
	socket.addEventListener("message", (event) => {
		const message = JSON.parse(String(event.data));
		replies.get(message.id)?.(message);
	});
	await new Promise((resolve, reject) => {
		socket.addEventListener("open", resolve);
		socket.addEventListener("error", () => reject(new Error(`no inspector on port ${inspectorPort}`)));
	});
	let id = 0;
	const send = (method, params = {}) =>
		new Promise((resolve, reject) => {
			const sent = ++id;
			const timer = setTimeout(() => reject(new Error(`inspector: no answer to ${method}`)), 30_000);
			replies.set(sent, (message) => {
				clearTimeout(timer);
				replies.delete(sent);
				resolve(message.result);
			});
			socket.send(JSON.stringify({ id: sent, method, params }));
		});
	try {
		await send("Profiler.enable");
		// The finest the runtime keeps up with; what it achieves is `sampleUs`.
		await send("Profiler.setSamplingInterval", { interval: 100 });
		await send("Profiler.start");
		await work();
		const { profile } = await send("Profiler.stop");
		return summarize(profile, requests);
	} finally {
		socket.close();
	}
}

/** Self and total µs per request for each function of a `Profiler.Profile`. */
function summarize(profile, requests) {
	const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
	const hits = new Map();
	for (const sample of profile.samples) hits.set(sample, (hits.get(sample) ?? 0) + 1);
	const sampleUs = (profile.endTime - profile.startTime) / profile.samples.length;
	const self = new Map();
	const total = new Map();
	const nameOf = ({ callFrame }) =>
		`${callFrame.functionName || "(anonymous)"} ${callFrame.url.split("/").at(-1)}:${callFrame.lineNumber + 1}`;
	// Depth first; a function's total counts once however deep it recurses.
	const walk = (node, open) => {
		const name = nameOf(node);
		let sum = hits.get(node.id) ?? 0;
		self.set(name, (self.get(name) ?? 0) + sum);
		const inner = new Set(open).add(name);
		for (const child of node.children ?? []) sum += walk(nodes.get(child), inner);
		if (!open.has(name)) total.set(name, (total.get(name) ?? 0) + sum);
		return sum;
	};
	walk(profile.nodes[0], new Set());
	const perRequest = (map) => new Map([...map].map(([name, count]) => [name, (count * sampleUs) / requests]));
	return { self: perRequest(self), total: perRequest(total), sampleUs };
}

/** The `top` heaviest entries of a per-function map, one line each: "µs  name". */
export function heaviest(map, top) {
	return [...map]
		.sort((a, b) => b[1] - a[1])
		.slice(0, top)
		.map(([name, us]) => `${fmt(us, 1).padStart(8)}  ${name}`)
		.join("\n");
}
