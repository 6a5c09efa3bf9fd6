/**
 * Splitting a job's formatted records into delivered objects by `max_upload_bytes` (docs
 * `logs/logpush/logpush-job/api-configuration`: "the maximum uncompressed file size of a batch
 * of logs"), and naming the objects.
 */

/** One object to deliver: its records, and the index just past the last input it covers. */
export interface Chunk {
	records: string[];
	/** Exclusive end index into the input (filtered-out inputs belong to the chunk they fall in). */
	end: number;
	/** Uncompressed bytes of the records (UTF-8), framing not counted. */
	bytes: number;
}

const encoder = new TextEncoder();

/**
 * Consecutive chunks of `records` (undefined: an entry the filter or the sample left out), each
 * at most `maxBytes` of UTF-8 unless one record alone is larger; `maxBytes` 0 means no limit.
 */
export function splitRecords(records: readonly (string | undefined)[], maxBytes: number): Chunk[] {
	const chunks: Chunk[] = [];
	let current: Chunk = { records: [], end: 0, bytes: 0 };
	records.forEach((record, i) => {
		if (record !== undefined) {
			const size = encoder.encode(record).byteLength;
			if (maxBytes > 0 && current.records.length > 0 && current.bytes + size > maxBytes) {
				chunks.push(current);
				current = { records: [], end: i, bytes: 0 };
			}
			current.records.push(record);
			current.bytes += size;
		}
		current.end = i + 1;
	});
	if (current.end > 0 || chunks.length === 0) chunks.push(current);
	return chunks;
}

/** `YYYYMMDDTHHMMSSZ` (UTC) of a time in ms since the epoch. */
function compactTime(ms: number): string {
	return new Date(ms)
		.toISOString()
		.replace(/[-:]/g, "")
		.replace(/\.\d{3}Z$/, "Z");
}

/**
 * The key of a delivered object: `<dir>/<start>_<end>_<random>.log.gz`, `dir` being the
 * destination path with `{DATE}` expanded. The pattern is edgezone's choice: Cloudflare documents
 * only gzip objects under the path, `{DATE}` as `YYYYMMDD` (docs `logs/logpush/logpush-job/enable-destinations/r2`,
 * https://developers.cloudflare.com/logs/logpush/logpush-job/enable-destinations/r2/).
 */
export function objectKey(dir: string, startMs: number, endMs: number, random: string): string {
	const name = `${compactTime(startMs)}_${compactTime(endMs)}_${random}.log.gz`;
	return dir === "" ? name : `${dir}/${name}`;
}
