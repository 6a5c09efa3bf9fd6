/**
 * The checks a page's shell block runs with (test/node/readme.node.ts): `withChecks` pipes each
 * command the page shows output for through one of the bash functions of `CHECKS`, which fail the
 * block when what the command prints is not what the page shows. Pure text, tested directly in
 * block-checks.node.ts.
 */

/** The bash functions `withChecks` calls, to define before a block runs. */
export const CHECKS = `expect_status() { local got; got=$(cat); printf '%s\\n' "$got"; [ "\${got%% *}" = "$1" ] || { echo "expected status $1, got: $got" >&2; return 1; }; }
expect_output() { local got claim; got=$(cat); printf '%s\\n' "$got"; [ -n "$got" ] || { echo "expected output, got none" >&2; return 1; }
  for claim in "$@"; do grep -Eq -- "$claim" <<<"$got" || { echo "the output lacks what the page shows: $claim" >&2; return 1; }; done; }
expect_lines() { local got line; got=$(cat); printf '%s\\n' "$got"
  for line in "$@"; do grep -Eqx -- "$line" <<<"$got" || { echo "no line of the output is what the page shows: $line" >&2; return 1; }; done; }
`;

/** How a page elides what differs from run to run (an ID, a time): `…` or `...`. */
const ELISION = /…|\.\.\./;

/**
 * The block as run. A command that prints `%{http_code}` and is followed by a `# NNN` comment (on
 * its line, or alone on the next) pipes its output through `expect_status NNN`; a command followed
 * by documented JSON output (`# {` or `# [`, on its line or the next, continued by `#  ` lines)
 * through `expect_output`, which fails on an empty answer and on one that lacks a claim of the
 * documented JSON (`jsonClaims`); a command with lines of text under it (`printedLines`) through
 * `expect_lines`, which fails unless each is a line it printed (`linePattern`).
 */
export function withChecks(text: string): string {
	const lines = text.split("\n");
	return lines
		.map((line, i) => {
			if (line.trim() === "" || line.startsWith("#") || line.endsWith("\\")) return line;
			const [command, comment] = splitComment(line);
			const next = lines[i + 1] ?? "";
			const status = /^(\d{3})\b/.exec(comment ?? "")?.[1] ?? /^#\s*(\d{3})\b/.exec(next)?.[1];
			if (line.includes("%{http_code}") && status !== undefined) return `${command} | expect_status ${status}`;
			const documented = documentedOutput(comment, lines.slice(i + 1));
			if (documented !== undefined)
				return [`${command} | expect_output`, ...jsonClaims(documented).map(shellQuote)].join(" ");
			const printed = printedLines(command, lines.slice(i + 1));
			if (printed.length === 0) return line;
			// What a terminal shows: the command's errors beside its output (wrangler writes its lines to stderr).
			return [`${command} 2>&1 | expect_lines`, ...printed.map((text) => shellQuote(linePattern(text)))].join(" ");
		})
		.join("\n");
}

/**
 * The JSON output documented for a command: its trailing comment when that starts with `{` or
 * `[`, else the comment lines after it that do (`# {`, `# [`), each with its continuation lines
 * (`#  `, two spaces); undefined when it has none.
 */
