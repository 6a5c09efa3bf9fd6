/**
 * Page-based lists of the API (filters, firewall rules, certificate packs, custom certificates,
 * custom hostnames): `page` and `per_page` in the query, `result_info` in the answer, `result: []`
 * past the last page.
 */
import { z } from "zod";
import type { PageInfo } from "./envelope";

/**
 * `page` (from 1) and `per_page` (5–100, default 25), as the filters and firewall rules lists
 * take them (Cloudflare's OpenAPI schema, github.com/cloudflare/api-schemas); the certificate lists take the same.
 */
export const PAGE_QUERY = {
	page: z.coerce.number().int().min(1).default(1),
	per_page: z.coerce.number().int().min(5).max(100).default(25),
};

/** Page-based `result_info` of one page of `count` items out of `total`. */
export function pageInfo(page: number, perPage: number, count: number, total: number): PageInfo {
	return { page, per_page: perPage, count, total_count: total, total_pages: Math.ceil(total / perPage) };
}
