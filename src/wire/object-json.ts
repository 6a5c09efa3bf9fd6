/**
 * The JSON form of an R2Object and of a list page, as PUT, complete and list answer them
 * (docs/gateway.md, "JSON shapes"): dates as ISO 8601, checksums as hex (what
 * `R2Checksums.toJSON` gives). The gateway writes them; RemoteBucket reads them.
 */
import { checksumsToJson, type HexChecksums } from "./checksums.ts";
import { httpMetadataToJson, type R2HTTPMetadataJson } from "./http-metadata.ts";

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

/**
 * An R2Object as JSON. Metadata the binding gave is written as it gave it, and metadata it left
 * undefined is left out: R2 leaves both out of list entries not asked for with `include`, while
 * Miniflare's binding gives `{}` (workers-sdk `packages/miniflare/src/workers/r2/`), and the JSON
 * says whichever the binding behind the gateway says.
 */
export function objectToJson(object: R2Object): R2ObjectJson {
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
	if (object.httpMetadata !== undefined) json.httpMetadata = httpMetadataToJson(object.httpMetadata);
	if (object.customMetadata !== undefined) json.customMetadata = { ...object.customMetadata };
	return json;
}
