/**
 * HTTPS and SVCB records (RFC 9460): `data: {priority, target, value}` (TS SDK `HTTPSRecord.Data`,
 * `SVCBRecord.Data`: `value` the SvcParams as text), the content `priority target value`, as a
 * real answer shows it: `"content": "1 . alpn=\"h3,h2\" ipv4hint=\"152.53.36.213\""` with
 * `"data": {"priority": 1, "target": ".", "value": "alpn=\"h3,h2\" ipv4hint=\"152.53.36.213\""}`
 * (github.com/caddyserver/caddy/issues/7301). The target is kept as given, a final dot included
 * (terraform-provider-cloudflare's SVCB acceptance test reads back `target = "foo."`). Pure.
 */
import { type DataProblem, type DataType, dataProblem, integersProblem, type RecordData, recordOf } from "./components";
import { absolute, isHostName, storedHost } from "./names";

/** An HTTPS or SVCB record's checked components. */
export interface SvcbData {
	priority: number;
	target: string;
	value: string;
}

/** One SvcParam: a key of 1 to 63 lower-case letters, digits or hyphens, and maybe `=` and a value, quoted or not (RFC 9460 §2.1). */
const PARAM = /\s*([a-z0-9-]{1,63})(?:=("(?:[^"\\]|\\.)*"|[^\s"]*))?/y;

/** Why `value` is not SvcParams, or undefined: each a key and its value, no key twice (RFC 9460 §2.2). */
function paramsProblem(type: string, value: string): string | undefined {
	const keys = new Set<string>();
	PARAM.lastIndex = 0;
	let end = 0;
	for (let match = PARAM.exec(value); match !== null; match = PARAM.exec(value)) {
		const key = match[1] ?? "";
		if (keys.has(key)) return `${recordOf(type)}'s value names the key ${key} twice`;
		keys.add(key);
		end = PARAM.lastIndex;
		// A key must be followed by a blank or the end: `alpn=h2"x"` is no parameter.
		if (end < value.length && !/\s/.test(value[end] ?? "")) break;
	}
	return value.slice(end).trim() === ""
		? undefined
		: `${recordOf(type)}'s value is SvcParams such as alpn="h3,h2" port=443 (RFC 9460)`;
}

function codec(type: "HTTPS" | "SVCB"): DataType<SvcbData> {
	const problem = (data: RecordData): DataProblem | undefined => {
		const number = integersProblem(type, data, [["priority", 65535]]);
		if (number !== undefined) return number;
		const target = storedHost(data.target ?? "");
		if (target !== "." && !isHostName(target))
			return dataProblem("target", `${recordOf(type)}'s target must be a valid hostname, or .`);
		const params = paramsProblem(type, data.value ?? "");
		return params === undefined ? undefined : dataProblem("value", params);
	};
	return {
		fields: ["priority", "target", "value"],
		example: '1 . alpn="h3,h2"',
		problem,
		defaults: { value: "" },
		content: (data) => `${data.priority} ${data.target}${data.value.trim() === "" ? "" : ` ${data.value.trim()}`}`,
		presentation: (data) =>
			`${data.priority} ${absolute(storedHost(data.target))}${data.value.trim() === "" ? "" : ` ${data.value.trim()}`}`,
		parse(content) {
			const match = /^\s*(\d{1,5})\s+(\S+)(?:\s+([\s\S]*))?$/.exec(content);
			if (match === null) return undefined;
			return { priority: Number(match[1]), target: match[2] ?? "", value: (match[3] ?? "").trim() };
		},
		nameWords: [1],
	};
}

/** HTTPS: the service binding of an HTTPS origin (RFC 9460 §9). */
export const HTTPS = codec("HTTPS");

/** SVCB: the service binding of any scheme (RFC 9460 §2). */
export const SVCB = codec("SVCB");
