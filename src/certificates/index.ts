/**
 * The 2024 CA chain schedule, as a pure module: the CAs and their chains as data, CAA and the
 * default CA, the chain served for a certificate on a date, the moves the clock makes, and the
 * client platforms that validate a served chain. Facts: the spec's "D. Custom hostname" and
 * Versioning sections, `shared/reference/rules-language-and-ca.md` Part 2 and
 * `cloudflare-api-v4.md` §7; each file's header lists what it follows and what the facts leave open.
 */
export * from "./authorities.ts";
export * from "./ca-certificates.ts";
export * from "./caa.ts";
export * from "./clients.ts";
export * from "./moves.ts";
export * from "./schedule.ts";
