/**
 * The two buckets the parity suite runs against, and its helpers.
 *
 * Every parity file runs its cases with `describe.each(BUCKETS)`: once on the `BUCKET` binding
 * (which validates the cases) and once on a RemoteBucket that reaches the same bucket through the
 * gateway (`exports.default.fetch`), which proves the HTTP surface complete. Both halves share one
 * bucket and storage is isolated per file, not per test, so every test writes under its own
 * prefix (`scope()`).
 */
import { env, exports } from "cloudflare:workers";
import { expect } from "vitest";
import { RemoteBucket } from "../../src/client";
import { bytesOf as gatewayBytesOf } from "../gateway/helpers";

/** Which half a case runs in: the binding itself, or RemoteBucket over HTTP. */
export type Kind = "binding" | "remote";

/**
 * A RemoteBucket on the Worker's front door, with the read-write token vitest.config.ts binds,
 * another token, or none (null).
 */
export function remoteBucket(token: string | null = "test-rw"): RemoteBucket {
	return new RemoteBucket({
		url: "http://gateway.test",
		token: token ?? undefined,
		fetch: (input, init) => exports.default.fetch(input, init),
	});
}

/**
 * A RemoteBucket whose answers are re-streamed through a TransformStream, so their bodies carry no
 * length, as answers of Node's fetch do (and of any fetch wrapper that re-streams them).
 */
export function lengthlessRemoteBucket(): RemoteBucket {
	return new RemoteBucket({
		url: "http://gateway.test",
		token: "test-rw",
		fetch: async (input, init) => {
			const response = await exports.default.fetch(input, init);
			if (response.body === null) return response;
			return new Response(response.body.pipeThrough(new TransformStream()), response);
		},
	});
}

/** `describe.each` rows: a name for the report, the kind, and the bucket. */
export const BUCKETS: { name: string; kind: Kind; bucket: R2Bucket }[] = [
	{ name: "env.BUCKET", kind: "binding", bucket: env.BUCKET },
	{ name: "RemoteBucket", kind: "remote", bucket: remoteBucket() },
];

/** A fresh key prefix for one test, so tests sharing the bucket never see each other's keys. */
export function scope(label: string): string {
	return `${label}/${crypto.randomUUID()}/`;
}

/**
 * Asserts that `promise` rejects with a binding error of `action` and one of `codes`, in the
 * binding's form `"<action>: <message> (<code>)"`.
 */
export async function expectR2Error(promise: Promise<unknown>, action: string, ...codes: number[]): Promise<void> {
	const error = await promise.then(
		() => undefined,
		(reason: unknown) => reason,
	);
	expect(error, `${action} should have thrown`).toBeInstanceOf(Error);
	const match = /^(\w+): ([\s\S]*) \((\d+)\)$/.exec((error as Error).message);
	expect(match, (error as Error).message).not.toBeNull();
	expect(match?.[1]).toBe(action);
	expect(codes).toContain(Number(match?.[3]));
}

/** `size` deterministic pseudo-random bytes (the gateway tests' generator), in an ArrayBuffer of their own. */
export function bytesOf(size: number, seed?: number): Uint8Array<ArrayBuffer> {
	return gatewayBytesOf(size, seed).slice();
}

/** One array holding `parts` one after the other. */
export function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
	const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
	let offset = 0;
	for (const part of parts) {
		bytes.set(part, offset);
		offset += part.byteLength;
	}
	return bytes;
}

/** Lower-case hex digest of `data`. */
export async function hexDigest(algorithm: string, data: ArrayBuffer | ArrayBufferView | string): Promise<string> {
	const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
	const digest = await crypto.subtle.digest(algorithm, bytes);
	return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Every page of a listing, following `truncated` and `cursor` (never the count). */
export async function listAll(bucket: R2Bucket, options: R2ListOptions): Promise<R2Objects[]> {
	const pages: R2Objects[] = [];
	let cursor: string | undefined;
	for (;;) {
		const page = await bucket.list({ ...options, cursor });
		pages.push(page);
		if (!page.truncated) return pages;
		cursor = page.cursor;
	}
}

/**
 * `put` that must store. The binding's types make every put nullable (its conditional overload
 * comes first), so cases that expect a stored object go through here.
 */
export async function store(
	bucket: R2Bucket,
	key: string,
	value: Parameters<R2Bucket["put"]>[1],
	options?: R2PutOptions,
): Promise<R2Object> {
	const object = await bucket.put(key, value, options);
	if (object === null) throw new Error(`put ${key} answered null`);
	return object;
}

/** Whether a get's answer carries a body: false for the metadata-only answer of a failed condition. */
export function hasBody(object: R2Object | R2ObjectBody | null): object is R2ObjectBody {
	return object !== null && "body" in object;
}
