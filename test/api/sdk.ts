/** The official `cloudflare` SDK pointed at the Worker's front door, for the SDK tests. */
import { exports } from "cloudflare:workers";
import Cloudflare from "cloudflare";
import { TOKEN } from "./credentials";

/** A client authenticating with `apiToken` (the all-zones token unless given), without retries. */
export function sdkClient(apiToken = TOKEN): Cloudflare {
	return new Cloudflare({
		apiToken,
		baseURL: "http://localhost/client/v4",
		maxRetries: 0,
		fetch: (input, init) => exports.default.fetch(input, init),
	});
}
