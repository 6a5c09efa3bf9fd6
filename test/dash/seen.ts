/**
 * A dashboard page as a person meets it, parsed with workerd's HTMLRewriter: its text, its
 * headings, its fields found by their label (value, invalid state, the hint and error read with
 * them), its table rows, links and forms. The dashboard's tests assert these, not raw markup.
 */

/** One element of the page: its tag, attributes (entities decoded) and all the text inside it. */
interface Node {
	tag: string;
	attrs: Map<string, string>;
	text: string;
	/** The open elements around it, outermost first. */
	parents: Node[];
}

/** A field as a person meets it through its label. */
export interface Field {
	/** What the field holds: an input's value, a textarea's text, a select's chosen option's value. */
	value: string;
	/** Marked invalid (`aria-invalid="true"`). */
	invalid: boolean;
	/** What is read with it (`aria-describedby`): its hint and its error, in that order. */
	description: string;
	/** The error part of that description ("" when none). */
	error: string;
	/** A checkbox's state. */
	checked: boolean;
	/** A select's options: their labels. */
	options: string[];
	/** The values an input's `list` (a `datalist`) offers as the person types. */
	suggestions: string[];
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", bull: "•", nbsp: " " };

/** The text with HTML's character references resolved (the named ones the dashboard writes). */
function decode(text: string): string {
	return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, ref: string) => {
		if (ref.startsWith("#x") || ref.startsWith("#X")) return String.fromCodePoint(Number.parseInt(ref.slice(2), 16));
		if (ref.startsWith("#")) return String.fromCodePoint(Number(ref.slice(1)));
		return ENTITIES[ref.toLowerCase()] ?? whole;
	});
}

// Elements that never have an end tag (HTML's void elements).
const VOID = new Set([
	"area",
	"base",
	"br",
	"col",
	"embed",
	"hr",
	"img",
	"input",
	"link",
	"meta",
	"source",
	"track",
	"wbr",
]);

/** Whitespace runs as one space, trimmed: text as a person reads it. */
const squeeze = (text: string) => text.replace(/\s+/g, " ").trim();

/** A parsed page. */
export class Seen {
	readonly #nodes: Node[];

	constructor(nodes: Node[]) {
		this.#nodes = nodes;
	}

	/** The body's text, as read. */
	get text(): string {
		return squeeze(this.#nodes.find((n) => n.tag === "body")?.text ?? "");
	}

	/** The page's main heading (its `h1`), "" when it has none. */
	get h1(): string {
		return squeeze(this.#nodes.find((n) => n.tag === "h1")?.text ?? "");
	}

	/** The `h1`-`h3` headings, in page order. */
	get headings(): string[] {
		return this.#nodes.filter((n) => /^h[1-3]$/.test(n.tag)).map((n) => squeeze(n.text));
	}

	/** The one field labelled `label` (a `label for=` whose text is exactly it); throws unless there is one. */
	field(label: string): Field {
		const fields = this.fields(label);
		if (fields.length !== 1 || fields[0] === undefined) throw new Error(`${fields.length} fields labelled "${label}"`);
		return fields[0];
	}

	/** Every field labelled `label`, in page order (a page may hold several forms). */
	fields(label: string): Field[] {
		return this.#nodes
			.filter((n) => n.tag === "label" && squeeze(n.text) === label)
			.map((l) => this.#byId(l.attrs.get("for") ?? ""))
			.filter((control) => control !== undefined)
			.map((control) => this.#fieldOf(control));
	}

	#fieldOf(control: Node): Field {
		const options = this.#nodes.filter((n) => n.tag === "option" && n.parents.includes(control));
		const value =
			control.tag === "textarea"
				? control.text
				: control.tag === "select"
					? (options.find((o) => o.attrs.has("selected"))?.attrs.get("value") ?? "")
					: (control.attrs.get("value") ?? "");
		const described = (control.attrs.get("aria-describedby") ?? "").split(" ").filter((id) => id !== "");
		return {
			value,
			invalid: control.attrs.get("aria-invalid") === "true",
			description: squeeze(described.map((id) => this.#byId(id)?.text ?? "").join(" ")),
			error: squeeze(
				described
					.map((id) => this.#byId(id))
					.filter((n) => n?.attrs.get("class")?.split(" ").includes("error"))
					.map((n) => n?.text ?? "")
					.join(" "),
			),
			checked: control.attrs.has("checked"),
			options: options.map((o) => squeeze(o.text)),
			suggestions: this.#suggestionsOf(control),
		};
	}

	#suggestionsOf(control: Node): string[] {
		const list = control.attrs.get("list");
		const datalist = list === undefined ? undefined : this.#byId(list);
		if (datalist === undefined) return [];
		return this.#nodes
			.filter((n) => n.tag === "option" && n.parents.includes(datalist))
			.map((o) => o.attrs.get("value") ?? "");
	}

	/** The rows of the page's tables, each as the text of its cells (`th` and `td`). */
	get rows(): string[][] {
		return this.#nodes
			.filter((n) => n.tag === "tr")
			.map((row) =>
				this.#nodes
					.filter((n) => (n.tag === "td" || n.tag === "th") && n.parents.at(-1) === row)
					.map((c) => squeeze(c.text)),
			);
	}

	/** The links whose text (or accessible name, `aria-label`) is `name`: their attributes. */
	links(name: string): Map<string, string>[] {
		return this.#nodes
			.filter((n) => n.tag === "a" && (squeeze(n.text) === name || n.attrs.get("aria-label") === name))
			.map((n) => n.attrs);
	}

	/** The texts announced as alerts (`role="alert"`): error summaries. */
	get alerts(): string[] {
		return this.#nodes.filter((n) => n.attrs.get("role") === "alert").map((n) => squeeze(n.text));
	}

	/** The addresses the page's forms post to. */
	get formActions(): string[] {
		return this.#nodes.filter((n) => n.tag === "form").map((n) => n.attrs.get("action") ?? "");
	}

	#byId(id: string): Node | undefined {
		return this.#nodes.find((n) => n.attrs.get("id") === id);
	}
}

/** Parses `html` (a whole page) into what a person meets on it. */
export async function seen(html: string): Promise<Seen> {
	const nodes: Node[] = [];
	const open: Node[] = [];
	const rewriter = new HTMLRewriter()
		.on("*", {
			element(element) {
				const attrs = new Map<string, string>();
				for (const [name = "", value = ""] of element.attributes) attrs.set(name, decode(value));
				const node: Node = { tag: element.tagName, attrs, text: "", parents: [...open] };
				nodes.push(node);
				if (VOID.has(element.tagName)) return;
				open.push(node);
				element.onEndTag(() => {
					open.splice(open.lastIndexOf(node), 1);
				});
			},
		})
		.onDocument({
			text(chunk) {
				for (const node of open) node.text += chunk.text;
			},
		});
	await rewriter.transform(new Response(html)).text();
	// Decoded once whole: a character reference may straddle two text chunks.
	for (const node of nodes) node.text = decode(node.text);
	return new Seen(nodes);
}
