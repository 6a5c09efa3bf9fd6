/**
 * The zone's API v4 under `/client/v4`: a Hono app in the shape of Cloudflare's API, so
 * the official `cloudflare` SDK (github.com/cloudflare/cloudflare-typescript) drives it unchanged.
 *
 * Order of checks for every request, each with the real API's answer:
 * 1. routing: unknown path 400 7000, known path with another method 405 7001;
 * 2. authentication: 9106, 6003 (+ 6102 / 6103 / 6111), 9103, 9109 (`auth.ts`), then the
 *    credential's permission for what the matched route asks, registered with the route
 *    (`reads` / `writes`, `permissions.ts`): 403 10000;
 * 3. the zone of `/zones/{zone_id}/...`: malformed id 400 7003, out of the credential's
 *    reach 403 10000, unknown 404 (`zone-access.ts`);
 * 4. other path ids (7003), then body and query: 413 over 1 MiB, 400 naming the field
 *    (`validate.ts`).
 * Every error, typed or not, becomes the envelope in `onError`.
 */
import { Hono } from "hono";
import { auth } from "./auth";
import { certificatePacks } from "./certificate-packs";
import { customCertificates } from "./custom-certificates";
import { customHostnames } from "./custom-hostnames";
import { dnsRecords } from "./dns-records";
import { emulatorBuckets } from "./emulator/buckets";
import { chains } from "./emulator/chains";
import { clock } from "./emulator/clock";
import { dns } from "./emulator/dns";
import { emulatorLogs } from "./emulator/logs";
import { outbox } from "./emulator/outbox";
import { noRoute, toErrorResponse } from "./errors";
import { filters } from "./filters";
import { firewallRules } from "./firewall-rules";
import { logpull } from "./logpull";
import { logpush } from "./logpush";
import { managedTransforms } from "./managed-transforms";
import { r2BucketObjects } from "./r2-bucket-objects";
import { r2BucketCors, r2BucketLifecycle } from "./r2-bucket-settings";
import { r2Buckets } from "./r2-buckets";
import { r2Domains } from "./r2-custom-domains";
import { r2TemporaryCredentials } from "./r2-temporary-credentials";
import { routeGuard } from "./routing";
import { rulesetRules } from "./ruleset-rules";
import { rulesets } from "./rulesets";
import { totalTls } from "./total-tls";
import type { ApiEnv } from "./types";
import { universalSsl } from "./universal-ssl";
import { urlNormalization } from "./url-normalization";
import { userTokens } from "./user-tokens";
import { workersRoutes } from "./workers-routes";
import { zoneAccess } from "./zone-access";
import { zoneSettings } from "./zone-settings";
import { zones } from "./zones";

/** The API app; `fetch(request, env, ctx)` serves every path under `/client/v4`. */
export const api = new Hono<ApiEnv>().basePath("/client/v4");

api.use("*", routeGuard(api));
api.use("*", auth);
api.use("/zones/:zone_id", zoneAccess);
api.use("/zones/:zone_id/*", zoneAccess);

api.route("/zones", zones);
api.route("/user/tokens", userTokens);
api.route("/accounts/:account_id/r2", r2TemporaryCredentials);
api.route("/accounts/:account_id/r2/buckets/:bucket_name/domains", r2Domains);
api.route("/accounts/:account_id/r2/buckets", r2Buckets);
api.route("/accounts/:account_id/r2/buckets/:bucket_name/cors", r2BucketCors);
api.route("/accounts/:account_id/r2/buckets/:bucket_name/lifecycle", r2BucketLifecycle);
api.route("/accounts/:account_id/r2/buckets/:bucket_name/objects", r2BucketObjects);
api.route("/zones/:zone_id/rulesets", rulesets);
api.route("/zones/:zone_id/rulesets/:ruleset_id/rules", rulesetRules);
api.route("/zones/:zone_id/logpush", logpush);
api.route("/zones/:zone_id/logs", logpull);
api.route("/zones/:zone_id/filters", filters);
api.route("/zones/:zone_id/firewall/rules", firewallRules);
api.route("/zones/:zone_id/ssl/certificate_packs", certificatePacks);
api.route("/zones/:zone_id/ssl/universal/settings", universalSsl);
api.route("/zones/:zone_id/acm/total_tls", totalTls);
api.route("/zones/:zone_id/custom_certificates", customCertificates);
api.route("/zones/:zone_id/custom_hostnames", customHostnames);
api.route("/zones/:zone_id/url_normalization", urlNormalization);
api.route("/zones/:zone_id/managed_headers", managedTransforms);
api.route("/zones/:zone_id/settings", zoneSettings);
api.route("/zones/:zone_id/dns_records", dnsRecords);
api.route("/zones/:zone_id/workers/routes", workersRoutes);
// Emulator-only routes, not Cloudflare's (README, "Emulator-only routes"): the zone's own
// settings, so they ask the Zone group; the pending log asks what log-push does.
api.route("/zones/:zone_id/emulator/clock", clock);
api.route("/zones/:zone_id/emulator/outbox", outbox);
api.route("/zones/:zone_id/emulator/chains", chains);
api.route("/zones/:zone_id/emulator/logs", emulatorLogs);
api.route("/zones/:zone_id/emulator/dns", dns);
api.route("/zones/:zone_id/emulator/buckets", emulatorBuckets);

api.notFound(() => noRoute().toResponse());
api.onError((error) => toErrorResponse(error));
