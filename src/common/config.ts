/**
 * Configuration held in JSON vars and secrets (`API_CREDENTIALS`, `GATEWAY_TOKENS`,
 * `LOGPUSH_BUCKETS`): parsed with zod once per value, so a request never re-parses them.
 */
import { z } from "zod";

/** A var or secret whose value is not what its schema says: a deployment mistake, answered as a 500. */
export class ConfigError extends Error {
	/** @param variable the var or secret; `detail` says what is wrong with it. */
	constructor(
		readonly variable: string,
		detail: string,
	) {
		super(`${variable} is not valid: ${detail}`);
		this.name = "ConfigError";
	}
}

const parsed = new Map<string, { raw: string; value: unknown }>();

/**
 * The value of the JSON var `name`, validated by `schema`; cached per (name, raw value), since
 * vars stay the same for an isolate's life.
 * @throws ConfigError when `raw` is absent, not JSON, or not of the schema.
 */
export function jsonVar<S extends z.ZodType>(name: string, raw: string | undefined, schema: S): z.output<S> {
	const cached = parsed.get(name);
	if (cached !== undefined && cached.raw === raw) return cached.value as z.output<S>;
	if (raw === undefined || raw === "") throw new ConfigError(name, "it is not set");
	let json: unknown;
	try {
		json = JSON.parse(raw);
	} catch (error) {
		throw new ConfigError(name, `it is not JSON (${String(error)})`);
	}
	const result = schema.safeParse(json);
	if (!result.success) throw new ConfigError(name, z.prettifyError(result.error));
	parsed.set(name, { raw, value: result.data });
	return result.data;
}
