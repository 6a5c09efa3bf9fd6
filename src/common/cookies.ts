/**
 * The one splitter of a `Cookie` request header, shared by the firewall's `http.request.cookies`
 * (`edge/request-fields.ts`) and the logs' `Cookies` custom field (`logs/custom-field-objects.ts`).
 */

/**
 * Calls `each` with the name and value of every `name=value` pair of a `Cookie` header, in the
 * order sent (RFC 6265 §5.4, https://www.rfc-editor.org/rfc/rfc6265#section-5.4: pairs joined by
 * "; "), both trimmed, names as sent (not decoded); a pair without "=" is skipped.
 */
export function forEachCookie(header: string, each: (name: string, value: string) => void): void {
	for (const pair of header.split(";")) {
		const equals = pair.indexOf("=");
		if (equals !== -1) each(pair.slice(0, equals).trim(), pair.slice(equals + 1).trim());
	}
}
