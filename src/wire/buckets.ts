/**
 * Which bound bucket a gateway request names (docs/gateway.md, "Buckets"): the header
 * `x-r2-bucket` with a bucket name, or none for the gateway's own bucket (`BUCKET`). A header
 * rather than a path segment or a host name, so it shadows no object key and works from any
 * client, `fetch` included (which cannot set `Host`).
 */

/** The request header naming a bucket other than the gateway's own. */
export const BUCKET_HEADER = "x-r2-bucket";
