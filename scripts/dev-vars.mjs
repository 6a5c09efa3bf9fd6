// Seeds .dev.vars from .dev.vars.example when it does not exist, so `npm run dev`
// works on a fresh clone with the documented default credentials.
import { copyFileSync, existsSync } from "node:fs";

if (!existsSync(".dev.vars")) {
	copyFileSync(".dev.vars.example", ".dev.vars");
	console.log("Created .dev.vars from .dev.vars.example (local default credentials).");
}
