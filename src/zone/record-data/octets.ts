/**
 * The records whose data is a few numbers then one value of octets, written in hexadecimal or
 * Base64 (SSHFP, TLSA, SMIMEA, DS, DNSKEY, CERT): one codec made from the numbers' names and
 * bounds and the value's name and encoding. The value may be split over blanks in a zone file
 * (RFC 4034 §2.2's and RFC 6698 §2.2's presentation forms allow it); the content writes it whole.
 * Pure.
 */
import {
	base64Of,
	type DataField,
	type DataProblem,
	type DataType,
	dataProblem,
	hexOf,
	integerOf,
	integersProblem,
	type RecordData,
	recordOf,
} from "./components";

/** How the value's octets are written: hexadecimal (upper case, `hexOf`) or Base64. */
type Encoding = "hexadecimal octets" | "Base64 text";

const READERS: Record<Encoding, (text: unknown) => string | undefined> = {
	"hexadecimal octets": hexOf,
	"Base64 text": base64Of,
};

/**
 * The codec of `type`: `numbers` (each a field and its largest value, in content order) then
 * `value`, a field of octets in `encoding`.
 */
export function octetsRecord<D extends RecordData>(
	type: string,
	numbers: readonly (readonly [DataField, number])[],
	value: DataField,
	encoding: Encoding,
	example: string,
): DataType<D> {
	const read = READERS[encoding];
	return {
		fields: [...numbers.map(([field]) => field), value],
		example,
		problem(data: RecordData): DataProblem | undefined {
			return (
				integersProblem(type, data, numbers) ??
				(read(data[value]) === undefined
					? dataProblem(value, `${recordOf(type)}'s ${value} is ${encoding}`)
					: undefined)
			);
		},
		content: (data) => [...numbers.map(([field]) => data[field]), read(data[value])].join(" "),
		parse(content) {
			const words = content.trim().split(/\s+/);
			if (words.length <= numbers.length) return undefined;
			const parsed: RecordData = { [value]: words.slice(numbers.length).join("") };
			for (const [i, [field]] of numbers.entries()) Object.assign(parsed, { [field]: integerOf(words[i]) });
			return parsed as D;
		},
	};
}
