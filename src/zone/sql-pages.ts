/**
 * Page-based reads of a zone table: the filters and firewall rules lists, whose SDK paginator
 * (`V4PagePaginationArray`, cloudflare-typescript `src/core/pagination.ts`) asks page after page.
 */

/** A condition of a list: an SQL clause with one `?`, and its value; undefined leaves the condition out. */
export type Condition = [clause: string, value: SqlStorageValue | undefined];

/**
 * Page `page` (from 1) of `perPage` rows of `table` matching every given condition, in `order`
 * (an ORDER BY list written by the caller, never by a client), and how many rows match in all.
 */
export function pageOf<Row extends Record<string, SqlStorageValue>>(
	sql: SqlStorage,
	table: string,
	conditions: Condition[],
	order: string,
	page: number,
	perPage: number,
): { rows: Row[]; total: number } {
	const given = conditions.filter(([, value]) => value !== undefined);
	const where = given.length === 0 ? "" : `WHERE ${given.map(([clause]) => clause).join(" AND ")}`;
	const bindings = given.map(([, value]) => value ?? null);
	const total = sql.exec<{ n: number }>(`SELECT count(*) AS n FROM ${table} ${where}`, ...bindings).one().n;
	const rows = sql
		.exec<Row>(
			`SELECT * FROM ${table} ${where} ORDER BY ${order} LIMIT ? OFFSET ?`,
			...bindings,
			perPage,
			(page - 1) * perPage,
		)
		.toArray();
	return { rows, total };
}
