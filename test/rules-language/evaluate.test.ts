import { describe, expect, it } from "vitest";
import { compile, evaluation, type FieldValues } from "../../src/rules-language/index.ts";

/** A request with most fields set; rows override or delete fields. */
const REQUEST: FieldValues = {
	"http.host": "www.example.com",
	"http.request.method": "GET",
	"http.request.version": "HTTP/1.1",
	"http.request.uri": "/api/v1/Login.php?x=1",
	"http.request.uri.path": "/api/v1/Login.php",
	"http.request.uri.path.extension": "php",
	"http.request.uri.query": "x=1&y=%41%2B+b",
	"http.request.uri.args": { x: ["1"], y: ["a", "b"] },
	"http.request.uri.args.names": ["x", "y", "y"],
	"http.request.uri.args.values": ["1", "a", "b"],
	"http.request.full_uri": "https://www.example.com/api/v1/Login.php?x=1",
	"http.request.headers": { "content-type": ["application/json"], "x-many": ["1", "2"] },
	"http.request.headers.names": ["Content-Type", "X-Many", "X-Many"],
	"http.request.headers.values": ["application/json", "1", "2"],
	"http.request.cookies": { session: ["abc"] },
	"http.cookie": "session=abc",
	"http.user_agent": "Mozilla/5.0 (café)",
	"http.referer": "",
	"http.request.timestamp.sec": 1_700_000_000,
	"ip.src": "203.0.113.7",
	"ip.src.country": "GB",
	"ip.src.asnum": 64496,
	"ip.src.continent": "EU",
	ssl: true,
	"cf.client.bot": false,
	"cf.threat_score": 10,
	"cf.edge.server_port": 443,
	"cf.ray_id": "8a1b2c3d4e5f6789",
	"cf.zone.name": "example.com",
	"http.x_forwarded_for": '{"a":{"b":["x",7]},"n":12,"s":"str"}',
};

function run(expression: string, values: FieldValues = REQUEST): boolean {
	const result = compile(expression);
	if (!result.ok) throw new Error(result.error.message);
	return result.filter.matches(values);
}

