/**
 * Where the zone's Origin Rules send a request: the `route` action's `action_parameters`
 * (developers.cloudflare.com/rules/origin-rules/features/), merged over every matching rule of the
 * `http_request_origin` phase in rule order, a later rule's field replacing an earlier one's.
 * Empty when no rule matched: the request goes to its record's own content, at its own port.
 */
export interface OriginRoute {
	/** The `Host` header the origin receives instead of the visitor's. */
	host_header?: string;
	/** The origin's address (a hostname, resolved like a DNS-only record) and its port (1-65535). */
	origin?: { host?: string; port?: number };
	/** The TLS server name sent to an HTTPS origin. */
	sni?: { value: string };
}
