/**
 * Broken certificates and keys for the upload tests: DER out of the fixtures' PEM, a field of a
 * certificate changed and the certificate encoded again, and the mutations of the fuzz test
 * (truncations, bit flips, length octets rewritten) driven by a seeded PRNG, so every run
 * sends the same cases.
 */
import { AsnConvert } from "@peculiar/asn1-schema";
import { Certificate } from "@peculiar/asn1-x509";
import { fromBase64, toBase64 } from "../../../src/common/encoding";

/** The DER of the first PEM block of `pem`. */
export function derOf(pem: string): Uint8Array {
	const base64 = /-----BEGIN [A-Z ]+-----([\s\S]*?)-----END/.exec(pem)?.[1]?.replace(/\s+/g, "") ?? "";
	const der = fromBase64(base64);
	if (der === undefined) throw new Error("derOf: not PEM");
	return der;
}

/** DER as a PEM block. */
export function pemOf(der: Uint8Array, label = "CERTIFICATE"): string {
	return `-----BEGIN ${label}-----\n${toBase64(der).replace(/.{64}/g, "$&\n")}\n-----END ${label}-----\n`;
}

/** The certificate `pem` with its subjectPublicKey replaced by `change(old)`, encoded again. */
export function withPublicKey(pem: string, change: (key: Uint8Array) => Uint8Array): string {
	const cert = AsnConvert.parse(derOf(pem), Certificate);
	const spki = cert.tbsCertificate.subjectPublicKeyInfo;
	spki.subjectPublicKey = change(new Uint8Array(spki.subjectPublicKey)).slice().buffer;
	return pemOf(new Uint8Array(AsnConvert.serialize(cert)));
}

/** `der` with its one occurrence of the ASCII text `from` replaced by `to` (same length). */
export function withText(der: Uint8Array, from: string, to: string): Uint8Array {
	const hex = (s: string) => [...s].map((ch) => ch.charCodeAt(0).toString(16).padStart(2, "0")).join("");
	const all = [...der].map((b) => b.toString(16).padStart(2, "0")).join("");
	const at = all.indexOf(hex(from));
	if (at < 0 || at % 2 !== 0 || all.indexOf(hex(from), at + 1) >= 0 || from.length !== to.length)
		throw new Error(`withText: "${from}" is not once in the DER`);
	const out = der.slice();
	out.set(
		[...to].map((ch) => ch.charCodeAt(0)),
		at / 2,
	);
	return out;
}

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
export function prng(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** Offsets of every length octet of the DER TLVs in `der`, walking into constructed values. */
function lengthOctets(der: Uint8Array): number[] {
	const offsets: number[] = [];
	const walk = (start: number, end: number) => {
		let i = start;
		while (i + 1 < end) {
			const constructed = ((der[i] ?? 0) & 0x20) !== 0;
			const first = der[i + 1] ?? 0;
			const octets = first < 0x80 ? 1 : 1 + (first & 0x7f);
			let length = first < 0x80 ? first : 0;
			for (let k = 1; k < octets; k++) length = length * 256 + (der[i + 1 + k] ?? 0);
			for (let k = 0; k < octets; k++) offsets.push(i + 1 + k);
			const content = i + 1 + octets;
			if (constructed) walk(content, Math.min(content + length, end));
			i = content + length;
		}
	};
	walk(0, der.length);
	return offsets;
}

/** One mutation of `der`: what it did, and the bytes. */
export interface Mutation {
	what: string;
	der: Uint8Array;
}

/**
 * `count` mutations of each kind of `der`, from `random`: a strict prefix, one to three bits
 * flipped, one length octet set to a random value.
 */
export function mutations(der: Uint8Array, count: number, random: () => number): Mutation[] {
	const pick = (n: number) => Math.floor(random() * n);
	const lengths = lengthOctets(der);
	const out: Mutation[] = [];
	for (let i = 0; i < count; i++) {
		const cut = 1 + pick(der.length - 1);
		out.push({ what: `truncated to ${cut} bytes`, der: der.slice(0, cut) });

		const flipped = der.slice();
		const bits = Array.from({ length: 1 + pick(3) }, () => pick(der.length * 8));
		for (const bit of bits) flipped[bit >> 3] = (flipped[bit >> 3] ?? 0) ^ (1 << (bit & 7));
		out.push({ what: `bits ${bits.join(", ")} flipped`, der: flipped });

		const lengthAt = lengths[pick(lengths.length)] ?? 1;
		const relengthed = der.slice();
		const value = pick(256);
		relengthed[lengthAt] = value;
		out.push({ what: `length octet at ${lengthAt} set to ${value}`, der: relengthed });
	}
	return out;
}