const TRUTH: [string, boolean][] = [
	// equality and ordering, Bytes compared bytewise and case-sensitively
	['http.host eq "www.example.com"', true],
	['http.host == "WWW.example.com"', false],
	['http.host ne "www.example.com"', false],
	['http.host != "other"', true],
	['http.request.method lt "POST"', true],
	['http.request.method le "GET"', true],
	['http.request.method gt "GET"', false],
	['http.request.method ge "GET"', true],
	["http.request.method eq 47:45:54", true],
	["http.request.method eq 47-45.54", true],
	['http.host eq r"www.example.com"', true],
	['http.host eq r#"www.example.com"#', true],
	['http.request.method eq "\\x47\\105T"', true],
	['http.user_agent contains "caf\\xc3\\xa9"', true],
	['http.user_agent contains "café"', true],
	['http.referer eq ""', true],
	// Int
	["cf.threat_score eq 10", true],
	["cf.threat_score eq 012", true],
	["cf.threat_score eq 0xa", true],
	["cf.threat_score gt -1", true],
	["cf.threat_score lt 10", false],
	["cf.edge.server_port in {80 443}", true],
	["cf.edge.server_port in {8000..9000}", false],
	["cf.threat_score in {0..10}", true],
	["cf.threat_score & 2", true],
	["cf.threat_score bitwise_and 4", false],
	["ip.src.asnum eq 64496", true],
	["http.request.timestamp.sec ge 1700000000", true],
	// Ip
	["ip.src eq 203.0.113.7", true],
	["ip.src ne 203.0.113.8", true],
	["ip.src in {203.0.113.0/24}", true],
	["ip.src in {203.0.113.0/25 10.0.0.0/8}", true],
	["ip.src in {203.0.113.128/25}", false],
	["ip.src in {203.0.113.1..203.0.113.9}", true],
	["ip.src in {0.0.0.0/0}", true],
	["ip.src in {::/0}", false],
	["ip.src gt 203.0.113.6", true],
	["ip.src lt 203.0.113.6", false],
	["ip.src eq ::ffff:203.0.113.7", false],
	["ip.src ne ::ffff:203.0.113.7", true],
	["ip.src lt ::1", false],
	["ip.src gt ::1", false],
	// Bool
	["ssl", true],
	["not ssl", false],
	["!ssl", false],
	["cf.client.bot", false],
	["not cf.client.bot", true],
	// logic and precedence
	["ssl and cf.client.bot", false],
	["ssl or cf.client.bot", true],
	["ssl xor cf.client.bot", true],
	["ssl xor ssl", false],
	["ssl ^^ ssl ^^ ssl", true],
	["ssl || cf.client.bot && cf.client.bot", true],
	["(ssl || cf.client.bot) && cf.client.bot", false],
	["not ssl or ssl", true],
	["not (ssl or ssl)", false],
	["cf.client.bot and cf.client.bot or ssl", true],
	["ssl xor ssl or ssl", true],
	["ssl and ssl xor ssl", false],
	["not not ssl", true],
	// strings
	['http.request.uri.path contains "Login"', true],
	['http.request.uri.path contains "login"', false],
	['http.host in {"a.com" "www.example.com"}', true],
	['http.host in {"a.com" "b.com"}', false],
	["http.host in {}", false],
	// regex
	['http.request.uri.path matches "Login\\.php$"', true],
	['http.request.uri.path ~ "Login\\\\.php$"', false],
	['http.request.uri.path matches "(?i)LOGIN"', true],
	['http.request.uri.path matches "LOGIN"', false],
	['http.request.uri.path matches r"^/api/v[0-9]+/"', true],
	['http.user_agent matches "caf.\\)"', false],
	['http.user_agent matches "caf..\\)"', true],
	['http.user_agent matches "[[:alpha:]]+/5"', true],
	// wildcard
	['http.request.full_uri wildcard "https://*.example.com/*"', true],
	['http.request.full_uri wildcard "HTTPS://*.EXAMPLE.COM/*"', true],
	['http.request.full_uri strict wildcard "HTTPS://*.EXAMPLE.COM/*"', false],
	['http.request.full_uri strict wildcard "https://*.example.com/*"', true],
	['http.host wildcard "*.example.com"', true],
	['http.host wildcard "example.com"', false],
	['http.host wildcard "www.example.*"', true],
	['http.host wildcard "*"', true],
	['http.request.uri.path wildcard "/api/*/Login.php"', true],
	['http.request.uri.path wildcard "/api/*/*"', true],
	['http.request.uri.path wildcard "/api/v1"', false],
	// arrays and maps
	['http.request.headers["content-type"][0] eq "application/json"', true],
	['http.request.headers["content-type"][1] eq "application/json"', false],
	['http.request.headers["missing"][0] eq "x"', false],
	['http.request.headers["missing"][0] ne "x"', false],
	['any(http.request.headers["x-many"][*] eq "2")', true],
	['all(http.request.headers["x-many"][*] eq "2")', false],
	['all(http.request.headers["x-many"][*] contains "")', true],
	['any(http.request.headers.names[*] eq "content-type")', false],
	['any(lower(http.request.headers.names[*])[*] eq "content-type")', true],
	['any(http.request.headers[*][*] eq "2")', true],
	['any(http.request.uri.args["y"][*] eq "b")', true],
	['http.request.uri.args.names[2] eq "y"', true],
	['any(http.request.cookies["session"][*] eq "abc")', true],
	['any(not http.request.headers.values[*] eq "1")', true],
	['all(not http.request.headers.values[*] eq "x")', true],
	['any((http.request.headers.values[*] eq "1" or http.request.headers.values[*] eq "2"))', true],
	// functions
	['lower(http.host) eq "www.example.com"', true],
	['upper(http.host) eq "WWW.EXAMPLE.COM"', true],
	['upper(http.user_agent) eq "MOZILLA/5.0 (CAFé)"', true],
	["len(http.host) eq 15", true],
	["len(http.user_agent) eq 19", true],
	["len(http.request.headers.names) eq 3", true],
	['starts_with(http.request.uri.path, "/api/")', true],
	['ends_with(http.request.uri.path, ".php")', true],
	['ends_with(http.request.uri.path, ".html")', false],
	['concat(http.host, "/", http.request.method) eq "www.example.com/GET"', true],
	['concat(http.referer, http.host) eq "www.example.com"', true],
	['any(concat(http.request.headers.names, http.request.uri.args.names)[*] eq "y")', true],
	['url_decode(http.request.uri.query) eq "x=1&y=A+ b"', true],
	['lookup_json_string(http.x_forwarded_for, "s") eq "str"', true],
	['lookup_json_string(http.x_forwarded_for, "a", "b", 0) eq "x"', true],
	['lookup_json_integer(http.x_forwarded_for, "a", "b", 1) eq 7', true],
	['lookup_json_integer(http.x_forwarded_for, "n") eq 12', true],
	['lookup_json_integer(http.x_forwarded_for, "s") eq 12', false],
	['remove_bytes(http.host, ".") eq "wwwexamplecom"', true],
	['remove_bytes(http.request.uri.path, 2f:61) eq "pi/v1/Login.php"', true],
];

