/**
 * The expression editor of the Security page: a labelled textarea and, below it, a `<pre>` with
 * the Rules language engine's verdict. The page script (`assets/expression-check.js`) fills the
 * `<pre>` as the person types, from the page's `POST .../security/expression`; without scripts
 * the form's submit shows the API's refusal there (it carries the same engine text). The `<pre>`
 * keeps the engine's layout (the line, then carets under the failing characters) and is
 * `aria-live="polite"`, and the textarea names it in `aria-describedby`, so the verdict is both
 * heard and read as the field's description.
 */
import type { FC } from "hono/jsx";
import type { FormErrors } from "../components/form";

/** The editor's props: `form` keeps ids unique on a page of several forms; `error` is a refusal to show. */
export interface ExpressionEditorProps {
	form: string;
	label: string;
	value?: string;
	/** The form's errors: those of `expression` (the API's text, which carries the engine's) are shown, the textarea marked invalid. */
	errors?: FormErrors;
	/** Where the script asks whether an expression compiles. */
	validateUrl: string;
}

/** The ids of an editor's parts for `form`. */
function editorIds(form: string): { textarea: string; hint: string; check: string } {
	return { textarea: `${form}-expression`, hint: `${form}-expression-hint`, check: `${form}-expression-check` };
}

/** The textarea named `expression` with its hint and its live verdict. */
export const ExpressionEditor: FC<ExpressionEditorProps> = (props) => {
	const ids = editorIds(props.form);
	const error = props.errors?.fields.expression?.join("\n");
	return (
		<div class="expression-editor">
			<label for={ids.textarea}>{props.label}</label>
			<textarea
				id={ids.textarea}
				name="expression"
				rows={4}
				spellcheck={false}
				autocomplete="off"
				required
				data-validate={props.validateUrl}
				aria-describedby={`${ids.hint} ${ids.check}`}
				aria-invalid={error === undefined ? undefined : "true"}
			>
				{props.value ?? ""}
			</textarea>
			<p class="hint" id={ids.hint}>
				A Rules language expression, e.g. <code>http.request.uri.path eq "/admin"</code>; checked as you type.
			</p>
			<pre id={ids.check} class={error === undefined ? "check" : "check error"} aria-live="polite">
				{error ?? ""}
			</pre>
		</div>
	);
};
