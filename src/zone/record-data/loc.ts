/**
 * LOC records (RFC 1876): `data` the location's latitude and longitude in degrees, minutes and
 * seconds with their directions, its altitude, size and precisions in metres (TS SDK
 * `LOCRecord.Data`), the content RFC 1876 §3's presentation form as Cloudflare writes it: seconds
 * to three decimals, metres to two, without RFC 1876's `m` (`"37 46 46.000 N 122 23 35.000 W 0.00
 * 100.00 0.00 0.00"`, read back from the API by terraform-provider-cloudflare's LOC acceptance
 * test). Pure.
 */
import { type DataProblem, type DataType, dataProblem, type RecordData } from "./components";

/** A LOC record's checked components. */
export interface LocData {
	lat_degrees: number;
	lat_minutes: number;
	lat_seconds: number;
	lat_direction: "N" | "S";
	long_degrees: number;
	long_minutes: number;
	long_seconds: number;
	long_direction: "E" | "W";
	altitude: number;
	size: number;
	precision_horz: number;
	precision_vert: number;
}

/**
 * The numbers and their bounds (RFC 1876 §2 and §3: latitude to 90 degrees, longitude to 180,
 * seconds to thousandths; altitude from -100,000 m to 42,849,672.95 m, in centimetres; size and
 * precisions to 90,000,000 m, 9 × 10^9 cm), and how many decimals each may have.
 */
const NUMBERS: readonly (readonly [keyof LocData, number, number, number])[] = [
	["lat_degrees", 0, 90, 0],
	["lat_minutes", 0, 59, 0],
	["lat_seconds", 0, 59.999, 3],
	["long_degrees", 0, 180, 0],
	["long_minutes", 0, 59, 0],
	["long_seconds", 0, 59.999, 3],
	["altitude", -100000, 42849672.95, 2],
	["size", 0, 90000000, 2],
	["precision_horz", 0, 90000000, 2],
	["precision_vert", 0, 90000000, 2],
];

/** Why `data` is not a LOC record's (the bounds above, a direction of N or S, E or W). The messages are edgezone's. */
function problem(data: RecordData): DataProblem | undefined {
	for (const [field, min, max, decimals] of NUMBERS) {
		const value = data[field];
		const scaled = typeof value === "number" ? value * 10 ** decimals : Number.NaN;
		if (typeof value !== "number" || value < min || value > max || Math.abs(scaled - Math.round(scaled)) > 1e-6)
			return dataProblem(
				field,
				`A LOC record's ${field} is a number of ${min} to ${max}${decimals === 0 ? ", whole" : `, to ${decimals} decimals`}`,
			);
	}
	if (data.lat_direction !== "N" && data.lat_direction !== "S")
		return dataProblem("lat_direction", "A LOC record's lat_direction is N or S");
	if (data.long_direction !== "E" && data.long_direction !== "W")
		return dataProblem("long_direction", "A LOC record's long_direction is E or W");
	return undefined;
}

const NUMBER = String.raw`(-?\d+(?:\.\d+)?)`;
/** RFC 1876 §3: `d1 [m1 [s1]] {N|S} d2 [m2 [s2]] {E|W} alt[m] [siz[m] [hp[m] [vp[m]]]]`. */
const PRESENTATION = new RegExp(
	String.raw`^\s*${NUMBER}(?:\s+${NUMBER}(?:\s+${NUMBER})?)?\s+([NS])\s+${NUMBER}(?:\s+${NUMBER}(?:\s+${NUMBER})?)?\s+([EW])` +
		String.raw`\s+${NUMBER}m?(?:\s+${NUMBER}m?(?:\s+${NUMBER}m?(?:\s+${NUMBER}m?)?)?)?\s*$`,
	"i",
);

/** LOC: a location, in full; a size and precisions left out are RFC 1876 §3's defaults (1 m, 10,000 m, 10 m). */
export const LOC: DataType<LocData> = {
	fields: NUMBERS.map(([field]) => field)
		.toSpliced(3, 0, "lat_direction")
		.toSpliced(7, 0, "long_direction"),
	defaults: { size: 1, precision_horz: 10000, precision_vert: 10 },
	example: "37 46 46.000 N 122 23 35.000 W 0.00 100.00 0.00 0.00",
	problem,
	content: (d) =>
		[
			d.lat_degrees,
			d.lat_minutes,
			d.lat_seconds.toFixed(3),
			d.lat_direction,
			d.long_degrees,
			d.long_minutes,
			d.long_seconds.toFixed(3),
			d.long_direction,
			d.altitude.toFixed(2),
			d.size.toFixed(2),
			d.precision_horz.toFixed(2),
			d.precision_vert.toFixed(2),
		].join(" "),
	parse(content) {
		const m = PRESENTATION.exec(content);
		if (m === null) return undefined;
		const n = (i: number, fallback: number) => (m[i] === undefined ? fallback : Number(m[i]));
		return {
			lat_degrees: n(1, Number.NaN),
			lat_minutes: n(2, 0),
			lat_seconds: n(3, 0),
			lat_direction: (m[4] ?? "").toUpperCase() as "N" | "S",
			long_degrees: n(5, Number.NaN),
			long_minutes: n(6, 0),
			long_seconds: n(7, 0),
			long_direction: (m[8] ?? "").toUpperCase() as "E" | "W",
			altitude: n(9, Number.NaN),
			size: n(10, 1),
			precision_horz: n(11, 10000),
			precision_vert: n(12, 10),
		};
	},
};
