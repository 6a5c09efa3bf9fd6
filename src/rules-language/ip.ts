/**
 * IP addresses, CIDR networks and ranges.
 *
 * Emulates: Rust's `IpAddr::from_str` (strict: four decimal octets without leading zeros, or
 * RFC 4291 text with one `::` and an optional dotted tail) for single addresses and range bounds,
 * and the `cidr` crate's `IpCidr::from_str` for set items, with its `NetworkParseError` texts
 * (engine/src/rhs_types/ip.rs). An IPv4 address is held as a plain number (uint32) and an IPv6
 * address as a bigint (128 bits): the firewall compares `ip.src` against every range of every rule
 * on every request, and number comparisons cost far less than bigint ones (edgezone's choice). An
 * IPv4-mapped IPv6 address (`::ffff:1.2.3.4`) stays IPv6, as in Rust.
 * Set items go through `cidr` 0.2.3's address parser, which falls back to "short" IPv4 forms
 * when Rust's strict parser refuses: one to four `.`-separated decimal octets (`u8::from_str`, so
 * leading zeros are decimal: `010` is 10), the missing ones zero (`10` = 10.0.0.0, `1.1.11` =
 * 1.1.11.0). The crate splits the prefix length at the *last* `/`, while the engine points its
 * error at the text before the *first* one. Both checked against the real engine (the
 * differential oracle, test/rules-language/oracle.test.ts).
 * Gaps: none known.
 */
import { parseRustInt } from "./bytes.ts";
import type { IpValue } from "./types.ts";

const DOT = 46;
const ZERO = 48;

/** Rust's strict IPv4 form: four decimal octets, no leading zeros; the address as a uint32. */
function parseV4(text: string): number | undefined {
	// A char-code scan rather than split + regex: `ip.src` is parsed once per request.
	let n = 0;
	let parts = 0;
	let i = 0;
	while (parts < 4) {
		const start = i;
		let octet = 0;
		while (i < text.length && i - start < 4) {
			const c = text.charCodeAt(i) - ZERO;
			if (c < 0 || c > 9) break;
			octet = octet * 10 + c;
			i++;
		}
		const digits = i - start;
		if (digits === 0 || digits > 3 || octet > 255) return undefined;
		if (digits > 1 && text.charCodeAt(start) === ZERO) return undefined;
		n = n * 256 + octet;
		parts++;
		if (parts < 4) {
			if (text.charCodeAt(i) !== DOT) return undefined;
			i++;
		}
	}
	return i === text.length ? n : undefined;
}

/**
 * `cidr` 0.2.3's fallback (`_parse_short_ipv4_address_as_cidr`): up to four octets parsed by
 * `u8::from_str` (decimal digits, any number of leading zeros), the missing ones zero.
 */
function parseShortV4(text: string): number | undefined {
	const parts = text.split(".");
	if (parts.length > 4) return undefined;
	let n = 0;
	for (let i = 0; i < 4; i++) {
		const part = parts[i];
		let octet = 0;
		if (part !== undefined) {
			if (!/^[0-9]+$/.test(part)) return undefined;
			octet = Number(part);
			if (octet > 255) return undefined;
		}
		n = n * 256 + octet;
	}
	return n;
}

function parseGroups(text: string): number[] | undefined {
	if (text === "") return [];
	const groups: number[] = [];
	const parts = text.split(":");
	for (let i = 0; i < parts.length; i++) {
		const part = parts[i] ?? "";
		if (i === parts.length - 1 && part.includes(".")) {
			const v4 = parseV4(part);
			if (v4 === undefined) return undefined;
			groups.push(Math.floor(v4 / 0x10000), v4 % 0x10000);
		} else {
			if (!/^[0-9a-fA-F]{1,4}$/.test(part)) return undefined;
			groups.push(Number.parseInt(part, 16));
		}
	}
	return groups;
}

function parseV6(text: string): bigint | undefined {
	const halves = text.split("::");
	if (halves.length > 2) return undefined;
	const head = parseGroups(halves[0] ?? "");
	const tail = halves.length === 2 ? parseGroups(halves[1] ?? "") : [];
	if (head === undefined || tail === undefined) return undefined;
	// A dotted tail is only allowed at the very end of the address.
	if (halves.length === 2 && (halves[0] ?? "").includes(".")) return undefined;
	const count = head.length + tail.length;
	if (halves.length === 2 ? count > 7 : count !== 8) return undefined;
	const groups = [...head, ...new Array<number>(8 - count).fill(0), ...tail];
	return groups.reduce((n, g) => (n << 16n) | BigInt(g), 0n);
}

