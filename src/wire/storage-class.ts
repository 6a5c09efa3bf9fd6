/**
 * Storage classes on the wire: `x-amz-storage-class` with S3's names (`STANDARD`, `STANDARD_IA`)
 * or the binding's (`Standard`, `InfrequentAccess`) on writes, S3's on answers.
 */

/** The header that carries the storage class. */
export const STORAGE_CLASS_HEADER = "x-amz-storage-class";

/** S3's storage class names and the binding's, each to the binding's. */
const STORAGE_CLASSES: Record<string, string> = {
	STANDARD: "Standard",
	Standard: "Standard",
	STANDARD_IA: "InfrequentAccess",
	InfrequentAccess: "InfrequentAccess",
};

/** The outcome of reading a write's storage class. */
export type ParsedStorageClass = { kind: "none" } | { kind: "class"; storageClass: string } | { kind: "invalid" };

/** The binding's storage class for a write's `x-amz-storage-class` value (null when absent). */
export function storageClassFromRequest(value: string | null): ParsedStorageClass {
	if (value === null) return { kind: "none" };
	const storageClass = STORAGE_CLASSES[value.trim()];
	return storageClass === undefined ? { kind: "invalid" } : { kind: "class", storageClass };
}

/** The binding's storage class for an answer's `x-amz-storage-class`; `""` when absent, as Miniflare reports none. */
export function storageClassFromAnswer(value: string | null): string {
	return value === null ? "" : (STORAGE_CLASSES[value] ?? value);
}

/** The `x-amz-storage-class` value for the binding's storage class, or undefined for none (`""`). */
export function storageClassToHeader(storageClass: string): string | undefined {
	if (storageClass === "Standard") return "STANDARD";
	if (storageClass === "InfrequentAccess") return "STANDARD_IA";
	return storageClass === "" ? undefined : storageClass;
}
