/**
 * Size limits of a zone's rulesets, each with its source. Cloudflare documents few of them;
 * the others are edgezone's, generous for real configurations, and small enough that no
 * stored row nears the 2 MB a deployed SQLite Durable Object accepts.
 *
 * | limit                               | value        | source |
 * |-------------------------------------|--------------|--------|
 * | rule expression                     | 4,096 chars  | docs ruleset-engine/rules-language/expressions, "Maximum rule expression length" |
 * | names per custom-field list         | 100          | docs logs/logpush/logpush-job/custom-fields ("100 headers per field type") |
 * | custom fields per zone              | 40           | edgezone (no public per-zone figure) |
 * | header or cookie name               | 256 chars    | edgezone (no documented limit) |
 * | ruleset name                        | 256 chars    | edgezone |
 * | ruleset description                 | 500 chars    | edgezone, as a rule's |
 * | rule description                    | 500 chars    | edgezone |
 * | rule ref                            | 64 chars     | edgezone |
 * | versions kept per ruleset           | 100          | edgezone (the real API keeps all; no paging in the SDK) |
 * | filter / firewall rule description  | 500 chars    | cloudflare/api-schemas openapi.json (maxLength) |
 * | filter / firewall rule ref          | 50 chars     | cloudflare/api-schemas openapi.json (maxLength) |
 * | filters per zone                    | 5,000        | edgezone (rule quota 1,000 plus filters shared by other features) |
 * | custom rules per ruleset            | 100          | edgezone, the Business plan's (docs waf/custom-rules: 5 / 20 / 100 / 1,000 by plan) |
 * | custom rules per ruleset, as JSON   | 1 MiB        | edgezone, so a version snapshot stays far under 2 MB |
 * | block response `content`            | 10,240 chars | edgezone (docs waf/custom-rules/create-api mention a 10 KB body; unverified) |
 *
 * Worst case of the largest row, a `ruleset_versions.snapshot`: rules are accepted only in
 * `http_log_custom_fields`, where every rule names at least one of the zone's 40 fields, so
 * a ruleset has at most 40 rules. JSON.stringify writes at most 6 bytes per character (a
 * control character as `\u001f`); names are RFC 9110 tokens, 1 byte each. Per rule: id,
 * version, dates and keys ~250 B, ref 64 × 6, description 500 × 6, expression "true": ~3.7 kB;
 * 40 rules ~148 kB, 40 names ~10 kB, ruleset name and description ~4.6 kB: under 170 kB,
 * a twelfth of 2 MB. A phase that accepts many rules with long expressions must bound
 * their number in its `checkAll` (phase table) to keep this true: `http_request_firewall_custom`
 * bounds both its rule count and the JSON size of its rules (`phases/firewall-custom.ts`), and
 * so do the Transform, Redirect and Origin Rules' phases, with the same check.
 */

/** Characters of a rule expression (docs: "The maximum length of a rule expression is 4,096 characters"). */
export const MAX_EXPRESSION = 4096;

/** Names per custom-field list (docs: "100 headers per field type"). */
export const MAX_FIELDS_PER_LIST = 100;

/** Characters of a header or cookie name in a custom-field list. */
export const MAX_FIELD_NAME = 256;

/** Characters of a ruleset name. */
export const MAX_RULESET_NAME = 256;

/** Characters of a ruleset description. */
export const MAX_RULESET_DESCRIPTION = 500;

/** Characters of a rule description. */
export const MAX_RULE_DESCRIPTION = 500;

/** Characters of a rule ref. */
export const MAX_REF = 64;

/** Versions of a ruleset kept readable; older ones are deleted as new ones are written. */
export const KEPT_VERSIONS = 100;

/** Characters of a filter's or a firewall rule's description (cloudflare/api-schemas openapi.json). */
export const MAX_FIREWALL_DESCRIPTION = 500;

/** Characters of a filter's or a firewall rule's ref (cloudflare/api-schemas openapi.json). */
export const MAX_FIREWALL_REF = 50;

/** Filters of one zone: each is a row of its own (at most ~30 kB), so 5,000 stay far from any storage limit. */
export const MAX_FILTERS = 5000;

/** Rules of one `http_request_firewall_custom` ruleset. */
export const MAX_CUSTOM_RULES = 100;

/** UTF-8 bytes of the JSON of one ruleset's custom rules: keeps a version snapshot under 2 MB whatever the rules hold. */
export const MAX_CUSTOM_RULES_BYTES = 1024 * 1024;

/** Characters of a custom block response's `content`. */
export const MAX_RESPONSE_CONTENT = 10_240;
