/**
 * Credentials of the API tests: read by vitest.config.ts (to build the `API_CREDENTIALS`
 * binding) and by the tests (to send them).
 */

/** The zone every test worker starts with (DEFAULT_ZONE_ID in wrangler.toml). */
export const DEFAULT_ZONE_ID = "023e105f4ecef8ad9ca31a8372d0c353";

/** A bearer token reaching every zone. */
export const TOKEN = "test_token_all_zones_0000000000000000000";
/** A bearer token reaching only the default zone. */
export const SCOPED_TOKEN = "test_token_default_zone_only_00000000000";
/** The id SCOPED_TOKEN's entry declares (every other token's id is derived from its value). */
export const SCOPED_TOKEN_ID = "5c0be1d0000000000000000000000001";
/** A bearer token reaching every zone that only reads (`"access": "read"`). */
export const READ_TOKEN = "test_token_read_only_all_zones_000000000";
/** A bearer token with the permissions "Zone Read" and "Zone WAF Edit", every zone. */
export const WAF_TOKEN = "test_token_zone_read_waf_edit_0000000000";
/** A bearer token with the permission "Logs Read" only, every zone. */
export const LOGS_READ_TOKEN = "test_token_logs_read_0000000000000000000";
/** A bearer token with the permission "SSL and Certificates Read" only, every zone. */
export const SSL_READ_TOKEN = "test_token_ssl_read_00000000000000000000";
/** A bearer token with the permission "SSL and Certificates Edit" only, every zone. */
export const SSL_EDIT_TOKEN = "test_token_ssl_edit_00000000000000000000";
/** A bearer token with the permission "DNS Read" only, every zone. */
export const DNS_READ_TOKEN = "test_token_dns_read_00000000000000000000";
/** A bearer token with the permissions "Zone Read" and "Transform Rules Edit", every zone. */
export const TRANSFORM_TOKEN = "test_token_transform_rules_edit_00000000";
/** A bearer token with the permission "Workers Routes Read" only, every zone. */
export const ROUTES_READ_TOKEN = "test_token_workers_routes_read_000000000";
/**
 * A bearer token with "Zone Read" (so it opens the dashboard's zone pages) and R2's "Workers R2
 * Storage Bucket Item Edit" (Object Read & Write), scoped to the bucket `edgezone-bucket`.
 */
export const R2_BUCKET_ITEM_TOKEN = "test_token_r2_bucket_item_edit_000000000";
/** A bearer token with R2's "Workers R2 Storage Read" (Admin Read only). */
export const R2_ADMIN_READ_TOKEN = "test_token_r2_storage_read_0000000000000";
/**
 * A bearer token reaching only the default zone with R2's "Workers R2 Storage Edit" (Admin Read &
 * Write), which a token of listed zones is never given for a whole bucket (src/common/s3-keys.ts).
 */
export const R2_ZONE_EDIT_TOKEN = "test_token_r2_edit_default_zone_00000000";
/** An X-Auth-Email + X-Auth-Key pair reaching every zone. */
export const EMAIL = "test@example.com";
export const KEY = "abcdef0123456789abcdef0123456789abcde";
/** A second pair, listed after the first, reaching only the default zone. */
export const OTHER_EMAIL = "other@example.org";
export const OTHER_KEY = "0123456789abcdef0123456789abcdef01234";
/** A pair that only reads (`"access": "read"`), every zone. */
export const READ_EMAIL = "reader@example.org";
export const READ_KEY = "fedcba9876543210fedcba9876543210fedcb";

/** The `API_CREDENTIALS` document the tests run with. */
export const API_CREDENTIALS = [
	{ token: TOKEN, zones: "*" },
	{ token: SCOPED_TOKEN, id: SCOPED_TOKEN_ID, zones: [DEFAULT_ZONE_ID] },
	{ email: EMAIL, key: KEY, zones: "*" },
	{ email: OTHER_EMAIL, key: OTHER_KEY, zones: [DEFAULT_ZONE_ID] },
	{ token: READ_TOKEN, zones: "*", access: "read" },
	{ token: WAF_TOKEN, zones: "*", permissions: ["Zone Read", "Zone WAF Edit"] },
	{ token: LOGS_READ_TOKEN, zones: "*", permissions: ["Logs Read"] },
	{ token: SSL_READ_TOKEN, zones: "*", permissions: ["SSL and Certificates Read"] },
	{ token: SSL_EDIT_TOKEN, zones: "*", permissions: ["SSL and Certificates Edit"] },
	{ token: DNS_READ_TOKEN, zones: "*", permissions: ["DNS Read"] },
	{ token: ROUTES_READ_TOKEN, zones: "*", permissions: ["Workers Routes Read"] },
	{ token: TRANSFORM_TOKEN, zones: "*", permissions: ["Zone Read", "Transform Rules Edit"] },
	{ email: READ_EMAIL, key: READ_KEY, zones: "*", access: "read" },
	{
		token: R2_BUCKET_ITEM_TOKEN,
		zones: "*",
		permissions: ["Zone Read", "Workers R2 Storage Bucket Item Edit"],
		buckets: ["edgezone-bucket"],
	},
	{ token: R2_ADMIN_READ_TOKEN, zones: "*", permissions: ["Workers R2 Storage Read"] },
	{ token: R2_ZONE_EDIT_TOKEN, zones: [DEFAULT_ZONE_ID], permissions: ["Workers R2 Storage Edit"] },
];
