/**
 * CAA records (RFC 8659): `data: {flags, tag, value}` (TS SDK `CAARecord.Data`: `tag` "e.g.:
 * issue, issuewild, iodef"), the content derived as `0 issue "letsencrypt.org"`. Pure.
 */
import { type DataProblem, type DataType, dataProblem, INVALID, quoted, type RecordData, words } from "./components";

/** A CAA record's checked components. */
export interface CaaData {
	flags: number;
	tag: string;
	value: string;
}

/** The property tags a CAA record may hold here: the three RFC 8659 §4 defines, the SDK's examples. */
const CAA_TAGS = ["issue", "issuewild", "iodef"] as const;

/**
 * Why `data` is not a CAA record's: flags an integer of 0 to 255 (one octet, RFC 8659 §4.1), as a
 * number ("Invalid CAA flag. Must be an integer", code 9053, observed for `"flags": "0"` in the
 * 1004 chain, gist.github.com/graemer957/a73d706a8c0f0739744fedd5227e3f59); a tag edgezone knows;
 * a value of 1 to 255 printable ASCII characters (one character-string, RFC 1035 §3.3; RFC 8659
 * §4.1.1 keeps values to ASCII). The other messages are edgezone's.
 */
function problem(data: RecordData): DataProblem | undefined {
	const { flags } = data;
	if (typeof flags !== "number" || !Number.isInteger(flags) || flags < 0 || flags > 255)
		return { code: 9053, message: "Invalid CAA flag. Must be an integer", field: "data/flags" };
	if (!(CAA_TAGS as readonly string[]).includes(data.tag ?? ""))
		return { code: INVALID, message: `Invalid CAA tag. Must be one of ${CAA_TAGS.join(", ")}`, field: "data/tag" };
	if (typeof data.value !== "string" || !/^[\x20-\x7e]{1,255}$/.test(data.value))
		return dataProblem("value", "Invalid CAA value. Must be 1 to 255 printable ASCII characters");
	return undefined;
}

/** CAA: the content as a zone file writes it, the value quoted (RFC 8659 §4.1.1; observed in DNSControl/dnscontrol#1374). */
export const CAA: DataType<CaaData> = {
	fields: ["flags", "tag", "value"],
	example: '0 issue "letsencrypt.org"',
	problem,
	content: (data) => `${data.flags} ${data.tag} ${quoted(data.value)}`,
	parse(content) {
		// As the API shows it, or as a zone file may write it: the value unquoted, the tag in any case (RFC 8659 §4.1).
		const parts = words(content);
		if (parts?.length !== 3 || !/^\d{1,3}$/.test(parts[0] ?? "")) return undefined;
		return { flags: Number(parts[0]), tag: (parts[1] ?? "").toLowerCase(), value: parts[2] ?? "" };
	},
};
