/**
 * The walkthroughs, pasted: every ```sh block of README.md and of the docs pages holding the
 * walkthroughs runs in bash, page after page in the order of `PAGES` and each page's blocks in
 * order, against wrangler dev ($B), as a newcomer pastes a page into a shell where only `B` is
 * set: the variables and functions a block defines carry over to the next blocks of its page, and
 * never to another page, so each page runs on its own (it sets what it uses). A block passes when
 * it runs to its end under `set -euo pipefail` (a command not found, an output line left
 * uncommented, an unset variable or a failing pipe stops it), every status code it documents is
 * the one answered (a command that prints `%{http_code}` followed by `# NNN`, on its
 * line or the next, must print NNN), every command it shows JSON output for prints output with
 * the keys and the steady values of that JSON, and every line of text shown under a command
 * (`# text`) is a line it prints (block-checks.ts; a page keeps prose apart from a command's
 * output with a blank line).
 *
 * A block preceded by `<!-- not run: why -->` is reported as skipped with its reason (installing,
 * starting the server on a fixed port, deploying). A ```js block is the text of a script of
 * examples/, which the page runs from a sh block, so the two cannot differ. A page of docs/ with a
 * sh, js or ts block that `PAGES` does not list fails the test, so none escapes being run.
 */
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, inject, it } from "vitest";
import { CHECKS, withChecks } from "./block-checks";

const ROOT = join(import.meta.dirname, "..", "..");

/**
 * The pages whose blocks run, in the one order they run in: the README, then the walkthroughs of
 * docs/ in the order the README links them. Each page starts in a fresh shell with only `B` set
 * (its first block sets what the page uses), against the wrangler dev the pages before it used.
 */
const PAGES = [
	"README.md",
	"docs/emulator.md", // sets the default zone's clock, as the README's block did before the pages after it
	"docs/in-your-project.md", // startEdgezone from the repository's own package; its npx blocks are not run
	"docs/gateway-by-curl.md",
	"docs/s3.md", // its first block writes the aws CLI's `edgezone` profile, which its next blocks use
	"docs/buckets.md",
	"docs/api.md",
	"docs/firewall.md", // its first block sets API, AUTH, JSON, first_id and ZONE (the zone shop.example.net)
	"docs/logs.md", // its first block sets the same, as firewall.md's does
	"docs/rules.md", // its first block sets API, AUTH, JSON, HOST, ZONE (the zone rules.example.net)
	"docs/custom-hostnames.md",
	"docs/origins.md", // each block starts its app on port 8880 and stops it
	"docs/certificates.md",
	"docs/r2-custom-domains.md",
	"docs/workers-routes.md", // its first block sets API, JSON and ZONE (the default zone); its last removes its routes
] as const;

/** One fenced block of a page. */
interface Block {
	/** The page, relative to the repository's root. */
	page: string;
	language: string;
	/** 1-based line of its opening fence. */
	line: number;
	/** The heading of its section. */
	section: string;
	text: string;
	/** Why it is not run, from `<!-- not run: why -->` just above it. */
	notRun?: string;
}

/** The fenced blocks of `page` (relative to the repository's root), in order. */
function fencedBlocks(page: string): Block[] {
	const markdown = readFileSync(join(ROOT, page), "utf8");
	const lines = markdown.split("\n");
	const blocks: Block[] = [];
	let section = "(top)";
	for (let i = 0; i < lines.length; i++) {
		const line = lines[i] ?? "";
		const heading = /^#{1,4} (.+)$/.exec(line);
		if (heading?.[1] !== undefined) section = heading[1];
		const fence = /^```(\S*)\s*$/.exec(line);
		if (fence === null) continue;
		const start = i;
		const body: string[] = [];
		for (i++; i < lines.length && lines[i] !== "```"; i++) body.push(lines[i] ?? "");
		let above = start - 1;
		while (above >= 0 && (lines[above] ?? "").trim() === "") above--;
		const notRun = /^<!-- not run: (.+) -->$/.exec(lines[above] ?? "")?.[1];
		blocks.push({ page, language: fence[1] ?? "", line: start + 1, section, text: body.join("\n"), notRun });
	}
	return blocks;
}

/** The Markdown pages under `dir` (relative to the repository's root), at any depth. */
function markdownPages(dir: string): string[] {
	return readdirSync(join(ROOT, dir), { recursive: true, encoding: "utf8" })
		.filter((file) => file.endsWith(".md"))
		.map((file) => join(dir, file))
		.sort();
}

const blocks = PAGES.flatMap((page) => fencedBlocks(page));
const RUN_LANGUAGES = new Set(["sh", "js", "ts"]);
const dev = inject("dev");
const state = mkdtempSync(join(tmpdir(), "edgezone-readme-"));
/** The file a page's blocks leave their shell's variables and functions in, one per page. */
const stateOf = (page: string) => join(state, `shell-state-${page.replaceAll("/", "-")}.sh`);
afterAll(() => rmSync(state, { recursive: true, force: true }));

