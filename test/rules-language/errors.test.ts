import { describe, expect, it } from "vitest";
import { compile } from "../../src/rules-language/index.ts";

/** Invalid expressions and the engine's whole Display text for each (wirefilter `ParseError`'s Display). */
const INVALID: [string, string][] = [
	[
		"http.host eq example.com",
		"Filter parsing error (1:14):\nhttp.host eq example.com\n             ^^ invalid digit found in string while parsing with radix 16\n",
	],
	[
		"ip.src==34",
		"Filter parsing error (1:9):\nip.src==34\n        ^^ couldn't parse address in network: invalid IP address syntax\n",
	],
	[
		"http.host < 12",
		"Filter parsing error (1:15):\nhttp.host < 12\n              ^ expected 1 characters, but found 0\n",
	],
	["ssl == true", "Filter parsing error (1:4):\nssl == true\n   ^^^^^^^^ unrecognised input\n"],
	["ssl\tand ssl", "Filter parsing error (1:4):\nssl\tand ssl\n   ^^^^^^^^ unrecognised input\n"],
	[
		'http.request.uri.path ends_with ".html"',
		'Filter parsing error (1:23):\nhttp.request.uri.path ends_with ".html"\n                      ^^^^^^^^^^^^^^^^^ expected ComparisonOp\n',
	],
	[
		'lower("ABC") eq "abc"',
		'Filter parsing error (1:7):\nlower("ABC") eq "abc"\n      ^^^^^ invalid kind of argument #0: expected argument of kind Field, but got Literal\n',
	],
	[
		'(any(http.request.headers.names[*] eq "x" and ssl))',
		'Filter parsing error (1:43):\n(any(http.request.headers.names[*] eq "x" and ssl))\n                                          ^^^^^^^^^ expected literal ","\n',
	],
	[
		'http.request.uri.path matches "[a-"',
		'Filter parsing error (1:32):\nhttp.request.uri.path matches "[a-"\n                               ^^^^ could not find an ending quote\n',
	],
	[
		"ip.src == 10.0.0.0/8",
		"Filter parsing error (1:11):\nip.src == 10.0.0.0/8\n          ^^^^^^^^^^ couldn't parse address in network: invalid IP address syntax\n",
	],
	[
		"ip.src in {10.0.0.1/8}",
		"Filter parsing error (1:12):\nip.src in {10.0.0.1/8}\n           ^^^^^^^^ host part of address was not zero\n",
	],
	[
		"ip.src in {10.0.0.0/33}",
		"Filter parsing error (1:12):\nip.src in {10.0.0.0/33}\n           ^^^^^^^^^^^ invalid length for network: Network length 33 is too long for Ipv4 (maximum: 32)\n",
	],
	[
		"ip.src in {10.0.0.0/x}",
		"Filter parsing error (1:21):\nip.src in {10.0.0.0/x}\n                    ^ couldn't parse length in network: cannot parse integer from empty string\n",
	],
	[
		"ip.src in {::/129}",
		"Filter parsing error (1:12):\nip.src in {::/129}\n           ^^^^^^ invalid length for network: Network length 129 is too long for Ipv6 (maximum: 128)\n",
	],
	[
		"ip.src in {10.0.0.9..10.0.0.1}",
		"Filter parsing error (1:12):\nip.src in {10.0.0.9..10.0.0.1}\n           ^^^^^^^^^^^^^^^^^^ incompatible range bounds\n",
	],
	[
		"ip.src in {10.0.0.1..::1}",
		"Filter parsing error (1:12):\nip.src in {10.0.0.1..::1}\n           ^^^^^^^^^^^^^ incompatible range bounds\n",
	],
	[
		"ip.src eq 203.0.113.007",
		"Filter parsing error (1:11):\nip.src eq 203.0.113.007\n          ^^^^^^^^^^^^^ couldn't parse address in network: invalid IP address syntax\n",
	],
	[
		"ip.src eq 1.2.3",
		"Filter parsing error (1:11):\nip.src eq 1.2.3\n          ^^^^^ couldn't parse address in network: invalid IP address syntax\n",
	],
	["ip.src eq", "Filter parsing error (1:10):\nip.src eq\n         ^ expected IP address character\n"],
	[
		"ip.src in 10.0.0.0/8",
		'Filter parsing error (1:11):\nip.src in 10.0.0.0/8\n          ^^^^^^^^^^ expected literal "{"\n',
	],
	[
		"http.host in $Office",
		'Filter parsing error (1:15):\nhttp.host in $Office\n              ^^^^^^ invalid list name "O"\n',
	],
	["http.host in $.a", 'Filter parsing error (1:15):\nhttp.host in $.a\n              ^^ invalid list name ".a"\n'],
	["http.host in $", 'Filter parsing error (1:15):\nhttp.host in $\n              ^ invalid list name ""\n'],
	[
		"http.host in $office",
		'Filter parsing error (1:11):\nhttp.host in $office\n          ^^^^^^^^^^ unknown list "office"\n',
	],
	[
		'http.request.headers eq "x"',
		'Filter parsing error (1:22):\nhttp.request.headers eq "x"\n                     ^^ cannot perform this operation on type Map(CompoundType { layers: 0, len: 1, primitive: Bytes })\n',
	],
	[
		'http.request.headers.names[*] eq "x"',
		'Filter parsing error (1:37):\nhttp.request.headers.names[*] eq "x"\n                                    ^ expected value of type Bool, but got Array<Bool>\n',
	],
	["", "Filter parsing error (1:1):\n\n^ expected identifier character\n"],
	["   ", "Filter parsing error (1:4):\n   \n   ^ expected identifier character\n"],
	['Http.host eq "a"', 'Filter parsing error (1:1):\nHttp.host eq "a"\n^^^^^^^^^ unknown identifier\n'],
	['http.hostx eq "a"', 'Filter parsing error (1:1):\nhttp.hostx eq "a"\n^^^^^^^^^^ unknown identifier\n'],
	[
		'http.host. eq "a"',
		'Filter parsing error (1:11):\nhttp.host. eq "a"\n          ^^^^^^^ expected identifier character\n',
	],
	['http.host EQ "a"', 'Filter parsing error (1:11):\nhttp.host EQ "a"\n          ^^^^^^ expected ComparisonOp\n'],
	[
		'http.host eq "a" AND ssl',
		'Filter parsing error (1:17):\nhttp.host eq "a" AND ssl\n                ^^^^^^^^ unrecognised input\n',
	],
	[
		'http.host eq "a\\n"',
		'Filter parsing error (1:17):\nhttp.host eq "a\\n"\n                ^ expected ", xHH or OOO after \\\n',
	],
	[
		'http.host eq "\\x4"',
		'Filter parsing error (1:17):\nhttp.host eq "\\x4"\n                ^^ invalid digit found in string while parsing with radix 16\n',
	],
	[
		'http.host eq "\\x4g"',
		'Filter parsing error (1:17):\nhttp.host eq "\\x4g"\n                ^^ invalid digit found in string while parsing with radix 16\n',
	],
	[
		'http.host eq "\\777"',
		'Filter parsing error (1:16):\nhttp.host eq "\\777"\n               ^^^ number too large to fit in target type while parsing with radix 8\n',
	],
	[
		'http.host eq "abc',
		'Filter parsing error (1:15):\nhttp.host eq "abc\n              ^^^ could not find an ending quote\n',
	],
	[
		'http.host eq r"abc',
		'Filter parsing error (1:15):\nhttp.host eq r"abc\n              ^^^^ could not find an ending quote\n',
	],
	["http.host eq rabc", 'Filter parsing error (1:15):\nhttp.host eq rabc\n              ^^^ expected " or #\n'],
	[
		'http.host eq r################################################################################################################################################################################################################################################################"a"',
		'Filter parsing error (1:15):\nhttp.host eq r################################################################################################################################################################################################################################################################"a"\n              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ invalid raw string hash count, there can\'t be more than 255 #s\n',
	],
	[
		"cf.threat_score eq 08",
		"Filter parsing error (1:20):\ncf.threat_score eq 08\n                   ^^ invalid digit found in string while parsing with radix 8\n",
	],
	[
		"cf.threat_score eq 10fe",
		"Filter parsing error (1:20):\ncf.threat_score eq 10fe\n                   ^^^^ invalid digit found in string while parsing with radix 10\n",
	],
	[
		"cf.threat_score eq -",
		"Filter parsing error (1:21):\ncf.threat_score eq -\n                    ^ expected digit\n",
	],
	[
		"cf.threat_score eq 0x",
		"Filter parsing error (1:22):\ncf.threat_score eq 0x\n                     ^ expected digit\n",
	],
	[
		"cf.threat_score eq 9223372036854775808",
		"Filter parsing error (1:20):\ncf.threat_score eq 9223372036854775808\n                   ^^^^^^^^^^^^^^^^^^^ number too large to fit in target type while parsing with radix 10\n",
	],
	[
		"cf.threat_score in {10..1}",
		"Filter parsing error (1:21):\ncf.threat_score in {10..1}\n                    ^^^^^ incompatible range bounds\n",
	],
	[
		"cf.threat_score eq 1..2",
		"Filter parsing error (1:21):\ncf.threat_score eq 1..2\n                    ^^^ unrecognised input\n",
	],
	[
		'cf.threat_score contains "a"',
		'Filter parsing error (1:17):\ncf.threat_score contains "a"\n                ^^^^^^^^ cannot perform this operation on type Int\n',
	],
	[
		'cf.threat_score matches "a"',
		'Filter parsing error (1:17):\ncf.threat_score matches "a"\n                ^^^^^^^ cannot perform this operation on type Int\n',
	],
	[
		'ip.src contains "a"',
		'Filter parsing error (1:8):\nip.src contains "a"\n       ^^^^^^^^ cannot perform this operation on type Ip\n',
	],
	["ip.src & 1", "Filter parsing error (1:8):\nip.src & 1\n       ^ cannot perform this operation on type Ip\n"],
	[
		"http.host & 1",
		"Filter parsing error (1:11):\nhttp.host & 1\n          ^ cannot perform this operation on type Bytes\n",
	],
	[
		'http.host contains {"a"}',
		'Filter parsing error (1:20):\nhttp.host contains {"a"}\n                   ^^ invalid digit found in string while parsing with radix 16\n',
	],
	[
		"http.host wildcard 61:62",
		'Filter parsing error (1:20):\nhttp.host wildcard 61:62\n                   ^^^^^ expected " or r\n',
	],
	[
		'http.host wildcard "a\\\\q"',
		'Filter parsing error (1:20):\nhttp.host wildcard "a\\\\q"\n                   ^^^^^^ invalid wildcard: wildcard syntax error at position 1: invalid escape sequence\n',
	],
	[
		'http.host wildcard "**"',
		'Filter parsing error (1:20):\nhttp.host wildcard "**"\n                   ^^^^ wildcard contains a double star\n',
	],
	[
		'http.host wildcard "a\\\\"',
		'Filter parsing error (1:20):\nhttp.host wildcard "a\\\\"\n                   ^^^^^ invalid wildcard: wildcard syntax error at position 1: incomplete escape sequence at the end of the wildcard\n',
	],
	[
		'http.host matches "(?=x)"',
		'Filter parsing error (1:20):\nhttp.host matches "(?=x)"\n                   ^^^^^ regex parse error:\n    (?=x)\n    ^^^\nerror: look-around, including look-ahead and look-behind, is not supported\n',
	],
	[
		'http.host matches "(?<!x)"',
		'Filter parsing error (1:20):\nhttp.host matches "(?<!x)"\n                   ^^^^^^ regex parse error:\n    (?<!x)\n    ^^^^\nerror: look-around, including look-ahead and look-behind, is not supported\n',
	],
	[
		'http.host matches "(a)\\1"',
		'Filter parsing error (1:20):\nhttp.host matches "(a)\\1"\n                   ^^^^^ regex parse error:\n    (a)\\1\n       ^^\nerror: backreferences are not supported\n',
	],
	[
		'http.host matches "(a"',
		'Filter parsing error (1:20):\nhttp.host matches "(a"\n                   ^^ regex parse error:\n    (a\n    ^\nerror: unclosed group\n',
	],
	[
		'http.host matches "a)"',
		'Filter parsing error (1:20):\nhttp.host matches "a)"\n                   ^^ regex parse error:\n    a)\n     ^\nerror: unopened group\n',
	],
	[
		'http.host matches "*"',
		'Filter parsing error (1:20):\nhttp.host matches "*"\n                   ^ regex parse error:\n    *\n    ^\nerror: repetition operator missing expression\n',
	],
	[
		'http.host matches "\\q"',
		'Filter parsing error (1:20):\nhttp.host matches "\\q"\n                   ^^ regex parse error:\n    \\q\n    ^^\nerror: unrecognized escape sequence\n',
	],
	[
		'http.host matches "a{2,1}"',
		'Filter parsing error (1:20):\nhttp.host matches "a{2,1}"\n                   ^^^^^^ regex parse error:\n    a{2,1}\n     ^^^^^\nerror: invalid repetition count range, the start must be <= the end\n',
	],
	[
		'http.host matches "[z-a]"',
		'Filter parsing error (1:20):\nhttp.host matches "[z-a]"\n                   ^^^^^ regex parse error:\n    [z-a]\n     ^^^\nerror: invalid character class range, the start must be <= the end\n',
	],
	[
		'http.host matches r"(?=x)"',
		'Filter parsing error (1:27):\nhttp.host matches r"(?=x)"\n                          ^ regex parse error:\n    (?=x)\n    ^^^\nerror: look-around, including look-ahead and look-behind, is not supported\n',
	],
	[
		'http.host matches "\\pL"',
		'Filter parsing error (1:20):\nhttp.host matches "\\pL"\n                   ^^^ regex parse error:\n    \\pL\n    ^^^\nerror: Unicode not allowed here\n',
	],
	[
		'http.host matches "[a&&b]"',
		'Filter parsing error (1:20):\nhttp.host matches "[a&&b]"\n                   ^^^^^^ regex parse error:\n    [a&&b]\n      ^^\nerror: character class set operations are not supported by this emulator\n',
	],
	[
		'http.request.headers.names [0] eq "a"',
		'Filter parsing error (1:28):\nhttp.request.headers.names [0] eq "a"\n                           ^^^^^^^^^^ expected ComparisonOp\n',
	],
	[
		'http.request.headers["a"] eq "x"',
		'Filter parsing error (1:27):\nhttp.request.headers["a"] eq "x"\n                          ^^ cannot perform this operation on type Array(CompoundType { layers: 0, len: 0, primitive: Bytes })\n',
	],
	[
		'http.request.headers[0][0] eq "x"',
		'Filter parsing error (1:21):\nhttp.request.headers[0][0] eq "x"\n                    ^^^ cannot access index ArrayIndex(0) for type Map(CompoundType { layers: 0, len: 1, primitive: Bytes })\n',
	],
	[
		'http.host[0] eq "x"',
		'Filter parsing error (1:10):\nhttp.host[0] eq "x"\n         ^^^ cannot access index ArrayIndex(0) for type Bytes\n',
	],
	[
		'http.host[*] eq "x"',
		'Filter parsing error (1:10):\nhttp.host[*] eq "x"\n         ^^^ cannot access index MapEach for type Bytes\n',
	],
	[
		'http.request.headers.names["a"] eq "x"',
		'Filter parsing error (1:27):\nhttp.request.headers.names["a"] eq "x"\n                          ^^^^^ cannot access index MapKey("a") for type Array(CompoundType { layers: 0, len: 0, primitive: Bytes })\n',
	],
	[
		'http.request.headers.names[-1] eq "x"',
		'Filter parsing error (1:28):\nhttp.request.headers.names[-1] eq "x"\n                           ^^^^^^^^^^ expected literal "expected positive integer as index"\n',
	],
	[
		'http.request.headers.names[x] eq "x"',
		'Filter parsing error (1:28):\nhttp.request.headers.names[x] eq "x"\n                           ^^^^^^^^^ expected literal "expected quoted utf8 string or positive integer"\n',
	],
	[
		'http.request.headers.names[0 eq "x"',
		'Filter parsing error (1:30):\nhttp.request.headers.names[0 eq "x"\n                             ^^^^^^ expected literal "]"\n',
	],
	[
		"any(ssl)",
		"Filter parsing error (1:5):\nany(ssl)\n    ^^^ invalid type of argument #0: expected value of type Array<Bool>, but got Bool\n",
	],
	[
		'any("a")',
		'Filter parsing error (1:5):\nany("a")\n    ^^^ invalid kind of argument #0: expected argument of kind Field, but got Literal\n',
	],
	["any()", "Filter parsing error (1:5):\nany()\n    ^ invalid number of arguments\n"],
	["lower()", "Filter parsing error (1:7):\nlower()\n      ^ invalid number of arguments\n"],
	[
		'lower(http.host, http.host) eq "a"',
		'Filter parsing error (1:18):\nlower(http.host, http.host) eq "a"\n                 ^^^^^^^^^^^^^^^^^ invalid number of arguments\n',
	],
	[
		'lower(ip.src) eq "a"',
		'Filter parsing error (1:7):\nlower(ip.src) eq "a"\n      ^^^^^^ invalid type of argument #0: expected value of type Bytes, but got Ip\n',
	],
	[
		"len(ip.src) eq 1",
		"Filter parsing error (1:5):\nlen(ip.src) eq 1\n    ^^^^^^ invalid type of argument #0: expected value of type Bytes or Array<_>, but got Ip\n",
	],
	[
		"len(http.request.headers) eq 1",
		"Filter parsing error (1:5):\nlen(http.request.headers) eq 1\n    ^^^^^^^^^^^^^^^^^^^^ invalid type of argument #0: expected value of type Bytes or Array<_>, but got Map<Array<Bytes>>\n",
	],
	[
		'concat(http.host) eq "a"',
		'Filter parsing error (1:17):\nconcat(http.host) eq "a"\n                ^^^^^^^^ invalid number of arguments\n',
	],
	[
		'concat(http.host, 1) eq "a"',
		'Filter parsing error (1:19):\nconcat(http.host, 1) eq "a"\n                  ^ invalid type of argument #1: expected value of type Bytes, but got Int\n',
	],
	[
		'concat(1, 2) eq "a"',
		'Filter parsing error (1:8):\nconcat(1, 2) eq "a"\n       ^ invalid type of argument #0: expected value of type Bytes or Array<_>, but got Int\n',
	],
	[
		"starts_with(http.host, 1)",
		"Filter parsing error (1:24):\nstarts_with(http.host, 1)\n                       ^ invalid type of argument #1: expected value of type Bytes, but got Int\n",
	],
	[
		'starts_with("a", "a")',
		'Filter parsing error (1:13):\nstarts_with("a", "a")\n            ^^^ invalid kind of argument #0: expected argument of kind Field, but got Literal\n',
	],
	[
		'url_decode(http.host, "x") eq "a"',
		'Filter parsing error (1:23):\nurl_decode(http.host, "x") eq "a"\n                      ^^^ invalid value of argument #1: invalid argument: "url_decode options are made of r and u"\n',
	],
	[
		'url_decode(http.host, "r", "u") eq "a"',
		'Filter parsing error (1:28):\nurl_decode(http.host, "r", "u") eq "a"\n                           ^^^^^^^^^^^ invalid number of arguments\n',
	],
	[
		'lookup_json_string(http.host) eq "a"',
		'Filter parsing error (1:29):\nlookup_json_string(http.host) eq "a"\n                            ^^^^^^^^ invalid number of arguments\n',
	],
	[
		'lookup_json_string(http.host, ip.src) eq "a"',
		'Filter parsing error (1:31):\nlookup_json_string(http.host, ip.src) eq "a"\n                              ^^^^^^ invalid kind of argument #1: expected argument of kind Literal, but got Field\n',
	],
	[
		'remove_bytes(http.host, http.host) eq "a"',
		'Filter parsing error (1:25):\nremove_bytes(http.host, http.host) eq "a"\n                        ^^^^^^^^^ invalid kind of argument #1: expected argument of kind Literal, but got Field\n',
	],
	[
		'concat(http.host, http.request.headers.names[*]) eq "a"',
		'Filter parsing error (1:19):\nconcat(http.host, http.request.headers.names[*]) eq "a"\n                  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ invalid use of map each access operator\n',
	],
	[
		'regex_replace(http.host, "a", "b") eq "a"',
		'Filter parsing error (1:1):\nregex_replace(http.host, "a", "b") eq "a"\n^^^^^^^^^^^^^ unknown identifier\n',
	],
	[
		'lower(http.host) eq "a" and',
		'Filter parsing error (1:28):\nlower(http.host) eq "a" and\n                           ^ expected identifier character\n',
	],
	["ssl and", "Filter parsing error (1:8):\nssl and\n       ^ expected identifier character\n"],
	["(ssl", 'Filter parsing error (1:5):\n(ssl\n    ^ expected literal ")"\n'],
	["ssl)", "Filter parsing error (1:4):\nssl)\n   ^ unrecognised input\n"],
	["not", "Filter parsing error (1:4):\nnot\n   ^ expected identifier character\n"],
	["ssl and http.host", "Filter parsing error (1:18):\nssl and http.host\n                 ^ expected ComparisonOp\n"],
	["http.host", "Filter parsing error (1:10):\nhttp.host\n         ^ expected ComparisonOp\n"],
	["cf.threat_score", "Filter parsing error (1:16):\ncf.threat_score\n               ^ expected ComparisonOp\n"],
	[
		'any(http.request.headers.names[*] eq "x") and http.request.headers.names[*] eq "x"',
		'Filter parsing error (1:83):\nany(http.request.headers.names[*] eq "x") and http.request.headers.names[*] eq "x"\n                                                                                  ^ expected value of type Bool, but got Array<Bool>\n',
	],
	['lower(abc) eq "a"', 'Filter parsing error (1:7):\nlower(abc) eq "a"\n      ^^^^^^^^^^^ unrecognised input\n'],
	["lower(http.host)", "Filter parsing error (1:17):\nlower(http.host)\n                ^ expected ComparisonOp\n"],
	[
		"ssl or\nhttp.host eq example.com",
		"Filter parsing error (2:14):\nhttp.host eq example.com\n             ^^ invalid digit found in string while parsing with radix 16\n",
	],
	[
		'http.host eq "é" and cf.threat_score eq x',
		'Filter parsing error (1:42):\nhttp.host eq "é" and cf.threat_score eq x\n                                         ^ expected digit\n',
	],
	[
		'http.host eq "a" http.host eq "b"',
		'Filter parsing error (1:17):\nhttp.host eq "a" http.host eq "b"\n                ^^^^^^^^^^^^^^^^^ unrecognised input\n',
	],
	["ssl and and ssl", "Filter parsing error (1:9):\nssl and and ssl\n        ^^^ unknown identifier\n"],
	["ssl an ssl", "Filter parsing error (1:4):\nssl an ssl\n   ^^^^^^^ unrecognised input\n"],
	[
		'http.host in {"a" , "b"}',
		'Filter parsing error (1:19):\nhttp.host in {"a" , "b"}\n                  ^^ invalid digit found in string while parsing with radix 16\n',
	],
	[
		'http.host in {"a" "b"',
		'Filter parsing error (1:22):\nhttp.host in {"a" "b"\n                     ^ unrecognised input\n',
	],
	[
		"cf.edge.server_port in {80, 443}",
		"Filter parsing error (1:27):\ncf.edge.server_port in {80, 443}\n                          ^^^^^^ expected digit\n",
	],
	[
		"ip.src in {10.0.0.0/8, 1.1.1.1}",
		"Filter parsing error (1:22):\nip.src in {10.0.0.0/8, 1.1.1.1}\n                     ^^^^^^^^^^ expected IP address character\n",
	],
];

describe("invalid expressions", () => {
	it.each(INVALID)("%j is refused with the engine's text", (expression, message) => {
		const result = compile(expression);
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.error.message).toBe(message);
	});

	it("reports line, column and reason apart from the message", () => {
		const result = compile("ssl or\nhttp.host eq example.com");
		expect(
			result.ok ? undefined : { line: result.error.line, column: result.error.column, reason: result.error.reason },
		).toEqual({
			line: 2,
			column: 14,
			reason: "invalid digit found in string while parsing with radix 16",
		});
	});
});
