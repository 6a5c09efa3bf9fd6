// Generates the fixtures that are made by script (the PNG, the seeded binary, the large file in
// fixtures/generated/) and checks every fixture against fixtures/SHA256SUMS. Idempotent.
//   npm run fixtures                 make what is missing, check everything
//   npm run fixtures -- --write-sums record new hashes after changing a fixture on purpose
import { ensureFixtures } from "./lib/fixtures.mjs";

const writeSums = process.argv.includes("--write-sums");
try {
	await ensureFixtures({ writeSums, log: (line) => console.log(line) });
} catch (error) {
	console.error(`fixtures: ${error.message}`);
	process.exit(1);
}
