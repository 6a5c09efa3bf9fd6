/**
 * The value a field takes when edgezone has nothing for it: the "absent" value of its type.
 *
 * Source: the field types of Cloudflare's generated list (docs
 * `logs/logpush/logpush-job/datasets/zone/http_requests.md`, kept as the last word of each
 * description in `datasets/http-requests.ts`) and the zero values Logpush writes for a
 * field without data: `""` for strings, `0` for numbers, `false` for booleans, `[]` for
 * arrays, `{}` for objects. Where a field's own doc names its "no data" value, that value is
 * used instead: `unknown` for ClientIPClass, ClientMTLSAuthStatus and the EdgePathing* fields
 * ("unknown = no specific action / classification / no data"); `none` for ClientSSLProtocol
 * ("The value "none" means that SSL was not used": edgezone's edge serves plain HTTP).
 * Nothing is invented: a field with a local meaning gets its value from the edge (`edge/log-entry.ts`).
 */
import { HTTP_REQUESTS_FIELDS } from "./datasets/http-requests";
import type { LogValue } from "./entry";

const NAMED: Readonly<Record<string, LogValue>> = {
	ClientIPClass: "unknown",
	ClientMTLSAuthStatus: "unknown",
	EdgePathingOp: "unknown",
	EdgePathingSrc: "unknown",
	EdgePathingStatus: "unknown",
	ClientSSLProtocol: "none",
};

/** The zero value of a field's documented type. */
function zeroOf(description: string): LogValue {
	const type = description.slice(description.lastIndexOf(". ") + 2);
	if (type.startsWith("array")) return [];
	switch (type) {
		case "int":
		case "float":
		case "int or string":
			return 0;
		case "bool":
			return false;
		case "object":
			return {};
		default:
			return "";
	}
}

const ABSENT: ReadonlyMap<string, LogValue> = new Map(
	Object.entries(HTTP_REQUESTS_FIELDS).map(([name, description]) => [name, NAMED[name] ?? zeroOf(description)]),
);

/** The absent value of `field`; `""` for a name that is not a field of the dataset. */
export function absentValue(field: string): LogValue {
	return ABSENT.get(field) ?? "";
}