const MISSING: [string, boolean][] = [
	['http.host eq "x"', false],
	['http.host ne "x"', false],
	['not http.host eq "x"', true],
	['http.host contains ""', false],
	['http.host matches ".*"', false],
	['http.host wildcard "*"', false],
	["ip.src in {0.0.0.0/0 ::/0}", false],
	["ip.src ne 1.1.1.1", false],
	["ssl", false],
	["not ssl", true],
	["cf.threat_score lt 100", false],
	['any(http.request.headers["x"][*] eq "1")', false],
	['all(http.request.headers["x"][*] eq "1")', true],
	['any(http.request.headers.names[*] eq "1")', false],
	['all(http.request.headers.names[*] eq "1")', true],
	['lower(http.host) eq ""', false],
	['concat(http.host, "a") eq "a"', true],
	["len(http.host) ge 0", false],
	['starts_with(http.host, "")', false],
];

describe.each([
	["a full request", TRUTH, REQUEST],
	["a request without the fields (missing values)", MISSING, {}],
] as const)("evaluation against %s", (_, rows, values) => {
	it.each(rows)("%s is %s", (expression, expected) => {
		expect(run(expression, values)).toBe(expected);
	});
});

describe("values of the wrong shape", () => {
	it("treats a value of the wrong shape as missing", () => {
		expect(run('http.host eq "1"', { "http.host": 1 })).toBe(false);
		expect(run("ip.src eq 1.1.1.1", { "ip.src": "not an ip" })).toBe(false);
		expect(run("cf.threat_score eq 1", { "cf.threat_score": 1.5 })).toBe(false);
		expect(run("ssl", { ssl: "true" })).toBe(false);
	});
});

