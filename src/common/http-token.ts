/**
 * RFC 9110 §5.6.2's token (https://www.rfc-editor.org/rfc/rfc9110#section-5.6.2): the characters a
 * header name may hold, and (RFC 6265 §4.1.1) a cookie name. Shared by the names a log custom
 * field may take (`zone/phases/log-custom-fields.ts`) and the custom metadata names an answer can
 * carry as headers (`wire/custom-metadata.ts`).
 */
export const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * A comma-separated header's values (RFC 9110 §5.6.1 lists), trimmed, lower case, empty ones
 * left out: the names of `Access-Control-Request-Headers` (`edge/gateway/cors.ts`), the trailers
 * of `x-amz-trailer` (`edge/s3/body/body.ts`).
 */
export const headerList = (value: string | null): string[] =>
	(value ?? "")
		.split(",")
		.map((part) => part.trim().toLowerCase())
		.filter((part) => part !== "");
