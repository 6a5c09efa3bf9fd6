/** A plain data table, shared by the pages. */
import type { Child, FC } from "hono/jsx";

/** A table with column headers: `columns` in order, `caption` above. */
export const Listing: FC<{ columns: string[]; caption?: string; children?: Child }> = (p) => (
	<table>
		{p.caption !== undefined && <caption>{p.caption}</caption>}
		<thead>
			<tr>
				{p.columns.map((column) => (
					<th scope="col">{column}</th>
				))}
			</tr>
		</thead>
		<tbody>{p.children}</tbody>
	</table>
);
