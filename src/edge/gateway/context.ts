/** What every gateway handler receives: the request, its parsed URL, the key and the bucket it names, the bindings. */
export interface GatewayContext {
	request: Request;
	url: URL;
	key: string;
	/** The bucket the request names (`buckets.ts`): `BUCKET` unless `x-r2-bucket` says another. */
	bucket: R2Bucket;
	env: Env;
	/** The SSE-C key a read hands the binding (the S3 dialect's; the native dialect sends none). */
	ssecKey?: ArrayBuffer;
	/** Whether an unquoted ETag in If-Match or If-None-Match reads as quoted (the S3 dialect's; `conditionals.ts`). */
	etagsAsQuoted?: boolean;
}
