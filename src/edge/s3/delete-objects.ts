/**
 * DeleteObjects, `POST /<bucket>?delete` with `<Delete><Object><Key>…</Key></Object>…<Quiet/></Delete>`
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/API_DeleteObjects.html), on one `delete(keys)`
 * of the binding. From 1 to 1000 keys; every key is checked before any is deleted, and the body
 * against its signed hash and its Content-MD5 or `x-amz-checksum-*`, and every key against the
 * keys the caller reaches (one out of reach refuses the request), so a refused request deletes
 * nothing. A key that does not exist is reported deleted, as S3 and R2 report it. Quiet mode
 * answers only the errors, which a delete that went through has none of.
 */
import { XMLParser } from "fast-xml-parser";
import { MAX_KEY_BYTES, MAX_KEYS } from "../../wire/limits";
import { assertKey } from "../gateway/keys";
import { authorizeKey } from "./auth/permissions";
import { type DocumentLimits, xmlDocumentOf } from "./body/xml-body";
import { forgetObjects } from "./checksums/ledger-checksums";
import type { S3Context } from "./context";
import { S3Error } from "./errors";
import { S3_NAMESPACE, xmlAnswer } from "./xml";

/**
 * The largest `<Delete>` S3 takes (`xml-body.ts`). Bytes: 1000 `<Object>` (MAX_KEYS), each a key
 * of 1024 bytes (MAX_KEY_BYTES) with every byte written as an entity of at most 6 bytes (`&quot;`,
 * `&apos;`, `&#x0D;`; a 4-byte character as `&#x10FFFF;` is 2.5 bytes a byte), 1 KiB of text
 * for its other elements (VersionId, ETag, LastModifiedTime, Size), and 256 bytes of their
 * markup and indentation; then 1 KiB for `<Delete>`, `<Quiet>` and the declaration: 7,425,024
 * bytes. Elements: `<Delete>`, `<Quiet>`, and those six of each object: 6,002.
 */
const LIMITS: DocumentLimits = {
	bytes: MAX_KEYS * (6 * MAX_KEY_BYTES + 1024 + 256) + 1024,
	elements: 2 + 6 * MAX_KEYS,
};

const parser = new XMLParser({
	parseTagValue: false,
	trimValues: false,
	isArray: (name, path) => path === "Delete.Object" && name === "Object",
});

interface DeleteDocument {
	Delete?: { Object?: { Key?: unknown }[]; Quiet?: unknown };
}

/** The keys and the Quiet flag of a `<Delete>` document. @throws S3Error 400 MalformedXML. */
function parseDelete(text: string): { keys: string[]; quiet: boolean } {
	let document: DeleteDocument;
	try {
		document = parser.parse(text, true) as DeleteDocument;
	} catch {
		throw new S3Error("MalformedXML");
	}
	const objects = document.Delete?.Object ?? [];
	const keys = objects.map((object) => object.Key);
	if (keys.length === 0 || keys.length > MAX_KEYS || !keys.every((key): key is string => typeof key === "string")) {
		throw new S3Error("MalformedXML", `Send 1 to ${MAX_KEYS} <Object><Key>…</Key></Object> in <Delete>.`);
	}
	const quiet = document.Delete?.Quiet;
	if (quiet !== undefined && quiet !== "true" && quiet !== "false") throw new S3Error("MalformedXML");
	return { keys, quiet: quiet === "true" };
}

/** `POST /<bucket>?delete`: DeleteResult listing each key deleted (none when Quiet). */
export async function deleteObjects(c: S3Context): Promise<Response> {
	const { keys, quiet } = parseDelete(await xmlDocumentOf(c.request, c.caller.payloadHash, LIMITS));
	for (const key of keys) {
		assertKey(key);
		authorizeKey(c.scope, key);
	}
	await c.bucket.bucket.delete(keys);
	await forgetObjects(c, keys);
	return xmlAnswer("DeleteResult", {
		"@_xmlns": S3_NAMESPACE,
		Deleted: quiet ? [] : [...new Set(keys)].map((key) => ({ Key: key })),
	});
}