/** Rust's strict `IpAddr::from_str`, or undefined for `invalid IP address syntax`. */
export function parseIp(text: string): IpValue | undefined {
	const v4 = parseV4(text);
	if (v4 !== undefined) return { v6: false, n: v4 };
	const v6 = text.includes(":") ? parseV6(text) : undefined;
	return v6 === undefined ? undefined : { v6: true, n: v6 };
}

/** An inclusive range of addresses of one family: uint32 numbers for IPv4, bigints for IPv6. */
export type IpRange =
	| { readonly v6: false; readonly lo: number; readonly hi: number }
	| { readonly v6: true; readonly lo: bigint; readonly hi: bigint };

/** A failed parse: the reason and the failing part of the text, [start, end). */
export interface IpFailure {
	readonly reason: string;
	readonly start: number;
	readonly end: number;
}

const ADDR_SYNTAX = "couldn't parse address in network: invalid IP address syntax";

/** A set item (`a..b`, `a/len` or `a`), as `IpRange::lex` reads it. */
export function parseIpRangeItem(chunk: string): IpRange | IpFailure {
	const dots = chunk.indexOf("..");
	if (dots !== -1) {
		const first = parseIp(chunk.slice(0, dots));
		if (first === undefined) return { reason: ADDR_SYNTAX, start: 0, end: dots };
		const last = parseIp(chunk.slice(dots + 2));
		if (last === undefined) return { reason: ADDR_SYNTAX, start: dots + 2, end: chunk.length };
		if (!first.v6 && !last.v6 && first.n <= last.n) return { v6: false, lo: first.n, hi: last.n };
		if (first.v6 && last.v6 && first.n <= last.n) return { v6: true, lo: first.n, hi: last.n };
		return { reason: "incompatible range bounds", start: 0, end: chunk.length };
	}
	// The crate splits at the last `/`; the engine's error spans end at the first one.
	const slash = chunk.lastIndexOf("/");
	const firstSlash = chunk.indexOf("/");
	const spanEnd = firstSlash === -1 ? chunk.length : firstSlash;
	const addrText = slash === -1 ? chunk : chunk.slice(0, slash);
	const strict = parseIp(addrText);
	const short = strict === undefined ? parseShortV4(addrText) : undefined;
	const addr: IpValue | undefined = strict ?? (short === undefined ? undefined : { v6: false, n: short });
	if (addr === undefined) return { reason: ADDR_SYNTAX, start: 0, end: spanEnd };
	const bits = addr.v6 ? 128 : 32;
	if (slash === -1) return addr.v6 ? { v6: true, lo: addr.n, hi: addr.n } : { v6: false, lo: addr.n, hi: addr.n };
	const len = parseRustInt(chunk.slice(slash + 1), 10, 0n, 255n);
	if (!len.ok)
		return { reason: `couldn't parse length in network: ${len.error}`, start: firstSlash + 1, end: chunk.length };
	if (len.value > BigInt(bits)) {
		const family = addr.v6 ? "Ipv6" : "Ipv4";
		return {
			reason: `invalid length for network: Network length ${len.value} is too long for ${family} (maximum: ${bits})`,
			start: 0,
			end: chunk.length,
		};
	}
	const hostBits = bits - Number(len.value);
	if (!addr.v6) {
		// Arithmetic, not `&`/`|`: JS bitwise operators work on signed 32-bit integers.
		const size = 2 ** hostBits;
		if (addr.n % size !== 0) return { reason: "host part of address was not zero", start: 0, end: spanEnd };
		return { v6: false, lo: addr.n, hi: addr.n + size - 1 };
	}
	const hostMask = (1n << BigInt(hostBits)) - 1n;
	if ((addr.n & hostMask) !== 0n) return { reason: "host part of address was not zero", start: 0, end: spanEnd };
	return { v6: true, lo: addr.n, hi: addr.n | hostMask };
}

/** True when the failure branch of {@link parseIpRangeItem} was taken. */
export function isIpFailure(r: IpRange | IpFailure): r is IpFailure {
	return "reason" in r;
}

/** The error text of an address that does not parse (exported for the single-address path). */
export const IP_SYNTAX_ERROR = ADDR_SYNTAX;

/** Orders two addresses; undefined when the families differ (the engine's `strict_partial_cmp`). */
export function compareIp(a: IpValue, b: IpValue): number | undefined {
	if (a.v6 !== b.v6) return undefined;
	return a.n < b.n ? -1 : a.n > b.n ? 1 : 0;
}
