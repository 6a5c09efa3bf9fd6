/**
 * The record types whose content is made of components, each with its own module: how the API's
 * `data` is checked, shown as `content` and read back. A type added here is stored, listed,
 * imported and exported like the rest. Pure.
 */
import { CAA } from "./caa";
import type { DataType, RecordData } from "./components";
import { SMIMEA, SSHFP, TLSA } from "./fingerprints";
import { CERT, DNSKEY, DS } from "./keys";
import { LOC } from "./loc";
import { NAPTR } from "./naptr";
import { SRV } from "./srv";
import { HTTPS, SVCB } from "./svcb";
import { URI } from "./uri";

/** The types with components, by name. */
const DATA_TYPES = {
	CAA,
	CERT,
	DNSKEY,
	DS,
	HTTPS,
	LOC,
	NAPTR,
	SMIMEA,
	SRV,
	SSHFP,
	SVCB,
	TLSA,
	URI,
} as const satisfies Record<string, DataType<RecordData>>;

/** A record type with components. */
export type DataRecordType = keyof typeof DATA_TYPES;

/** The checked components of a record of `T`. */
export type DataOf<T extends DataRecordType> = (typeof DATA_TYPES)[T] extends DataType<infer D> ? D : never;

/** Whether records of `type` are made of components (`data`). */
export function hasData(type: string): type is DataRecordType {
	return Object.hasOwn(DATA_TYPES, type);
}

/** The codec of `type`, widened for code that handles every type alike. */
export function dataType(type: DataRecordType): DataType<RecordData> {
	return DATA_TYPES[type] as DataType<RecordData>;
}
