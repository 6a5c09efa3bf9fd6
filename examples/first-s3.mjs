// @aws-sdk/client-s3 against edgezone's S3 endpoint, with the S3 keys npx edgezone printed. Run it
// with `node first-s3.mjs`, $B, $S3_ACCESS_KEY_ID and $S3_SECRET_ACCESS_KEY exported as it says.
import { GetObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";

const s3 = new S3Client({
	endpoint: process.env.B,
	forcePathStyle: true,
	region: "auto",
	credentials: { accessKeyId: process.env.S3_ACCESS_KEY_ID, secretAccessKey: process.env.S3_SECRET_ACCESS_KEY },
});
await s3.send(new PutObjectCommand({ Bucket: "edgezone-bucket", Key: "first.txt", Body: "hello over S3" }));
const object = await s3.send(new GetObjectCommand({ Bucket: "edgezone-bucket", Key: "first.txt" }));
console.log(await object.Body.transformToString());
