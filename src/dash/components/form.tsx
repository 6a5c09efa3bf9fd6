/**
 * Form parts every page uses: labelled fields that show the API's errors next to themselves
 * (`aria-invalid`, `aria-describedby`), the CSRF input, an error summary and a notice.
 * The API says which field an error is about with `source.pointer` (a JSON pointer into the
 * request body); `sortErrors` turns a page's pointer map into per-field messages.
 */
import type { Context } from "hono";
import { type Child, createContext, type FC, useContext } from "hono/jsx";
import type { ResponseInfo } from "../../api/envelope";
import { messagesOf } from "../api-call";

/** Errors of one form: by field name, and those that belong to no one field. */
export interface FormErrors {
	fields: Record<string, string[]>;
	form: string[];
}

/** No errors. */
export const NO_ERRORS: FormErrors = { fields: {}, form: [] };

/**
 * Sorts API errors by field: `fieldOf(pointer)` names the form field a pointer is about, or
 * undefined for the form as a whole (as is every error without a pointer).
 */
export function sortErrors(errors: ResponseInfo[], fieldOf: (pointer: string) => string | undefined): FormErrors {
	const sorted: FormErrors = { fields: {}, form: [] };
	for (const error of errors) {
		const field = error.source?.pointer === undefined ? undefined : fieldOf(error.source.pointer);
		const [message = error.message] = messagesOf([error]);
		addError(sorted, field, message);
	}
	return sorted;
}

/** Adds `message` to `field`'s errors, or to the form's when `field` is undefined. */
export function addError(errors: FormErrors, field: string | undefined, message: string): void {
	if (field === undefined) {
		errors.form.push(message);
		return;
	}
	const list = errors.fields[field] ?? [];
	list.push(message);
	errors.fields[field] = list;
}

/** The hidden CSRF input every POST form carries. */
export const Csrf: FC<{ token: string }> = ({ token }) => <input type="hidden" name="csrf" value={token} />;

/** Errors of the whole form, announced when the page shows them. */
export const ErrorSummary: FC<{ messages: string[]; id?: string }> = ({ messages, id }) =>
	messages.length === 0 ? null : (
		<div class="alert" role="alert" id={id}>
			{messages.length === 1 ? (
				<p>{messages[0]}</p>
			) : (
				<ul>
					{messages.map((m) => (
						<li>{m}</li>
					))}
				</ul>
			)}
		</div>
	);

/** A confirmation of what was just done. */
export const Notice: FC<{ text?: string }> = ({ text }) =>
	text === undefined ? null : (
		<p class="notice" role="status">
			{text}
		</p>
	);

/** The form fields belong to: its name (the base of their ids) and the errors the API gave it. */
export interface Scope {
	form: string;
	errors?: FormErrors;
}

const ScopeContext = createContext<Scope | undefined>(undefined);

/**
 * Fields inside take `form` and `errors` from here unless they name their own, so a form's
 * fields need not repeat them: `<FormScope form="job" errors={errors}>...</FormScope>`.
 */
export const FormScope: FC<Scope & { children?: Child }> = ({ form, errors, children }) => (
	<ScopeContext.Provider value={{ form, errors }}>{children}</ScopeContext.Provider>
);

/** A field's form and errors: its own props first, then the enclosing `FormScope`'s. */
function scopeOf(props: Partial<Scope>): Scope {
	const scope = useContext(ScopeContext);
	const form = props.form ?? scope?.form;
	if (form === undefined) throw new TypeError("A form field outside a FormScope names no form.");
	return { form, errors: props.errors ?? (props.form === undefined ? scope?.errors : undefined) };
}

interface FieldProps {
	/** The form field's name, also the base of its id. */
	name: string;
	label: string;
	/** The form this field belongs to, to keep ids unique on a page with several forms (default: the FormScope's). */
	form?: string;
	/** Default: the FormScope's, unless the field names its own form. */
	errors?: FormErrors;
	hint?: string;
}

/** The ids and ARIA attributes of a field with its hint and errors. */
function described(props: FieldProps) {
	const { form, errors } = scopeOf(props);
	const id = `${form}-${props.name}`;
	const messages = errors?.fields[props.name] ?? [];
	const hintId = props.hint === undefined ? undefined : `${id}-hint`;
	const errorId = messages.length === 0 ? undefined : `${id}-error`;
	const describedBy = [hintId, errorId].filter((x) => x !== undefined).join(" ");
	return {
		id,
		messages,
		hintId,
		errorId,
		aria: {
			"aria-invalid": messages.length > 0 ? "true" : undefined,
			"aria-describedby": describedBy === "" ? undefined : describedBy,
		},
	};
}

const Below: FC<{ hint?: string; hintId?: string; messages: string[]; errorId?: string }> = (p) => (
	<>
		{p.hint !== undefined && (
			<p class="hint" id={p.hintId}>
				{p.hint}
			</p>
		)}
		{p.messages.length > 0 && (
			<p class="error" id={p.errorId}>
				{p.messages.join(" ")}
			</p>
		)}
	</>
);

/** A typed number as the API takes it; not a number: as typed, so the API's own message says what is wrong. */
export function numberOrText(typed: string): number | string {
	return Number.isFinite(Number(typed)) ? Number(typed) : typed;
}

/** One labelled checkbox sending `name=true` when checked; its id is `{form}-{name}`, its errors shown below it. */
export const Checkbox: FC<{ form?: string; name: string; label: string; checked: boolean; errors?: FormErrors }> = (
	p,
) => {
	const d = described(p);
	return (
		<div>
			<input type="checkbox" id={d.id} name={p.name} value="true" checked={p.checked} {...d.aria} />{" "}
			<label class="inline" for={d.id}>
				{p.label}
			</label>
			<Below messages={d.messages} errorId={d.errorId} />
		</div>
	);
};

