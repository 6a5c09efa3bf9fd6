// startEdgezone in a Node test: edgezone on a free port with fresh state, the cloudflare SDK and
// an S3 client pointed at it, then stopped. Run it with `node start-edgezone.mjs`.
import { GetObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import Cloudflare from "cloudflare";
import { startEdgezone } from "edgezone";

const edgezone = await startEdgezone({ buckets: ["uploads"] });
try {
	const cf = new Cloudflare({ apiToken: edgezone.apiToken, baseURL: edgezone.apiBaseUrl });
	const zone = (await cf.zones.list({ name: "example.com" })).result[0];
	await cf.dns.records.create({ zone_id: zone.id, type: "A", name: "www.example.com", content: "192.0.2.1", ttl: 1 });
	const records = await cf.dns.records.list({ zone_id: zone.id });
	console.log(records.result.map((record) => `${record.type} ${record.name}`).join("\n"));

	const s3 = new S3Client({ ...edgezone.s3, forcePathStyle: true, credentials: edgezone.s3 });
	await s3.send(new PutObjectCommand({ Bucket: "uploads", Key: "report.txt", Body: "42" }));
	const object = await s3.send(new GetObjectCommand({ Bucket: "uploads", Key: "report.txt" }));
	console.log(await object.Body.transformToString());
} finally {
	await edgezone.stop();
}
