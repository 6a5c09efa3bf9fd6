/**
 * edgezone's client: `RemoteBucket`, the R2Bucket interface over the bucket gateway
 * (docs/gateway.md), for Node 22 and Workers.
 */
export { RemoteBucket } from "./bucket.ts";
export { type FetchLike, RemoteBucketError } from "./transport.ts";
