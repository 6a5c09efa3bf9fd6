/** What every gateway handler receives: the request, its parsed URL, the key it names, the bindings. */
export interface GatewayContext {
	request: Request;
	url: URL;
	key: string;
	env: Env;
}