// Runs before each block: strict mode, the checks, and the state the page's earlier blocks left.
const PRELUDE = `set -euo pipefail
${CHECKS}[ -f "$README_STATE" ] && source "$README_STATE"
`;
// Runs after it: every variable it set that the environment did not have, and its functions.
const SAVE = `
{ for name in $(compgen -v); do
    case " $README_BASELINE " in *" $name "*) ;; *) declare -p "$name" ;; esac
  done
  declare -f; } > "$README_STATE"
`;

/** The shell variables bash starts with in this environment: never carried between blocks. */
async function baseline(env: NodeJS.ProcessEnv): Promise<string> {
	const { stdout } = await promisify(execFile)("bash", ["-c", "compgen -v"], { env });
	return [...stdout.split("\n"), "name", "README_BASELINE", "README_STATE"].join(" ");
}

describe("the pages with shell blocks", () => {
	it("are all in PAGES, which names each page once", () => {
		const unlisted = markdownPages("docs").filter(
			(page) =>
				!(PAGES as readonly string[]).includes(page) &&
				fencedBlocks(page).some((block) => RUN_LANGUAGES.has(block.language)),
		);
		expect(unlisted, "pages with sh/js/ts blocks that test/node/readme.node.ts's PAGES does not run").toEqual([]);
		expect(new Set(PAGES).size).toBe(PAGES.length);
	});
});

describe("the shell blocks of the README and docs/, each page pasted into a fresh shell, in order against wrangler dev", () => {
	// The aws CLI's files in a directory of the run's own: the pages write their `edgezone`
	// profile there, not into this machine's ~/.aws, and none of this machine's AWS profile or keys
	// reach the blocks (AWS_CA_BUNDLE does, as on a machine that has it: the pages allow for it).
	const aws = Object.fromEntries(
		["AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"].map(
			(name) => [name, undefined],
		),
	);
	const env: NodeJS.ProcessEnv = {
		...process.env,
		...aws,
		AWS_CONFIG_FILE: join(state, "aws-config"),
		AWS_SHARED_CREDENTIALS_FILE: join(state, "aws-credentials"),
		B: dev.url,
		// wrangler's lines as a newcomer's terminal shows them: vitest.config.ts quiets them to warnings.
		WRANGLER_LOG: undefined,
		// `npx node` as the pages write it: the project's Node, from node_modules/.bin.
		PATH: `${join(ROOT, "node_modules", ".bin")}:${process.env.PATH ?? ""}`,
	};
	let baselineNames: Promise<string> | undefined;

	for (const block of blocks.filter((b) => b.language === "sh")) {
		const name = `runs the block at ${block.page}:${block.line} ("${block.section}")`;
		if (block.notRun !== undefined) {
			it.skip(`${name}: not run, ${block.notRun}`, () => {});
			continue;
		}
		it(name, async () => {
			baselineNames ??= baseline(env);
			const script = `${PRELUDE}${withChecks(block.text)}\n${SAVE}`;
			const result = await runBash(script, {
				...env,
				README_BASELINE: await baselineNames,
				README_STATE: stateOf(block.page),
			});
			expect(
				result.code,
				`exit ${result.code}\n--- stderr\n${result.stderr}\n--- stdout (end)\n${result.stdout.slice(-3000)}`,
			).toBe(0);
		});
	}
});

/**
 * Runs `script` in bash, in a process group of its own that is killed when the script ends or
 * after 150 s, so nothing a block starts outlives it. Answers the exit code (null when killed) and
 * the output.
 */
function runBash(
	script: string,
	env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
	return new Promise((resolve, reject) => {
		const child = spawn("bash", ["-c", script], { cwd: ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
		let stdout = "";
		let stderr = "";
		child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
			stdout += chunk;
		});
		child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
			stderr += chunk;
		});
		const killGroup = () => {
			try {
				if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
			} catch {
				// the group is gone already
			}
		};
		const timer = setTimeout(killGroup, 150_000);
		child.once("error", reject);
		// At bash's exit, whatever it left running goes too (and lets go of the output pipes).
		child.once("exit", () => {
			clearTimeout(timer);
			killGroup();
		});
		child.once("close", (code) => resolve({ code, stdout, stderr }));
	});
}

describe("the scripts the pages show", () => {
	const examples = readdirSync(join(ROOT, "examples")).map((file) =>
		readFileSync(join(ROOT, "examples", file), "utf8").trimEnd(),
	);
	for (const block of blocks.filter((b) => b.language === "js" || b.language === "ts")) {
		it(`shows at ${block.page}:${block.line} the text of a script of examples/, which the page runs`, () => {
			expect(examples).toContain(block.text.trimEnd());
		});
	}
});
