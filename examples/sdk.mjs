// The official `cloudflare` SDK against the API v4, unchanged but for its base URL. Run it with
// `npx node examples/sdk.mjs`, $B set to the Worker.
import Cloudflare from "cloudflare";

const cf = new Cloudflare({
	apiToken: "edgezone_dev_token_000000000000000000000",
	baseURL: `${process.env.B}/client/v4`,
});
const zone = await cf.zones.get({ zone_id: "023e105f4ecef8ad9ca31a8372d0c353" });
console.log(zone.name);
for await (const ruleset of cf.rulesets.list({ zone_id: zone.id })) console.log(ruleset.phase);
