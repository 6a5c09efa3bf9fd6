/**
 * Expressions the filters, firewall rules and custom rules tests use: valid in the real Rules
 * language. INVALID is refused both by the real engine (a String field's right-hand side
 * `invalid` lexes as hex bytes: "invalid digit found in string while parsing with radix 16",
 * rules-language-and-ca.md §1.2) and by the placeholder module, which refuses the text
 * `invalid`; tests assert only that the message holds `Filter parsing error (`.
 */

/** A path equality. */
export const ADMIN = 'http.request.uri.path eq "/admin"';
/** An IP set with a CIDR. */
export const NET = "ip.src in {192.0.2.0/24}";
/** A substring match on the host. */
export const SHOP = 'http.host contains "shop"';
/** An expression the engine refuses. */
export const INVALID = "http.request.uri.path eq invalid";
