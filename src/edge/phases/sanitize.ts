/**
 * `http_request_sanitize`: the zone's URL normalization (developers.cloudflare.com/rules/normalization/),
 * the first request phase: the path the rules' `http.request.uri*` fields see, and the URL the
 * destination is sent (`request-path.ts`).
 */
import { originUrl, rulesPath } from "../request-path";
import type { PhaseState } from "./state";

/** Sets the normalized path the rules see and the URL the origin is sent; never answers. */
export function sanitize(state: PhaseState): undefined {
	const { url, reader } = state;
	const normalization = state.view.config.urlNormalization;
	state.context = { ...state.context, path: () => rulesPath(url, normalization, reader) };
	state.origin = originUrl(url, normalization);
	return undefined;
}
