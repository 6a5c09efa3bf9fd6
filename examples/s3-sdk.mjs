// @aws-sdk/client-s3 against the gateway's S3 dialect, configured as for R2 (path-style, region
// `auto`) with npm run dev's default credentials. Run it with `npx node examples/s3-sdk.mjs`,
// $B set to the Worker.
import { GetObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";

const s3 = new S3Client({
	endpoint: process.env.B,
	forcePathStyle: true,
	region: "auto",
	credentials: {
		accessKeyId: "38cba963a34a25df28b6e7a6e80f828e",
		secretAccessKey: "fa39b6fb4dca9fff1cdaf8d365f0346ed42b9ee1e823c0a2beadf5aa6a613a2f",
	},
});
const Bucket = "edgezone-bucket";
await s3.send(new PutObjectCommand({ Bucket, Key: "s3/hello.txt", Body: "hi", ContentType: "text/plain" }));
const object = await s3.send(new GetObjectCommand({ Bucket, Key: "s3/hello.txt" }));
console.log(object.ContentType, await object.Body.transformToString());
