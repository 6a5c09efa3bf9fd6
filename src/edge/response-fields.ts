/**
 * The response fields of the Rules language (`RESPONSE_FIELDS` in `rules-language/fields.ts`),
 * read from the answer a response phase is given: its status and its headers as the phase
 * received them (docs fields/reference/http.response.code: "The HTTP status code returned to the
 * client, either set by a Cloudflare product or returned by the origin server"; http.response.headers:
 * names in lower case, each with its values; raw.http.response.headers: "not affected by the
 * actions of previously matched rules"). A phase's rules are all matched against the values read
 * before its first rule changed anything, so `http.response.headers` and its `raw.` twin hold
 * the same values here, as `http.request.headers` does for the request header rules.
 */
import { mediaTypeEssence } from "../common/media-type";
import { headerValues } from "./request-fields";

/** The response fields' values by name; a name not asked for, or with no value, is absent. */
type ResponseValues = Record<string, unknown>;

/**
 * The values of the response fields among `names` (what a phase's rules read) for `response`;
 * its headers are read once, and only when a header field is asked for.
 */
export function responseFields(response: Response, names: readonly string[]): ResponseValues {
	const values: ResponseValues = {};
	let headers: Record<string, string[]> | undefined;
	const headerMap = () => {
		headers ??= headerValues(response.headers);
		return headers;
	};
	for (const name of names) {
		switch (name) {
			case "http.response.code":
				values[name] = response.status;
				break;
			case "http.response.content_type.media_type": {
				const type = mediaTypeEssence(response.headers.get("content-type"));
				if (type !== "") values[name] = type;
				break;
			}
			case "http.response.headers":
			case "raw.http.response.headers":
				values[name] = headerMap();
				break;
			case "http.response.headers.names":
			case "raw.http.response.headers.names":
				values[name] = Object.keys(headerMap());
				break;
			case "http.response.headers.values":
			case "raw.http.response.headers.values":
				values[name] = Object.values(headerMap()).flat();
				break;
		}
	}
	return values;
}
