/**
 * A record's comment and tags in a zone file, as Cloudflare's import and export write them in the
 * comment after the record (developers.cloudflare.com/dns/manage-dns-records/how-to/
 * import-and-export/, "DNS record attributes"): `; <comment> cf_tags=<tags>`, the comment verbatim
 * and the tags after the last `cf_tags=` (so a comment holding `cf_tags=` ends with another
 * ` cf_tags=`); tags comma-separated, each `name`, `name:` or `name:value`, a value holding `"`,
 * `=`, `,` or `\` quoted as a JSON string. The reserved tags `cf-proxied:true|false` and
 * `cf-flatten-cname` carry the record's proxy status and CNAME flattening, and are not kept as tags.
 */

import { splitTag } from "../dns-record-checks";

/** What the comment after a record says. */
export interface RecordAttributes {
	/** Undefined without a comment. */
	comment: string | undefined;
	/** `name:value` (or a bare `name`), reserved tags left out. */
	tags: string[];
	/** `cf-proxied`'s value; undefined without the tag. */
	proxied: boolean | undefined;
	/** Whether `cf-flatten-cname` is there. */
	flattenCname: boolean;
}

const MARK = "cf_tags=";

/** The attributes of a record's comment (undefined: none), or the problem with its tags. */
export function readAttributes(comment: string | undefined): RecordAttributes | string {
	const none: RecordAttributes = { comment: undefined, tags: [], proxied: undefined, flattenCname: false };
	if (comment === undefined || comment === "") return none;
	const at = comment.lastIndexOf(MARK);
	if (at === -1) return { ...none, comment };
	const text = comment.slice(0, at).trim();
	const tags = readTags(comment.slice(at + MARK.length).trim());
	if (typeof tags === "string") return tags;
	const attributes: RecordAttributes = { ...none, comment: text === "" ? undefined : text };
	for (const tag of tags) {
		const [name = "", value] = splitTag(tag);
		if (name === "cf-proxied") {
			if (value !== "true" && value !== "false") return 'cf-proxied is "true" or "false"';
			attributes.proxied = value === "true";
		} else if (name === "cf-flatten-cname") attributes.flattenCname = true;
		else attributes.tags.push(tag);
	}
	return attributes;
}

/** The tags of `text` (after `cf_tags=`), each as `name:value` or `name`. */
function readTags(text: string): string[] | string {
	const tags: string[] = [];
	let i = 0;
	while (i < text.length) {
		const name = /^[A-Za-z0-9_-]+/.exec(text.slice(i))?.[0];
		if (name === undefined) return `a tag's name is letters, digits, underscores and hyphens, at "${excerpt(text, i)}"`;
		i += name.length;
		let tag = name;
		if (text[i] === ":") {
			i++;
			if (text[i] === '"') {
				const quoted = /^"(?:[^"\\]|\\.)*"/.exec(text.slice(i))?.[0];
				if (quoted === undefined) return `the quoted value of tag ${name} is not closed`;
				let value: unknown;
				try {
					value = JSON.parse(quoted);
				} catch {
					return `the quoted value of tag ${name} is not a JSON string`;
				}
				tag = `${name}:${String(value)}`;
				i += quoted.length;
			} else {
				const end = text.indexOf(",", i);
				tag = `${name}:${text.slice(i, end === -1 ? text.length : end).trim()}`;
				i = end === -1 ? text.length : end;
			}
		}
		tags.push(tag);
		if (i < text.length && text[i] !== ",") return `tags are separated by commas, at "${excerpt(text, i)}"`;
		i++;
		while (text[i] === " ") i++;
	}
	return tags;
}

/** At most 40 characters of `text` from `at`, for a message. */
const excerpt = (text: string, at: number) =>
	text.length - at > 40 ? `${text.slice(at, at + 40)}...` : text.slice(at);

/**
 * The comment an export writes after a record (without the `; `), or "" for none: the comment, then
 * `cf_tags=` and the tags, reserved ones last (`cf-proxied` for a proxiable record, as Cloudflare's
 * export adds "automatically ... to reflect the current configuration").
 */
export function writeAttributes(a: {
	comment: string | undefined;
	tags: readonly string[];
	proxied: boolean | undefined;
	flattenCname: boolean;
}): string {
	const tags = a.tags.map((tag) => {
		const [name, value] = splitTag(tag);
		if (value === undefined || !/["=,\\]/.test(value)) return tag;
		// `=` escaped too, so that no quoted value holds the text `cf_tags=` that ends a comment.
		return `${name}:${JSON.stringify(value).replaceAll("=", "\\u003d")}`;
	});
	if (a.flattenCname) tags.push("cf-flatten-cname");
	if (a.proxied !== undefined) tags.push(`cf-proxied:${a.proxied}`);
	const comment = a.comment ?? "";
	if (tags.length === 0) return comment.includes(MARK) ? `${comment} ${MARK}` : comment;
	return comment === "" ? `${MARK}${tags.join(",")}` : `${comment} ${MARK}${tags.join(",")}`;
}
