/**
 * The Security page's script (`/assets/expression-check.js`): live validation of every
 * `textarea[data-validate]` (the expression editor, `security/expression-editor.tsx`). After a
 * pause in typing it posts the expression, with the form's CSRF token, to the textarea's
 * `data-validate` address, which compiles it with the Rules language engine and answers
 * `{"valid": true}` or `{"valid": false, "error": "<the engine's text>"}`; the text goes into the
 * editor's `<pre>` (the textarea's last `aria-describedby` id) as the engine wrote it. Answers
 * arriving out of order are dropped: only the latest request's answer is shown.
 */
const DELAY_MS = 250;
const editors = /** @type {NodeListOf<HTMLTextAreaElement>} */ (document.querySelectorAll("textarea[data-validate]"));
for (const textarea of editors) {
	const ids = (textarea.getAttribute("aria-describedby") || "").split(" ");
	const check = document.getElementById(ids[ids.length - 1]);
	const csrf = textarea.form?.elements.namedItem("csrf");
	if (!check || !(csrf instanceof HTMLInputElement)) continue;
	/** @type {ReturnType<typeof setTimeout> | undefined} */
	let timer;
	let latest = 0;
	const validate = async () => {
		const mine = ++latest;
		const expression = textarea.value;
		if (expression.trim() === "") {
			check.textContent = "";
			check.className = "check";
			textarea.removeAttribute("aria-invalid");
			return;
		}
		/** @type {{ valid: boolean, error?: string }} */
		let answer;
		try {
			const response = await fetch(textarea.dataset.validate ?? "", {
				method: "POST",
				headers: { "Content-Type": "application/x-www-form-urlencoded" },
				body: new URLSearchParams({ csrf: csrf.value, expression }),
			});
			answer = await response.json();
		} catch {
			answer = { valid: false, error: "The expression could not be checked (no answer from the server)." };
		}
		if (mine !== latest) return;
		if (answer.valid) {
			check.textContent = "Valid expression.";
			check.className = "check valid";
			textarea.removeAttribute("aria-invalid");
		} else {
			check.textContent = answer.error ?? "";
			check.className = "check error";
			textarea.setAttribute("aria-invalid", "true");
		}
	};
	textarea.addEventListener("input", () => {
		clearTimeout(timer);
		timer = setTimeout(validate, DELAY_MS);
	});
}
