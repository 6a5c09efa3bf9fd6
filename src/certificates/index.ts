/**
 * The 2024 CA chain schedule, as a pure module: the CAs and their chains as data, CAA and the
 * default CA, the chain served for a certificate on a date, the moves the clock makes, and the
 * client platforms that validate a served chain. Facts: Cloudflare's "Let's Encrypt chain update"
 * (https://developers.cloudflare.com/ssl/reference/migration-guides/lets-encrypt-chain/), its CA
 * pages and Let's Encrypt's certificate pages; each file's header lists what it follows and what the
 * facts leave open.
 */
export * from "./authorities.ts";
export * from "./ca-certificates.ts";
export * from "./caa.ts";
export * from "./clients.ts";
export * from "./moves.ts";
export * from "./schedule.ts";
