/**
 * Custom log fields as the dashboard shows them, over the rules of the zone's
 * `http_log_custom_fields` entrypoint ruleset (https://developers.cloudflare.com/logs/reference/custom-fields/): a flat list of (Field Type, Field
 * Name), and the PUT body that adds or removes one. Pure: the API validates what is sent
 * (lower-case header names, the 40-name limit, `range` refused) and the page shows its messages.
 */
/** The five lists of `action_parameters` (`zone/phases/log-custom-fields.ts`), with their labels. */
export const FIELD_TYPES = {
	request_fields: "Request Header",
	response_fields: "Response Header",
	cookie_fields: "Cookies",
	transformed_request_fields: "Request Header (transformed)",
	raw_response_fields: "Response Header (raw)",
} as const;

/** A list of `action_parameters`. */
export type FieldType = keyof typeof FIELD_TYPES;

/** The Field Types the "Set new Custom Field" form offers, as Cloudflare's dashboard names them (https://developers.cloudflare.com/logs/reference/custom-fields/). */
export const SETTABLE_TYPES = ["request_fields", "response_fields", "cookie_fields"] as const satisfies FieldType[];

/** One configured custom field. */
export interface CustomField {
	type: FieldType;
	name: string;
}

/** A rule of the entrypoint as the API answers it (only the fields the dashboard keeps). */
export interface EntrypointRule {
	id?: string;
	ref?: string;
	action: string;
	expression: string;
	description?: string;
	enabled?: boolean;
	action_parameters?: Record<string, unknown>;
}

type Lists = Partial<Record<FieldType, { name: string; preserve_duplicates?: boolean }[]>>;

const isFieldType = (key: string): key is FieldType => Object.hasOwn(FIELD_TYPES, key);

/** The custom fields of a ruleset's rules, in rule then list order (disabled rules included). */
export function fieldsOf(rules: EntrypointRule[]): CustomField[] {
	return rules.flatMap((rule) =>
		rule.action !== "log_custom_field"
			? []
			: Object.entries((rule.action_parameters ?? {}) as Lists).flatMap(([type, list]) =>
					isFieldType(type) ? (list ?? []).map((f) => ({ type, name: f.name })) : [],
				),
	);
}

/** A rule as the PUT takes it back: the answer's read-only fields (`version`, `last_updated`) left out. */
export function asInput(rule: EntrypointRule): EntrypointRule {
	const { id, ref, action, expression, description, enabled, action_parameters } = rule;
	return { id, ref, action, expression, description, enabled, action_parameters };
}

/** A PUT body, and the JSON pointer of the field a change is about (its errors belong to the Field Name). */
export interface FieldsChange {
	rules: EntrypointRule[];
	pointer?: string;
}

/**
 * The rules with `field` added to the first `log_custom_field` rule (a new rule `true` when there
 * is none), and the pointer of the added name.
 */
export function withField(rules: EntrypointRule[], field: CustomField): FieldsChange {
	const next = rules.map(asInput);
	let at = next.findIndex((r) => r.action === "log_custom_field");
	if (at === -1) {
		next.push({ action: "log_custom_field", expression: "true", action_parameters: {} });
		at = next.length - 1;
	}
	const rule = next[at] as EntrypointRule;
	const lists = { ...(rule.action_parameters ?? {}) } as Lists;
	const list = [...(lists[field.type] ?? []), { name: field.name }];
	lists[field.type] = list;
	next[at] = { ...rule, action_parameters: lists };
	return { rules: next, pointer: `/rules/${at}/action_parameters/${field.type}/${list.length - 1}` };
}

/**
 * The rules without `field` (every occurrence); a list left empty goes, and a rule left with no
 * list goes, since the API refuses an empty list or empty `action_parameters`.
 */
export function withoutField(rules: EntrypointRule[], field: CustomField): FieldsChange {
	const next = rules.map(asInput).flatMap((rule) => {
		if (rule.action !== "log_custom_field") return [rule];
		const lists: Lists = {};
		for (const [type, list] of Object.entries((rule.action_parameters ?? {}) as Lists)) {
			if (!isFieldType(type)) continue;
			const kept = (list ?? []).filter((f) => !(type === field.type && f.name === field.name));
			if (kept.length > 0) lists[type] = kept;
		}
		return Object.keys(lists).length === 0 ? [] : [{ ...rule, action_parameters: lists }];
	});
	return { rules: next };
}

/** Whether an API error's pointer is about the name a change added (at or under `target`). */
export function isAbout(pointer: string, target: string | undefined): boolean {
	return target !== undefined && (pointer === target || pointer.startsWith(`${target}/`));
}
