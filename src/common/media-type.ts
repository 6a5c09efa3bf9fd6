/**
 * The essence of a `Content-Type` value (RFC 9110 §8.3.1): its type/subtype, lower case, without
 * parameters ("text/html" of "Text/HTML; charset=utf-8"); "" when the value is absent or empty.
 */
export function mediaTypeEssence(contentType: string | null): string {
	return (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}
