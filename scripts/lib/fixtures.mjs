// The fixture catalogue: every real input file the gateway tests in Node upload, with its content type,
// and how the generated ones are made. Hashes live in fixtures/SHA256SUMS (committed), so a
// regenerated file is checked to be byte for byte the one the catalogue promises.

import { createHash } from "node:crypto";
import {
	createReadStream,
	createWriteStream,
	existsSync,
	mkdirSync,
	readFileSync,
	renameSync,
	statSync,
	writeFileSync,
} from "node:fs";
import { dirname, join, relative } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { mandelbrotPng } from "./png.mjs";
import { prngChunks } from "./prng.mjs";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const FIXTURES_DIR = join(ROOT, "fixtures");
const SUMS = join(FIXTURES_DIR, "SHA256SUMS");

export const MiB = 1024 * 1024;

/**
 * The fixtures. `generate` makes a file from nothing (deterministically); files without it are
 * written by hand. `committed: false` files live in fixtures/generated/ (git-ignored).
 */
const FIXTURES = [
	{ name: "text", path: "text/edge-notes.txt", contentType: "text/plain; charset=utf-8" },
	{ name: "json", path: "json/edge-locations.json", contentType: "application/json" },
	{ name: "image", path: "image/mandelbrot.png", contentType: "image/png", generate: () => [mandelbrotPng()] },
	{
		name: "binary",
		path: "binary/seeded-3MiB.bin",
		contentType: "application/octet-stream",
		// 3 MiB and an odd tail, so ranges and sizes are not all powers of two.
		generate: () => prngChunks("fixtures/binary", 3 * MiB + 12345),
	},
	{
		name: "large",
		path: "generated/large-80MiB.bin",
		contentType: "application/octet-stream",
		committed: false,
		// Ten 8 MiB parts and a short eleventh: over the 64 MiB the issue asks for.
		generate: () => prngChunks("fixtures/large", 80 * MiB + 4321),
	},
];

function fixturePath(fixture) {
	return join(FIXTURES_DIR, fixture.path);
}

/** SHA-256 (hex) of a file, read as a stream. */
async function sha256File(path, options = {}) {
	const hash = createHash("sha256");
	for await (const chunk of createReadStream(path, options)) hash.update(chunk);
	return hash.digest("hex");
}

/** The committed hashes: fixture path -> hex. */
function readSums() {
	if (!existsSync(SUMS)) return new Map();
	const lines = readFileSync(SUMS, "utf8").split("\n").filter(Boolean);
	return new Map(
		lines.map((line) => {
			const [hex, path] = line.split(/\s+\*?/, 2);
			return [path, hex];
		}),
	);
}

/**
 * Makes every generated fixture that is missing or differs from SHA256SUMS, then checks all of
 * them. Idempotent: a second run only reads. With `writeSums`, records the hashes instead of
 * checking them (for when a fixture is changed on purpose). Returns [{fixture, sha256, size, made}].
 */
export async function ensureFixtures({ writeSums = false, log = () => {} } = {}) {
	const sums = readSums();
	const results = [];
	for (const fixture of FIXTURES) {
		const path = fixturePath(fixture);
		let made = false;
		let sha256 = existsSync(path) ? await sha256File(path) : undefined;
		if (fixture.generate && (sha256 === undefined || (!writeSums && sha256 !== sums.get(fixture.path)))) {
			mkdirSync(dirname(path), { recursive: true });
			const partial = `${path}.partial`;
			await pipeline(Readable.from(fixture.generate()), createWriteStream(partial));
			renameSync(partial, path);
			sha256 = await sha256File(path);
			made = true;
		}
		if (sha256 === undefined) throw new Error(`missing fixture ${relative(ROOT, path)}`);
		if (!writeSums && sha256 !== sums.get(fixture.path)) {
			throw new Error(`fixture ${fixture.path}: sha-256 ${sha256}, SHA256SUMS says ${sums.get(fixture.path)}`);
		}
		const size = statSync(path).size;
		log(`${made ? "made " : "kept "} ${fixture.path} (${size} bytes) sha256 ${sha256}`);
		results.push({ fixture, path, sha256, size, made });
	}
	if (writeSums) {
		writeFileSync(SUMS, results.map((r) => `${r.sha256}  ${r.fixture.path}\n`).join(""));
		log(`wrote ${relative(ROOT, SUMS)}`);
	}
	return results;
}
