/**
 * URI records (RFC 7553): `data: {weight, target}` with the record's `priority` (TS SDK
 * `URIRecord`: "Required for MX and URI records"; the data map's own `priority` read too, as the
 * SDK says it is to replace the record's), the content `weight "target"` with the priority beside
 * it, as SRV's (`srv.ts`). Pure.
 */
import {
	type DataProblem,
	type DataType,
	dataProblem,
	integerOf,
	integersProblem,
	quoted,
	type RecordData,
	words,
} from "./components";

/** A URI record's checked components, its priority among them. */
export interface UriData {
	priority: number;
	weight: number;
	target: string;
}

/** A URI with its scheme (RFC 3986 §3.1), printable ASCII without blanks, at most 4,096 characters. */
const TARGET = /^[A-Za-z][A-Za-z0-9+.-]*:[\x21-\x7e]{1,4080}$/;

/**
 * Why `data` is not a URI record's: priority (when given: without one, the record's check answers
 * Cloudflare's 9100) and weight 16-bit integers, a target that is a URI (RFC 7553 §4).
 */
function problem(data: RecordData): DataProblem | undefined {
	const numbers = integersProblem("URI", data, [
		...(data.priority === undefined ? [] : [["priority", 65535] as const]),
		["weight", 65535],
	]);
	if (numbers !== undefined) return numbers;
	return typeof data.target === "string" && TARGET.test(data.target)
		? undefined
		: dataProblem("target", "A URI record's target is a URI with its scheme, such as https://example.com/");
}

/** URI: a service's URI (RFC 7553), read from `weight "target"` and the priority apart, or a zone file's `priority weight "target"`. */
export const URI: DataType<UriData> = {
	fields: ["weight", "target"],
	example: '10 1 "https://example.com/"',
	problem,
	content: (data) => `${data.weight} ${quoted(data.target)}`,
	presentation: (data) => `${data.priority} ${data.weight} ${quoted(data.target)}`,
	parse(content, priority) {
		const parts = words(content);
		if (parts?.length === 2 && priority !== undefined)
			return { priority, weight: integerOf(parts[0]), target: parts[1] ?? "" };
		if (parts?.length === 3)
			return { priority: integerOf(parts[0]), weight: integerOf(parts[1]), target: parts[2] ?? "" };
		return undefined;
	},
	priority: (data) => data.priority,
};
