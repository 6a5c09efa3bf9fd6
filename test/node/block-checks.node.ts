/**
 * The checks of the pages' shell blocks (block-checks.ts), run in bash on blocks whose commands
 * print what a test chooses: a block passes when each status, JSON answer and line of text it shows
 * is what its command printed, and fails, naming what it lacks, when one is not.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { CHECKS, withChecks } from "./block-checks";

/** `block` run as the page runner runs it; its exit code and what it wrote to stderr. */
function run(block: string): { code: number | null; stderr: string } {
	const script = `set -euo pipefail\n${CHECKS}${withChecks(block)}\n`;
	const result = spawnSync("bash", ["-c", script], { encoding: "utf8" });
	return { code: result.status, stderr: result.stderr };
}

describe("a page's shell block, checked against what it prints", () => {
	it("passes when the JSON shown has the output's keys and steady values, IDs and elisions aside", () => {
		const printed = `echo '{"result":{"id":"3f2a9c1b7d","flag":true,"count":2},"success":true,"errors":[]}'`;
		expect(run(`${printed}\n# {"result":{"id":"…","flag":true,"count":2},"success":true,...}`).code).toBe(0);
		// An ID as the page shows it stands for any: a run of hexadecimal digits is not a claim.
		expect(run(`${printed}\n# {"result":{"id":"0c9e4d2a11","flag":true},"success":true}`).code).toBe(0);
	});

	it("fails when a JSON value or key shown is not in the output", () => {
		const printed = `echo '{"result":{"flag":true},"success":true}'`;
		const value = run(`${printed}\n# {"result":{"flag":false},"success":true}`);
		expect(value.code).toBe(1);
		expect(value.stderr).toContain("the output lacks what the page shows");
		expect(run(`${printed}\n# {"result":{"flag":true,"kind":"zone"},"success":true}`).code).toBe(1);
	});

	it("reads … in a JSON string as any text, and checks the rest of the string", () => {
		const printed = `echo '{"chain":"R10 by ISRG Root X1 > anchor ISRG Root X1"}'`;
		expect(run(`${printed}\n# {"chain":"R1… by ISRG Root X1 > anchor ISRG Root X1"}`).code).toBe(0);
		expect(run(`${printed}\n# {"chain":"R1… by ISRG Root X1 > anchor DST Root CA X3"}`).code).toBe(1);
	});

	it("passes when each line of text shown is a line printed, blanks, dates and times loosely", () => {
		expect(run("printf 'hello from your app: /hi\\n'\n# hello from your app: /hi").code).toBe(0);
		const listing = "printf '2026-12-02 15:30:07          6 2026/hello.txt\\n'";
		expect(run(`${listing}\n# 2026-11-28 14:00:00 6 2026/hello.txt`).code).toBe(0);
		expect(run("echo pub-0a1b2c3d.r2.dev\n# pub-….r2.dev").code).toBe(0);
		// What a terminal shows: the command's errors too.
		expect(run("{ echo 'connected successfully.' >&2; }\n# connected successfully.").code).toBe(0);
	});

	it("fails when a line of text shown is not one the command printed, or only part of one", () => {
		const other = run("printf 'hello from your app: /hi\\n'\n# hello from your app: /ho");
		expect(other.code).toBe(1);
		expect(other.stderr).toContain("no line of the output is what the page shows");
		expect(run("printf 'hello from your app: /hi\\n'\n# hello from your app").code).toBe(1);
	});

	it("takes a status from the comment under a command that prints one, and fails on another", () => {
		expect(run("echo 403   # as curl -w '%{http_code}' prints it\n# 403").code).toBe(0);
		const other = run("echo 403   # as curl -w '%{http_code}' prints it\n# 404");
		expect(other.code).toBe(1);
		expect(other.stderr).toContain("expected status 404");
	});

	it("reads no output into prose: a remark after a blank line, or under a command that prints nothing", () => {
		expect(run("echo hi\n# hi\n\n# then something else happens").code).toBe(0);
		expect(run('X=$(echo 1)\n# the next command reads X\necho "$X"\n# 1').code).toBe(0);
		expect(run("echo hidden > /dev/null\n# a remark on what follows").code).toBe(0);
	});
});
