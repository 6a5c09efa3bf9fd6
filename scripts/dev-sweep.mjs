// Run by `npm run dev` with wrangler dev's arguments, before wrangler starts: frees the blob files
// that refused uploads left in the state directory (scripts/lib/orphan-blobs.mjs says why they
// stay). It never stops dev from starting: whatever happens, it exits 0 and says what it did.
import { dirname, resolve } from "node:path";
import { sweepOrphanBlobs } from "./lib/orphan-blobs.mjs";

/**
 * The directory wrangler dev keeps its state in for these arguments: `--persist-to DIR` (or
 * `--persist-to=DIR`) relative to the working directory, else `.wrangler/state` next to the
 * configuration file (`--config`/`-c`, default `wrangler.toml` here), as wrangler resolves it
 * (workers-sdk, packages/wrangler/src/dev/get-local-persistence-path.ts).
 * @param {string[]} args
 */
function persistDirOf(args) {
	/** @param {string[]} names */
	const option = (names) => {
		let value;
		for (let i = 0; i < args.length; i++) {
			const arg = args[i] ?? "";
			for (const name of names) {
				if (arg === name) value = args[++i];
				else if (arg.startsWith(`${name}=`)) value = arg.slice(name.length + 1);
			}
		}
		return value;
	};
	const persistTo = option(["--persist-to", "--persistTo"]);
	if (persistTo !== undefined) return resolve(persistTo);
	return resolve(dirname(option(["--config", "-c"]) ?? "wrangler.toml"), ".wrangler", "state");
}

const dir = persistDirOf(process.argv.slice(2));
try {
	const result = await sweepOrphanBlobs(dir);
	if (result.kind === "refused") {
		console.log(`Left the blobs in ${dir} alone: ${result.reason}.`);
	} else {
		if (result.freedBlobs > 0) {
			const kib = result.freedBytes / 1024;
			const size = kib < 1024 ? `${kib.toFixed(1)} KiB` : `${(kib / 1024).toFixed(1)} MiB`;
			console.log(`Freed ${size} of ${result.freedBlobs} blobs left by refused uploads in ${dir}.`);
		}
		if (result.youngBlobs > 0) {
			console.log(
				`Kept ${result.youngBlobs} unreferenced blobs in ${dir} younger than a minute: another wrangler dev may be writing them.`,
			);
		}
	}
} catch (error) {
	console.log(`Left the blobs in ${dir} alone: ${error instanceof Error ? error.message : String(error)}.`);
}
