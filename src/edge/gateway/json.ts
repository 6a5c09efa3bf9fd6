/**
 * The JSON form of an R2Object, as PUT, complete and list answer it (docs/gateway.md, "JSON
 * shapes"): dates as ISO 8601, checksums as hex (what `R2Checksums.toJSON` gives).
 */
import { z } from "zod";
import { toHex } from "../../common/encoding";
import { badRequest } from "./errors";
import { CHECKSUMS } from "./headers";

/** httpMetadata with `cacheExpiry` as ISO 8601. */
export type R2HTTPMetadataJson = Omit<R2HTTPMetadata, "cacheExpiry"> & { cacheExpiry?: string };

/** An R2Object on the wire. */
export interface R2ObjectJson {
	key: string;
	version: string;
	size: number;
	etag: string;
	httpEtag: string;
	uploaded: string;
	httpMetadata?: R2HTTPMetadataJson;
	customMetadata?: Record<string, string>;
	checksums: Partial<Record<(typeof CHECKSUMS)[number]["name"], string>>;
	storageClass: string;
}

/** An R2Objects list result on the wire; `cursor` only when `truncated`. */
export interface R2ObjectsJson {
	objects: R2ObjectJson[];
	truncated: boolean;
	cursor?: string;
	delimitedPrefixes: string[];
}

/** Which metadata a list asked for; reads and writes always carry both. */
export interface Include {
	httpMetadata: boolean;
	customMetadata: boolean;
}

const ALL: Include = { httpMetadata: true, customMetadata: true };

/** An R2Object as JSON; metadata not in `include` is left out, as a list without `include` has none. */
export function objectToJson(object: R2Object, include: Include = ALL): R2ObjectJson {
	const json: R2ObjectJson = {
		key: object.key,
		version: object.version,
		size: object.size,
		etag: object.etag,
		httpEtag: object.httpEtag,
		uploaded: object.uploaded.toISOString(),
		checksums: checksumsToJson(object.checksums),
		storageClass: object.storageClass,
	};
	if (include.httpMetadata) {
		const { cacheExpiry, ...rest } = object.httpMetadata ?? {};
		json.httpMetadata = cacheExpiry === undefined ? rest : { ...rest, cacheExpiry: cacheExpiry.toISOString() };
	}
	if (include.customMetadata) json.customMetadata = { ...object.customMetadata };
	return json;
}

/** Stored checksums as hex, what the binding's `R2Checksums.toJSON()` gives. */
export function checksumsToJson(checksums: R2Checksums): R2ObjectJson["checksums"] {
	const json: R2ObjectJson["checksums"] = {};
	for (const { name } of CHECKSUMS) {
		const digest = checksums[name];
		if (digest) json[name] = toHex(new Uint8Array(digest));
	}
	return json;
}

/**
 * A request's JSON body, validated by `schema`.
 * @param shape how the body should look, for the error message.
 * @throws GatewayError 400 when the body is not JSON or not of the schema.
 */
export async function readJsonBody<T>(request: Request, schema: z.ZodType<T>, shape: string): Promise<T> {
	let json: unknown;
	try {
		json = await request.json();
	} catch {
		throw badRequest(`The body must be JSON: ${shape}.`);
	}
	const parsed = schema.safeParse(json);
	if (!parsed.success) throw badRequest(`The body must be ${shape}: ${z.prettifyError(parsed.error)}`);
	return parsed.data;
}
