// Seeds .dev.vars from .dev.vars.example, so `npm run dev` works on a fresh clone with the
// documented default credentials. An existing .dev.vars keeps its values and gains only the
// variables it lacks (e.g. a secret added after it was created).
import { appendFileSync, copyFileSync, existsSync, readFileSync } from "node:fs";

const names = (text) =>
	new Set(
		text
			.split("\n")
			.map((line) => /^([A-Z0-9_]+)=/.exec(line)?.[1])
			.filter(Boolean),
	);

if (!existsSync(".dev.vars")) {
	copyFileSync(".dev.vars.example", ".dev.vars");
	console.log("Created .dev.vars from .dev.vars.example (local default credentials).");
} else {
	const have = names(readFileSync(".dev.vars", "utf8"));
	const missing = readFileSync(".dev.vars.example", "utf8")
		.split("\n")
		.filter((line) => {
			const name = /^([A-Z0-9_]+)=/.exec(line)?.[1];
			return name !== undefined && !have.has(name);
		});
	if (missing.length > 0) {
		appendFileSync(".dev.vars", `\n${missing.join("\n")}\n`);
		console.log(`Added to .dev.vars from .dev.vars.example: ${missing.map((l) => l.split("=")[0]).join(", ")}.`);
	}
}