/** A labelled text input (or password, email, number). */
export const TextField: FC<
	FieldProps & {
		value?: string;
		type?: "text" | "password" | "email" | "number" | "date" | "datetime-local";
		required?: boolean;
		autocomplete?: string;
		step?: string;
		/** Values the browser offers as the person types (a `datalist`); any other may still be typed. */
		suggestions?: readonly string[];
	}
> = (props) => {
	const d = described(props);
	const listId = props.suggestions === undefined || props.suggestions.length === 0 ? undefined : `${d.id}-suggestions`;
	return (
		<div>
			<label for={d.id}>{props.label}</label>
			<input
				id={d.id}
				name={props.name}
				type={props.type ?? "text"}
				value={props.value ?? ""}
				required={props.required}
				autocomplete={props.autocomplete ?? "off"}
				step={props.step}
				list={listId}
				{...d.aria}
			/>
			{listId === undefined ? null : (
				<datalist id={listId}>
					{props.suggestions?.map((value) => (
						<option value={value} />
					))}
				</datalist>
			)}
			<Below hint={props.hint} hintId={d.hintId} messages={d.messages} errorId={d.errorId} />
		</div>
	);
};

/** A labelled multi-line text area (PEM blocks, JSON). */
export const TextArea: FC<FieldProps & { value?: string; rows?: number; required?: boolean }> = (props) => {
	const d = described(props);
	return (
		<div>
			<label for={d.id}>{props.label}</label>
			<textarea
				id={d.id}
				name={props.name}
				rows={props.rows ?? 6}
				required={props.required}
				spellcheck={false}
				autocomplete="off"
				{...d.aria}
			>
				{props.value ?? ""}
			</textarea>
			<Below hint={props.hint} hintId={d.hintId} messages={d.messages} errorId={d.errorId} />
		</div>
	);
};

/** A labelled select of `options` (value and label each). */
export const SelectField: FC<FieldProps & { options: [value: string, label: string][]; value?: string }> = (props) => {
	const d = described(props);
	return (
		<div>
			<label for={d.id}>{props.label}</label>
			<select id={d.id} name={props.name} {...d.aria}>
				{props.options.map(([value, label]) => (
					<option value={value} selected={value === props.value}>
						{label}
					</option>
				))}
			</select>
			<Below hint={props.hint} hintId={d.hintId} messages={d.messages} errorId={d.errorId} />
		</div>
	);
};

/** A group of checkboxes under one legend (`name` repeated, one value each). */
export const CheckboxGroup: FC<
	FieldProps & { options: [value: string, label: string][]; checked: string[]; children?: Child }
> = (props) => {
	const d = described(props);
	return (
		<fieldset {...d.aria}>
			<legend>{props.label}</legend>
			<div class="fields">
				{props.options.map(([value, label]) => (
					<div>
						<input
							type="checkbox"
							id={`${d.id}-${value}`}
							name={props.name}
							value={value}
							checked={props.checked.includes(value)}
						/>{" "}
						<label for={`${d.id}-${value}`}>{label}</label>
					</div>
				))}
			</div>
			<Below hint={props.hint} hintId={d.hintId} messages={d.messages} errorId={d.errorId} />
		</fieldset>
	);
};

/** A POST form with its CSRF input; `confirm` asks before submitting (when scripts run). */
export const PostForm: FC<{ action: string; csrf: string; confirm?: string; label?: string; children?: Child }> = (
	props,
) => (
	<form method="post" action={props.action} data-confirm={props.confirm} aria-label={props.label}>
		<Csrf token={props.csrf} />
		{props.children}
	</form>
);

/**
 * A POST form under its own `h3` heading, which names it (a `form` landmark), with the form's
 * errors summarised between them, and its submit button last.
 */
export const HeadedForm: FC<{
	id: string;
	title: string;
	action: string;
	csrf: string;
	errors: FormErrors;
	submit: string;
	children?: Child;
}> = (props) => (
	<>
		<h3 id={props.id}>{props.title}</h3>
		<ErrorSummary messages={props.errors.form} />
		<form method="post" action={props.action} aria-labelledby={props.id}>
			<Csrf token={props.csrf} />
			{props.children}
			<div class="actions">
				<button type="submit">{props.submit}</button>
			</div>
		</form>
	</>
);

/** What a page gives a form component: where it posts, the CSRF token, its values and errors. */
export interface FormProps<V> {
	action: string;
	csrf: string;
	values: V;
	errors: FormErrors;
}

/** A one-button form that deletes something: asks `confirm` first (when scripts run); `label` names the button. */
export const DeleteForm: FC<{ action: string; csrf: string; confirm: string; label: string }> = (props) => (
	<PostForm action={props.action} csrf={props.csrf} confirm={props.confirm}>
		<button type="submit" class="danger" aria-label={props.label}>
			Delete
		</button>
	</PostForm>
);

/**
 * A POST form's values, whatever a browser (or anyone) posted: `one(name)` the first string ("" when
 * absent), `all(name)` every string of a repeated name (checkboxes); files are left out.
 */
export async function formValues(
	c: Context,
): Promise<{ one: (name: string) => string; all: (name: string) => string[] }> {
	const body = await c.req.parseBody({ all: true });
	const all = (name: string) => {
		const value = body[name];
		return (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter(
			(v): v is string => typeof v === "string",
		);
	};
	return { one: (name) => all(name)[0] ?? "", all };
}
