/**
 * What `npx edgezone` and `startEdgezone` run with: flags and `edgezone.jsonc` read into one set of
 * options, validated before anything starts (a bad name or port is an error that says which, not a
 * wrangler failure later). Pure: no file system, no wrangler.
 */

/**
 * @typedef {object} EdgezoneOptions
 * @property {number} [port] TCP port to listen on (1-65535).
 * @property {string} [ip] address to listen on.
 * @property {string} [persistTo] directory of edgezone's generated config, secrets and local state.
 * @property {string[]} [buckets] bucket names (R2's rules), served by every dialect; the first is the gateway's default.
 * @property {string[]} [workers] paths to the wrangler configs of Workers run behind the zone.
 * @property {string} [origin] emulator default origin for proxied records (`DEFAULT_ORIGIN_URL`).
 */

/** The bucket a project gets when it names none: the one the README and docs/ use. */
const DEFAULT_BUCKET = "edgezone-bucket";

/**
 * JSONC (JSON with `//` and `/* *\/` comments and trailing commas, as editors and wrangler accept
 * it) to a value. Comments and trailing commas are removed outside strings, then JSON.parse reads
 * the rest, so every other error is JSON's own.
 * @param {string} text
 * @returns {unknown}
 * @throws SyntaxError for text that is not JSONC.
 */
export function parseJsonc(text) {
	let out = "";
	for (let i = 0; i < text.length; i++) {
		const c = text[i];
		if (c === '"') {
			const start = i;
			for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
			out += text.slice(start, i + 1);
		} else if (c === "/" && text[i + 1] === "/") {
			while (i < text.length && text[i] !== "\n") i++;
			out += "\n";
		} else if (c === "/" && text[i + 1] === "*") {
			const end = text.indexOf("*/", i + 2);
			if (end === -1) throw new SyntaxError("Unterminated /* comment");
			i = end + 1;
			out += " ";
		} else out += c;
	}
	return JSON.parse(out.replace(/,(\s*[}\]])/g, "$1"));
}

const KEYS = new Set(["$schema", "port", "ip", "persistTo", "buckets", "workers", "origin"]);

/**
 * R2's bucket name rules: 3 to 63 characters, lower-case letters, digits and hyphens, beginning
 * and ending with a letter or digit (https://developers.cloudflare.com/r2/buckets/create-buckets/).
 */
const BUCKET_NAME = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/;

/**
 * The options of `edgezone.jsonc` (`file`, already parsed) and of the flags (`flags`, which win),
 * checked. Paths are left as given: the caller resolves them.
 * @param {unknown} file the config file's value, or undefined without one.
 * @param {EdgezoneOptions} flags
 * @param {string} source the config file's name, for errors.
 * @returns {EdgezoneOptions & { buckets: string[], workers: string[] }}
 * @throws Error naming the option that is not valid.
 */
export function resolveOptions(file, flags, source = "edgezone.jsonc") {
	/** @type {Record<string, unknown>} */
	let fromFile = {};
	if (file !== undefined) {
		if (typeof file !== "object" || file === null || Array.isArray(file))
			throw new Error(`${source}: not a JSON object`);
		fromFile = /** @type {Record<string, unknown>} */ (file);
		for (const key of Object.keys(fromFile)) if (!KEYS.has(key)) throw new Error(`${source}: unknown option "${key}"`);
	}
	/** @type {Record<string, unknown>} */
	const merged = { ...fromFile };
	for (const [key, value] of Object.entries(flags)) {
		if (value !== undefined && !(Array.isArray(value) && value.length === 0)) merged[key] = value;
	}
	const port = merged.port === undefined ? undefined : Number(merged.port);
	if (port !== undefined && !(Number.isInteger(port) && port >= 1 && port <= 65535))
		throw new Error(`port: ${String(merged.port)} is not a TCP port (1-65535)`);
	const buckets = stringList(merged.buckets, "buckets") ?? [DEFAULT_BUCKET];
	if (buckets.length === 0) throw new Error("buckets: name at least one bucket");
	for (const name of buckets)
		if (!BUCKET_NAME.test(name))
			throw new Error(
				`buckets: "${name}" is not an R2 bucket name (3-63 of a-z, 0-9 and -, not starting or ending with -)`,
			);
	if (new Set(buckets).size !== buckets.length) throw new Error("buckets: a name is listed twice");
	const workers = stringList(merged.workers, "workers") ?? [];
	const origin = optionalString(merged.origin, "origin");
	if (origin !== undefined && !/^https?:\/\/[^/]/.test(origin))
		throw new Error(`origin: "${origin}" is not an http(s) URL`);
	return {
		port,
		ip: optionalString(merged.ip, "ip"),
		persistTo: optionalString(merged.persistTo, "persistTo"),
		buckets,
		workers,
		origin,
	};
}

/**
 * @param {unknown} value
 * @param {string} name
 * @returns {string[] | undefined}
 */
function stringList(value, name) {
	if (value === undefined) return undefined;
	if (!Array.isArray(value) || !value.every((item) => typeof item === "string"))
		throw new Error(`${name}: not a list of strings`);
	return value;
}

/**
 * @param {unknown} value
 * @param {string} name
 * @returns {string | undefined}
 */
function optionalString(value, name) {
	if (value === undefined) return undefined;
	if (typeof value !== "string" || value === "") throw new Error(`${name}: not a string`);
	return value;
}
