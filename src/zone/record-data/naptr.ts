/**
 * NAPTR records (RFC 3403 §4.1): `data: {order, preference, flags, service, regex, replacement}`
 * (TS SDK `NAPTRRecord.Data`), the content `order preference "flags" "service" "regex"
 * replacement`, the three strings quoted as a zone file writes them. Pure.
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
import { absolute, isHostName, storedHost } from "./names";

/** A NAPTR record's checked components. */
export interface NaptrData {
	order: number;
	preference: number;
	flags: string;
	service: string;
	regex: string;
	replacement: string;
}

/** One character-string of at most 255 printable ASCII characters (RFC 1035 §3.3). */
const STRING = /^[\x20-\x7e]{0,255}$/;

/**
 * Why `data` is not a NAPTR record's: order and preference 16-bit integers; flags letters and
 * digits ("The flags are single characters from the set A-Z and 0-9", RFC 3403 §4.1); service
 * and regex character-strings; a replacement that is a host name or `.`. The messages are
 * edgezone's.
 */
function problem(data: RecordData): DataProblem | undefined {
	const numbers = integersProblem("NAPTR", data, [
		["order", 65535],
		["preference", 65535],
	]);
	if (numbers !== undefined) return numbers;
	if (typeof data.flags !== "string" || !/^[A-Za-z0-9]*$/.test(data.flags))
		return dataProblem("flags", "A NAPTR record's flags are letters and digits, such as U or S");
	for (const field of ["service", "regex"] as const) {
		const value = data[field];
		if (typeof value !== "string" || !STRING.test(value))
			return dataProblem(field, `A NAPTR record's ${field} is at most 255 printable ASCII characters`);
	}
	const replacement = storedHost(data.replacement ?? "");
	if (replacement !== "." && !isHostName(replacement))
		return dataProblem("replacement", "A NAPTR record's replacement must be a valid hostname, or .");
	return undefined;
}

function text(data: NaptrData, replacement: string): string {
	return `${data.order} ${data.preference} ${quoted(data.flags)} ${quoted(data.service)} ${quoted(data.regex)} ${replacement}`;
}

/** NAPTR: a rule that rewrites a name into a service's URI or another name (RFC 3403). */
export const NAPTR: DataType<NaptrData> = {
	fields: ["order", "preference", "flags", "service", "regex", "replacement"],
	example: '100 10 "U" "E2U+sip" "!^.*$!sip:info@example.com!" .',
	problem,
	content: (data) => text(data, storedHost(data.replacement)),
	presentation: (data) => text(data, absolute(storedHost(data.replacement))),
	parse(content) {
		const parts = words(content);
		if (parts?.length !== 6) return undefined;
		const [order, preference, flags = "", service = "", regex = "", replacement = ""] = parts;
		return {
			order: integerOf(order),
			preference: integerOf(preference),
			flags,
			service,
			regex,
			replacement: storedHost(replacement),
		};
	},
	nameWords: [5],
};
