/**
 * SRV records (RFC 2782): `data: {priority, weight, port, target}` (TS SDK `SRVRecord.Data`), the
 * content shown as `weight port target` with the priority beside it (`"content": "5 5222
 * xmpp.example.com"` with `"priority": 0`, a real answer quoted in
 * github.com/caddyserver/caddy/issues/6975). Pure.
 */
import { type DataProblem, type DataType, dataProblem, integersProblem, type RecordData } from "./components";
import { absolute, isHostName, storedHost } from "./names";

/** An SRV record's checked components. */
export interface SrvData {
	priority: number;
	weight: number;
	port: number;
	target: string;
}

/**
 * Why `data` or the record's name is not an SRV record's: priority, weight and port integers of 0
 * to 65535 (16 bits each), a target that is a host name or `.` ("the service is decidedly not
 * available at this domain"), a name `_service._proto.name` (all RFC 2782). The messages are
 * edgezone's.
 */
function problem(data: RecordData, name: string): DataProblem | undefined {
	const numbers = integersProblem("SRV", data, [
		["priority", 65535],
		["weight", 65535],
		["port", 65535],
	]);
	if (numbers !== undefined) return numbers;
	const target = storedHost(data.target ?? "");
	if (target !== "." && !isHostName(target))
		return dataProblem("target", "An SRV record's target must be a valid hostname, or .");
	const [service, proto] = name.split(".");
	if (!service?.startsWith("_") || !proto?.startsWith("_"))
		return {
			code: 1004,
			message: "An SRV record's name is _service._proto.name, such as _sip._tcp.example.com",
			field: "name",
		};
	return undefined;
}

/** SRV: read from `weight port target` and the priority apart, or from a zone file's `priority weight port target`. */
export const SRV: DataType<SrvData> = {
	fields: ["priority", "weight", "port", "target"],
	example: "10 5 5060 sip.example.com.",
	problem,
	content: (data) => `${data.weight} ${data.port} ${storedHost(data.target)}`,
	parse(content, priority) {
		const parts = content.trim().split(/\s+/);
		const numbers = parts.slice(0, -1).map(Number);
		const target = parts.at(-1) ?? "";
		if (parts.length === 3 && priority !== undefined)
			return { priority, weight: numbers[0] ?? Number.NaN, port: numbers[1] ?? Number.NaN, target };
		if (parts.length === 4)
			return {
				priority: numbers[0] ?? Number.NaN,
				weight: numbers[1] ?? Number.NaN,
				port: numbers[2] ?? Number.NaN,
				target,
			};
		return undefined;
	},
	priority: (data) => data.priority,
	presentation: (data) => `${data.priority} ${data.weight} ${data.port} ${absolute(storedHost(data.target))}`,
	nameWords: [3],
};
