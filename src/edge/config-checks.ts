/**
 * How often the edge asks a zone whether its configuration changed, per isolate.
 *
 * The edge keeps each zone's configuration (`zone-view.ts`) and its active custom hostnames
 * (`custom-hostname-routing.ts`) by configuration version, in a `VersionedCache`, and asks the
 * zone's Durable Object for a newer version at most every CONFIG_CHECK_INTERVAL_MS, so a request
 * does not wait on that call every time. The API expires a zone's entries in its own isolate
 * after every write to it, so locally (one isolate) a rule applies to the very next request; a
 * deployed edge's other isolates apply it within CONFIG_CHECK_INTERVAL_MS. The interval is
 * edgezone's choice.
 */

/** How long an isolate trusts the configuration version it last read for a zone, in ms. */
export const CONFIG_CHECK_INTERVAL_MS = 1_000;
