// The cloudflare SDK against edgezone's API v4, with the API token npx edgezone printed. Run it
// with `node first-api.mjs`, $B and $API_TOKEN exported as it says.
import Cloudflare from "cloudflare";

const cf = new Cloudflare({ apiToken: process.env.API_TOKEN, baseURL: `${process.env.B}/client/v4` });
for await (const zone of cf.zones.list()) console.log(zone.id, zone.name);
