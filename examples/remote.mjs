// RemoteBucket, the binding's interface over the gateway, from Node 22.18 or later (which runs the
// TypeScript client as is). Run it with `npx node examples/remote.mjs`, $B set to the Worker.
import { RemoteBucket } from "../src/client/index.ts";

const bucket = new RemoteBucket({ url: process.env.B, token: "dev-token" });
await bucket.put("hello.txt", "hi", { httpMetadata: { contentType: "text/plain" } });
const object = await bucket.get("hello.txt");
console.log(object?.httpMetadata?.contentType, await object?.text());
