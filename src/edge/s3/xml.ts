/**
 * S3's XML documents, built with fast-xml-parser rather than string templates, so every key,
 * prefix and message is escaped the one way (`&`, `<`, `>`, `'`, `"`).
 *
 * Success documents carry S3's namespace; error documents do not, as S3 and R2 answer them
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html, "REST error responses").
 */
import { XMLBuilder } from "fast-xml-parser";

/** The namespace of S3's documents (https://docs.aws.amazon.com/AmazonS3/latest/API/API_ListObjectsV2.html). */
export const S3_NAMESPACE = "http://s3.amazonaws.com/doc/2006-03-01/";

/** A document's content: elements by name; arrays repeat an element; `@_xmlns` is the root's namespace. */
export type XmlContent = { [name: string]: XmlValue };
type XmlValue = string | number | boolean | XmlContent | XmlContent[] | string[];

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: "@_", suppressEmptyNode: false });

/** One XML document: the declaration, then `<root>` holding `content`. */
export function xmlDocument(root: string, content: XmlContent): string {
	return `<?xml version="1.0" encoding="UTF-8"?>${builder.build({ [root]: content })}`;
}

/** A 200 (or `status`) answer carrying an XML document. */
export function xmlAnswer(
	root: string,
	content: XmlContent,
	init: { status?: number; headers?: Headers } = {},
): Response {
	const headers = new Headers(init.headers);
	headers.set("content-type", "application/xml");
	return new Response(xmlDocument(root, content), { status: init.status ?? 200, headers });
}
