/** Options of {@link startEdgezone}. */
export interface StartEdgezoneOptions {
	/** Bucket names (R2's rules); the first is the gateway's default. Default `["edgezone-bucket"]`. */
	buckets?: string[];
	/** The emulator's default origin for proxied DNS records (`DEFAULT_ORIGIN_URL`). */
	origin?: string;
	/** TCP port on 127.0.0.1. Default: a free one. */
	port?: number;
	/** Directory of the generated config, secrets and state, kept after `stop()`. Default: a fresh temporary one, removed by `stop()`. */
	persistTo?: string;
	/** wrangler's log level. Default `"warn"`. */
	logLevel?: "none" | "error" | "warn" | "info" | "log" | "debug";
}

/** A running edgezone. */
export interface Edgezone {
	/** Its address, `http://127.0.0.1:<port>`: the bucket gateway and the S3 dialect; the zone by `Host`. */
	url: string;
	/** The API v4: `<url>/client/v4`, the `cloudflare` SDK's `baseURL`. */
	apiBaseUrl: string;
	/** An API token reaching every zone (the SDK's `apiToken`); it also signs in to the dashboard. */
	apiToken: string;
	/** A read-write token of the bucket gateway (`Authorization: Bearer <token>`). */
	gatewayToken: string;
	/** R2's S3 credentials of `apiToken`, for an S3 client (path-style, region `auto`). */
	s3: { endpoint: string; region: "auto"; accessKeyId: string; secretAccessKey: string };
	/** The buckets served, the gateway's default first. */
	buckets: string[];
	/** Stops it and removes its temporary state. */
	stop(): Promise<void>;
}

/**
 * Starts edgezone with wrangler's `unstable_startWorker` on a free port with fresh state, and
 * resolves once it serves requests.
 * @throws Error for an option that is not valid, or when wrangler cannot start the Worker.
 */
export function startEdgezone(options?: StartEdgezoneOptions): Promise<Edgezone>;
