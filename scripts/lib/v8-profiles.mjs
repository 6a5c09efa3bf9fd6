// V8 profiles of the Worker `wrangler dev` runs, through wrangler's inspector proxy (the Chrome
// DevTools Protocol): a CPU profile (the Profiler domain,
// https://chromedevtools.github.io/devtools-protocol/tot/Profiler/), summed per function: where a
// request's JavaScript time goes, calls into the runtime included (a native call's time is the
// caller's, or its own entry such as `fetch`); and a sampled heap profile (the HeapProfiler
// domain, https://chromedevtools.github.io/devtools-protocol/tot/HeapProfiler/): what a request
// allocates, per function, the objects the garbage collector already took included.

import { fmt } from "./bench.mjs";

/**
 * A session with the Worker's inspector: `send(method, params)` answers the method's result;
 * `close()` ends it.
 * @throws Error when the inspector does not answer within 30 s, or Node has no WebSocket (before 22).
 */
async function inspectorSession(inspectorPort) {
	if (typeof WebSocket === "undefined")
		throw new Error("a V8 profile needs Node 22's WebSocket: run it with the project's Node, `npx node scripts/…`");
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
	return { send, close: () => socket.close() };
}

/**
 * Profiles the Worker while `work` runs, and answers the time per function in µs per `requests`:
 * `self` (in the function itself) and `total` (with what it called), each a Map of
 * "name file:line" to µs, and `sampleUs`, the mean interval between samples.
 * @param inspectorPort the port given to `wrangler dev --inspector-port`.
 * @throws Error when the inspector does not answer within 30 s, or Node has no WebSocket (before 22).
 */
export async function cpuProfile(inspectorPort, requests, work) {
	const { send, close } = await inspectorSession(inspectorPort);
	try {
		await send("Profiler.enable");
		// The finest the runtime keeps up with; what it achieves is `sampleUs`.
		await send("Profiler.setSamplingInterval", { interval: 100 });
		await send("Profiler.start");
		await work();
		const { profile } = await send("Profiler.stop");
		return summarize(profile, requests);
	} finally {
		close();
	}
}

/**
 * A sampled heap profile of the Worker while `work` runs: the bytes allocated per `requests`,
 * `total`, and per function, `self` (a Map of "name file:line" to bytes, by what the function
 * allocated itself). A sample every 64 bytes on average; the objects the minor and major
 * collections took are kept in the profile, so it counts what was allocated, not what is alive.
 * @throws Error as `inspectorSession` does.
 */
export async function heapProfile(inspectorPort, requests, work) {
	const { send, close } = await inspectorSession(inspectorPort);
	try {
		await send("HeapProfiler.enable");
		await send("HeapProfiler.startSampling", {
			samplingInterval: 64,
			includeObjectsCollectedByMajorGC: true,
			includeObjectsCollectedByMinorGC: true,
		});
		await work();
		const { profile } = await send("HeapProfiler.stopSampling");
		const self = new Map();
		let total = 0;
		const walk = (node) => {
			const name = nameOf(node);
			self.set(name, (self.get(name) ?? 0) + node.selfSize / requests);
			total += node.selfSize / requests;
			for (const child of node.children) walk(child);
		};
		walk(profile.head);
		return { total, self };
	} finally {
		close();
	}
}

/** "name file:line" of a profile node's call frame. */
const nameOf = ({ callFrame }) =>
	`${callFrame.functionName || "(anonymous)"} ${callFrame.url.split("/").at(-1)}:${callFrame.lineNumber + 1}`;

/** Self and total µs per request for each function of a `Profiler.Profile`. */
function summarize(profile, requests) {
	const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
	const hits = new Map();
	for (const sample of profile.samples) hits.set(sample, (hits.get(sample) ?? 0) + 1);
	const sampleUs = (profile.endTime - profile.startTime) / profile.samples.length;
	const self = new Map();
	const total = new Map();
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

/** The `top` heaviest entries of a per-function map, one line each: "µs  name" (or bytes). */
export function heaviest(map, top) {
	return [...map]
		.sort((a, b) => b[1] - a[1])
		.slice(0, top)
		.map(([name, us]) => `${fmt(us, 1).padStart(8)}  ${name}`)
		.join("\n");
}