function documentedOutput(comment: string | undefined, after: string[]): string | undefined {
	if (/^[[{]/.test(comment ?? "")) return comment;
	const documented: string[] = [];
	for (const line of after) {
		if (/^# [[{]/.test(line) || (documented.length > 0 && line.startsWith("#  "))) documented.push(line.slice(2));
		else break;
	}
	return documented.length > 0 ? documented.join("") : undefined;
}

/**
 * The lines of text documented as a command's output: the comment lines right under it (`# text`,
 * up to the first line that is not one), unless the command prints nothing (an assignment, an
 * `export`, output sent to /dev/null). JSON and status lines are `documentedOutput`'s and
 * `expect_status`'s. Prose under a command is kept apart from its output by a blank line.
 */
function printedLines(command: string, after: string[]): string[] {
	if (/^(?:export\s|[A-Za-z_]\w*=)|>\s*\/dev\/null\s*$/.test(command)) return [];
	const printed: string[] = [];
	for (const line of after) {
		if (!line.startsWith("# ") || /^# (?:[[{]|\d{3}\b)/.test(line)) break;
		printed.push(line.slice(2));
	}
	return printed;
}

/**
 * A documented line of output as a `grep -Ex` pattern: its text literally, each run of blanks as
 * any run of blanks, a date (`2026-11-28`) or a time of day (`14:00:00`) as any, `…` or `...` as
 * any text (an ID), blanks around it allowed.
 */
function linePattern(text: string): string {
	const word = (w: string) =>
		/^\d{4}-\d\d-\d\d$/.test(w)
			? "[0-9]{4}-[0-9]{2}-[0-9]{2}"
			: /^\d\d:\d\d:\d\d$/.test(w)
				? "[0-9]{2}:[0-9]{2}:[0-9]{2}"
				: ere(w);
	const literal = (part: string) => part.trim().split(/\s+/).map(word).join("[[:space:]]+");
	return `[[:space:]]*${text.split(ELISION).map(literal).join(".*")}[[:space:]]*`;
}

/**
 * What documented JSON claims of the output, as `grep -E` patterns the output must each match:
 * every key it names, and a key's value where it is `true`, `false`, `null`, a number of at most
 * five digits, or a string with no run of four hexadecimal characters holding a digit. Values
 * that differ from run to run (IDs, times, ports) are thus left out; in a string, `...` or `…`
 * stands for any text (`"R1… by ISRG Root X1"`). The text may be elided anywhere (`,...}`), so it
 * is scanned, not parsed.
 */
function jsonClaims(documented: string): string[] {
	const claims = new Set<string>();
	const value = /^(?:"((?:[^"\\]|\\.)*)"|(?:true|false|null|-?\d{1,5}))(?=\s*[,}\]]|\s*$)/;
	for (let i = 0; i < documented.length; i++) {
		if (documented[i] !== '"') continue;
		const string = /^"((?:[^"\\]|\\.)*)"/.exec(documented.slice(i));
		if (string === null) break;
		i += string[0].length - 1;
		const colon = /^\s*:\s*/.exec(documented.slice(i + 1));
		if (colon === null) continue;
		const key = `"${ere(string[1] ?? "")}"[[:space:]]*:`;
		const claimed = value.exec(documented.slice(i + 1 + colon[0].length));
		const text = claimed?.[1];
		const parts = text?.split(ELISION) ?? [];
		if (claimed === null || parts.some((part) => /(?=[0-9a-f]*\d)[0-9a-f]{4,}/i.test(part))) claims.add(key);
		else if (parts.length > 1) claims.add(`${key}[[:space:]]*"${parts.map(ere).join('[^"]*')}"`);
		else claims.add(`${key}[[:space:]]*${ere(claimed[0])}`);
	}
	return [...claims];
}

/** `text` as a POSIX extended regular expression that matches it literally. */
function ere(text: string): string {
	return text.replace(/[\\^$.|?*+()[\]{}]/g, "\\$&");
}

/** `text` as one word of bash, single-quoted. */
function shellQuote(text: string): string {
	return `'${text.replaceAll("'", "'\\''")}'`;
}

/** A line and its trailing comment: ` # ` after the command, outside quotes (the pages' habit). */
function splitComment(line: string): [string, string | undefined] {
	let quote: string | undefined;
	for (let i = 0; i < line.length; i++) {
		const c = line[i];
		if (quote !== undefined) {
			if (c === quote) quote = undefined;
		} else if (c === "'" || c === '"') quote = c;
		else if (c === "#" && /\s/.test(line[i - 1] ?? "")) return [line.slice(0, i).trimEnd(), line.slice(i + 1).trim()];
	}
	return [line, undefined];
}
