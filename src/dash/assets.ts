/**
 * The dashboard's static assets: one style sheet and one small script, served from the Worker
 * (`/assets/dash.css`, `/assets/dash.js`) so the Content-Security-Policy can forbid inline code.
 * Pages work without the script; it only adds conveniences (a confirmation before deleting,
 * focus on the first field the API refused).
 */

/** The style sheet: readable defaults, a visible focus ring, error and notice colours. */
export const CSS = `
:root { color-scheme: light; --accent: #0051c3; --danger: #b3261e; --ok: #1e6b34; --line: #d5d7db; font-family: system-ui, sans-serif; }
* { box-sizing: border-box; }
body { margin: 0; color: #1d1f20; background: #f7f7f8; line-height: 1.45; }
a { color: var(--accent); }
:focus-visible { outline: 3px solid #ff9e1b; outline-offset: 2px; }
.skip { position: absolute; left: -999px; }
.skip:focus { left: 8px; top: 8px; background: #fff; padding: 6px 10px; z-index: 1; }
header.top { display: flex; align-items: center; gap: 16px; padding: 10px 24px; background: #fff; border-bottom: 1px solid var(--line); }
header.top .brand { font-weight: 700; text-decoration: none; color: inherit; }
header.top .zone { color: #555; }
header.top form { margin-left: auto; }
.frame { display: flex; min-height: calc(100vh - 52px); }
nav.side { width: 220px; padding: 16px; background: #fff; border-right: 1px solid var(--line); }
nav.side h2 { font-size: 0.8rem; text-transform: uppercase; color: #555; margin: 16px 0 4px; }
nav.side ul { list-style: none; margin: 0; padding: 0; }
nav.side a { display: block; padding: 4px 8px; border-radius: 4px; text-decoration: none; }
nav.side a[aria-current="page"] { background: #e8f0fe; font-weight: 600; }
main { flex: 1; padding: 16px 32px 48px; max-width: 1100px; }
main.narrow { max-width: 440px; margin: 48px auto; flex: none; }
h1 { font-size: 1.5rem; margin: 8px 0 16px; }
h2 { font-size: 1.2rem; margin: 28px 0 8px; }
h3 { font-size: 1rem; margin: 16px 0 8px; }
.crumbs { color: #555; font-size: 0.9rem; margin: 0; }
section.card { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 4px 20px 16px; margin-bottom: 20px; }
table { border-collapse: collapse; width: 100%; font-size: 0.92rem; }
td.pre { white-space: pre-wrap; font-family: ui-monospace, monospace; font-size: 0.85rem; }
caption { text-align: left; padding: 4px 0; }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
code { font-size: 0.9em; word-break: break-all; }
label { display: block; font-weight: 600; margin: 12px 0 4px; }
fieldset label, label.inline { display: inline; font-weight: normal; margin: 0; }
.hint { color: #555; font-size: 0.85rem; margin: 2px 0 0; }
input[type="text"], input[type="password"], input[type="email"], input[type="number"], select { font: inherit; padding: 6px 8px; border: 1px solid #8a8f98; border-radius: 4px; width: 100%; max-width: 420px; background: #fff; }
input[aria-invalid="true"], select[aria-invalid="true"] { border-color: var(--danger); }
button { font: inherit; padding: 6px 14px; border-radius: 4px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; }
button.secondary { background: #fff; color: var(--accent); }
button.danger { background: #fff; color: var(--danger); border-color: var(--danger); }
.actions { display: flex; gap: 8px; margin-top: 14px; flex-wrap: wrap; }
.row-actions { display: flex; gap: 6px; }
.row-actions form { margin: 0; }
.error { color: var(--danger); font-weight: 600; margin: 4px 0 0; }
.alert { border: 1px solid var(--danger); background: #fdecea; color: var(--danger); padding: 8px 12px; border-radius: 4px; }
.notice { border: 1px solid var(--ok); background: #e9f5ec; color: var(--ok); padding: 8px 12px; border-radius: 4px; }
.fields { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); gap: 2px 16px; max-height: 220px; overflow: auto; border: 1px solid var(--line); padding: 8px; border-radius: 4px; }
fieldset { border: 1px solid var(--line); border-radius: 4px; margin: 12px 0 0; }
legend { font-weight: 600; }
details > summary { cursor: pointer; color: var(--accent); font-weight: 600; margin: 8px 0; }
textarea { font: 0.92rem ui-monospace, monospace; padding: 6px 8px; border: 1px solid #8a8f98; border-radius: 4px; width: 100%; max-width: 720px; background: #fff; }
textarea[aria-invalid="true"] { border-color: var(--danger); }
pre.check { font: 0.85rem ui-monospace, monospace; margin: 4px 0 0; white-space: pre; overflow-x: auto; max-width: 720px; }
pre.check.error { color: var(--danger); }
pre.check.valid { color: var(--ok); }
.placeholder { border: 1px dashed #8a8f98; padding: 8px 12px; border-radius: 4px; color: #555; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
a.button { display: inline-block; padding: 6px 14px; border-radius: 4px; border: 1px solid var(--accent); color: var(--accent); text-decoration: none; background: #fff; }
nav.folders ol { list-style: none; display: flex; flex-wrap: wrap; gap: 4px; padding: 0; margin: 12px 0; }
nav.folders li + li::before { content: "/"; margin-right: 4px; color: #555; }
nav.folders a[aria-current="page"] { font-weight: 600; color: inherit; }
ul.uploads { list-style: none; padding: 0; }
ul.uploads li { margin: 6px 0; }
ul.uploads label, #upload-progress label { display: inline-block; min-width: 220px; font-weight: normal; }
progress { width: 280px; vertical-align: middle; }
section.preview-text { max-height: 420px; overflow: auto; background: #f7f7f8; border: 1px solid var(--line); padding: 8px; }
section.preview-text pre { margin: 0; white-space: pre-wrap; }
.preview-image img, video.preview-video { max-width: 100%; max-height: 480px; }
`;

/** The script: confirmation of `form[data-confirm]`, focus on the first refused field. */
export const JS = `
document.addEventListener("submit", (event) => {
	const form = event.target;
	if (form instanceof HTMLFormElement && form.dataset.confirm && !confirm(form.dataset.confirm)) event.preventDefault();
});
addEventListener("DOMContentLoaded", () => {
	const refused = document.querySelector('[aria-invalid="true"]');
	if (refused instanceof HTMLElement) refused.focus();
});
`;
