/** The script: confirmation of `form[data-confirm]`, focus on the first refused field. */
document.addEventListener("submit", (event) => {
	const form = event.target;
	if (form instanceof HTMLFormElement && form.dataset.confirm && !confirm(form.dataset.confirm)) event.preventDefault();
});
addEventListener("DOMContentLoaded", () => {
	const refused = document.querySelector('[aria-invalid="true"]');
	if (refused instanceof HTMLElement) refused.focus();
});
