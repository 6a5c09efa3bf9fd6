// A minimal PNG encoder (8-bit RGB, filter 0, one IDAT) and the picture the fixtures use:
// a rendered Mandelbrot set, so the image is a real, viewable, partly compressible PNG.
// zlib's CRC-32 is the one PNG uses (PNG spec §5.5: ISO 3309 / ITU-T V.42), in Node since 22.2.
import { crc32, deflateSync } from "node:zlib";

/** One PNG chunk: length, type, data, CRC of type and data (PNG spec §5.3). */
function chunk(type, data) {
	const head = Buffer.alloc(8);
	head.writeUInt32BE(data.length, 0);
	head.write(type, 4, "latin1");
	const crc = Buffer.alloc(4);
	crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
	return Buffer.concat([head, data, crc]);
}

/** Encodes `pixel(x, y) -> [r, g, b]` as a PNG file. */
function encodePng(width, height, pixel) {
	const raw = Buffer.alloc((width * 3 + 1) * height);
	let at = 0;
	for (let y = 0; y < height; y++) {
		raw[at++] = 0; // filter type 0 (None) for every scanline
		for (let x = 0; x < width; x++) {
			const [r, g, b] = pixel(x, y);
			raw[at++] = r;
			raw[at++] = g;
			raw[at++] = b;
		}
	}
	const ihdr = Buffer.alloc(13);
	ihdr.writeUInt32BE(width, 0);
	ihdr.writeUInt32BE(height, 4);
	ihdr[8] = 8; // bit depth
	ihdr[9] = 2; // colour type: truecolour
	return Buffer.concat([
		Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		chunk("IHDR", ihdr),
		chunk("IDAT", deflateSync(raw, { level: 9 })),
		chunk("IEND", Buffer.alloc(0)),
	]);
}

/** The Mandelbrot set, 480x320, coloured by escape time. */
export function mandelbrotPng(width = 480, height = 320) {
	const maxIter = 200;
	return encodePng(width, height, (px, py) => {
		const cx = -2.2 + (px / width) * 3.2;
		const cy = -1.1 + (py / height) * 2.2;
		let x = 0;
		let y = 0;
		let i = 0;
		while (x * x + y * y <= 4 && i < maxIter) {
			[x, y] = [x * x - y * y + cx, 2 * x * y + cy];
			i++;
		}
		if (i === maxIter) return [8, 8, 24];
		const t = i / maxIter;
		return [Math.round(255 * Math.sqrt(t)), Math.round(180 * t), Math.round(120 + 135 * (1 - t))];
	});
}