describe("addresses: IPv6, CIDR and named lists", () => {
	const lists = new Map([
		["office", "ip"],
		["hosts", "bytes"],
		["asns", "int"],
	] as const);
	const values = new Map([
		["office", ["203.0.113.0/24", "2001:db8::1"]],
		["hosts", ["www.example.com"]],
		["asns", [64496]],
	]);
	it.each([
		["2001:db8::1", "ip.src in {2001:db8::/32}", true],
		["2001:db9::1", "ip.src in {2001:db8::/32}", false],
		["2001:db8::1", "ip.src eq 2001:db8:0:0:0:0:0:1", true],
		["2001:DB8::1", "ip.src eq 2001:db8::1", true],
		["::1", "ip.src eq ::1", true],
		["::ffff:203.0.113.7", "ip.src eq ::ffff:203.0.113.7", true],
		["::ffff:203.0.113.7", "ip.src eq 203.0.113.7", false],
		["2001:db8::8", "ip.src in {2001:db8::1..2001:db8::9}", true],
		["2001:db8::a", "ip.src in {2001:db8::1..2001:db8::9}", false],
		["2001:db8:ffff:ffff:ffff:ffff:ffff:ffff", "ip.src in {2001:db8::/32}", true],
		["2001:db8::1", "ip.src in {10.0.0.0/8}", false],
		["2001:db8::1", "ip.src in {::/0}", true],
		["fe80::1", "ip.src in {fe80::/10}", true],
		["fec0::1", "ip.src in {fe80::/10}", false],
		["2001:db8::1", "ip.src gt 2001:db8::", true],
		// IPv4 is held as a uint32 number: the top bit must not turn negative (signed 32-bit `|`/`&`).
		["255.255.255.255", "ip.src in {0.0.0.0/0}", true],
		["255.255.255.255", "ip.src in {128.0.0.0/1}", true],
		["127.255.255.255", "ip.src in {128.0.0.0/1}", false],
		["200.1.2.3", "ip.src in {200.1.2.0/24}", true],
		["200.1.3.0", "ip.src in {200.1.2.0/24}", false],
		["200.1.2.3", "ip.src in {200.1.2.3/32}", true],
		["200.1.2.4", "ip.src in {200.1.2.3..200.1.2.9}", true],
		["200.1.2.10", "ip.src in {200.1.2.3..200.1.2.9}", false],
		["255.255.255.255", "ip.src gt 128.0.0.0", true],
		["10.0.0.1", "ip.src lt 200.0.0.0", true],
		["10.2.0.0", "ip.src in {10.2}", true],
		["010.0.0.1", "ip.src in {10.0.0.0/8}", false],
		["1.2.3", "ip.src in {0.0.0.0/0}", false],
		["::ffff:200.1.2.3", "ip.src in {200.1.2.0/24}", false],
		["::ffff:200.1.2.3", "ip.src in {::ffff:200.1.2.0/120}", true],
		["200.1.2.3", "ip.src in {::ffff:200.1.2.0/120}", false],
		["200.1.2.3", "ip.src in {2001:db8::/32 200.1.2.0/24}", true],
		["203.0.113.7", "ip.src in $office", true],
		["198.51.100.1", "ip.src in $office", false],
		["2001:db8::1", "ip.src in $office", true],
		["203.0.113.7", "http.host in $hosts", true],
		["203.0.113.7", "ip.src.asnum in $asns", true],
		["198.51.100.1", "not ip.src in $office", true],
	])("ip.src %s: %s is %s", (ip, expression, expected) => {
		const result = compile(expression, { lists });
		if (!result.ok) throw new Error(result.error.message);
		expect(result.filter.matches({ ...REQUEST, "ip.src": ip }, values)).toBe(expected);
	});

	it("matches nothing when the list's items are not supplied", () => {
		const result = compile("ip.src in $office", { lists });
		expect(result.ok && result.filter.matches(REQUEST)).toBe(false);
	});
});

describe("the filter", () => {
	it("lists the fields it reads, once each", () => {
		const result = compile(
			'http.host eq "a" or lower(http.host) eq "b" or any(http.request.headers.names[*] eq "c") or ssl',
		);
		expect(result.ok && result.filter.fields).toEqual(["http.host", "http.request.headers.names", "ssl"]);
	});

	it("matches against one evaluation shared by many filters as it matches the values alone", () => {
		const cases: [string, boolean][] = [
			['http.request.headers["x-a"][0] eq "1"', true],
			['any(http.request.headers["x-a"][*] eq "2")', true],
			['http.request.headers["x-a"][1] eq "1"', false],
			["ip.src in {10.0.0.0/8}", true],
			['ip.src eq 192.0.2.1 or http.user_agent contains "bot"', false],
			['http.user_agent ne "x"', false],
		];
		const values: FieldValues = { "http.request.headers": { "x-a": ["1", "2"] }, "ip.src": "10.1.2.3" };
		const shared = evaluation(values);
		for (const [expression, expected] of cases) {
			const result = compile(expression);
			if (!result.ok) throw new Error(result.error.message);
			expect(result.filter.matchesIn(shared), expression).toBe(expected);
			expect(result.filter.matches(values), expression).toBe(expected);
		}
	});
});
