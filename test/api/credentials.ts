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
/** An X-Auth-Email + X-Auth-Key pair reaching every zone. */
export const EMAIL = "test@example.com";
export const KEY = "abcdef0123456789abcdef0123456789abcde";
/** A second pair, listed after the first, reaching only the default zone. */
export const OTHER_EMAIL = "other@example.org";
export const OTHER_KEY = "0123456789abcdef0123456789abcdef01234";

/** The `API_CREDENTIALS` document the tests run with. */
export const API_CREDENTIALS = [
	{ token: TOKEN, zones: "*" },
	{ token: SCOPED_TOKEN, zones: [DEFAULT_ZONE_ID] },
	{ email: EMAIL, key: KEY, zones: "*" },
	{ email: OTHER_EMAIL, key: OTHER_KEY, zones: [DEFAULT_ZONE_ID] },
];
