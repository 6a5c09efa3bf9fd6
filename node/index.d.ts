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

/** Options of {@link edgezoneWorker}. */
export interface EdgezoneWorkerOptions {
	/** Bucket names (R2's rules); the first is the gateway's default. Default `["edgezone-bucket"]`. */
	buckets?: string[];
	/** The emulator's default origin for proxied DNS records (`DEFAULT_ORIGIN_URL`). */
	origin?: string;
	/** Directory of the generated config, secrets and the built Worker. Default `.edgezone/vitest`. */
	persistTo?: string;
}

/** edgezone as an auxiliary Worker of a test pool, and the credentials its requests need. */
export interface EdgezoneWorker {
	/** Miniflare worker options, named `"edgezone"`: an entry of the pool's `miniflare.workers`. */
	worker: {
		name: "edgezone";
		modulesRoot: string;
		modules: { type: "ESModule" | "Text"; path: string }[];
		compatibilityDate?: string;
		compatibilityFlags?: string[];
		/** Its vars and secrets. */
		bindings?: Record<string, string>;
		r2Buckets?: Record<string, { id: string }>;
		durableObjects?: Record<string, { className: string; useSQLite?: boolean }>;
	};
	/** An API token reaching every zone. */
	apiToken: string;
	/** A read-write token of the bucket gateway. */
	gatewayToken: string;
	/** R2's S3 credentials of `apiToken` (path-style, region `auto`). */
	s3: { region: "auto"; accessKeyId: string; secretAccessKey: string };
	/** The buckets served, the gateway's default first. */
	buckets: string[];
}

/**
 * Builds edgezone (wrangler's bundler) and answers it as Miniflare worker options for a
 * `@cloudflare/vitest-plugin` pool's `miniflare.workers`, with its credentials. Synchronous:
 * call it in `vitest.config.ts`. Its requests reach it through a service binding to `"edgezone"`.
 * @throws Error for an option that is not valid, or when the build fails.
 */
export function edgezoneWorker(options?: EdgezoneWorkerOptions): EdgezoneWorker;
