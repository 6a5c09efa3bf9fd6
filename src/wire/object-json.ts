/**
 * The JSON form of an R2Object and of a list page, as PUT, complete and list answer them
 * (docs/gateway.md, "JSON shapes"): dates as ISO 8601, checksums as hex (what
 * `R2Checksums.toJSON` gives). The gateway writes them; RemoteBucket reads them.
 */
import { checksumsToJson, type HexChecksums } from "./checksums";
import { httpMetadataToJson, type R2HTTPMetadataJson } from "./http-metadata";
import type { IncludeValue } from "./limits";

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
	checksums: HexChecksums;
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
export type Include = Record<IncludeValue, boolean>;

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
	if (include.httpMetadata) json.httpMetadata = httpMetadataToJson(object.httpMetadata ?? {});
	if (include.customMetadata) json.customMetadata = { ...object.customMetadata };
	return json;
}
