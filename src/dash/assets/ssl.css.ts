/**
 * The SSL/TLS page's own styles (served at `/assets/ssl.css`, linked from the page only): fact
 * lists, the "edgezone emulator, not Cloudflare" mark, failing client verdicts, e-mail texts.
 */
export const SSL_CSS = `
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 8px 0; }
dl.facts dt { font-weight: 600; color: #444; }
dl.facts dd { margin: 0; }
ul.plain { list-style: none; margin: 0; padding: 0; }
section.emulator { border-style: dashed; border-color: #8a5a00; background: #fffaf0; }
.emulator-mark { display: inline-block; margin: 0 0 8px; padding: 2px 8px; border: 1px solid #8a5a00; border-radius: 10px; color: #6b4500; font-size: 0.85rem; font-weight: 600; }
td.fails { color: var(--danger); font-weight: 600; }
textarea { font: 0.85rem ui-monospace, monospace; width: 100%; max-width: 640px; padding: 6px 8px; border: 1px solid #8a8f98; border-radius: 4px; }
textarea[aria-invalid="true"] { border-color: var(--danger); }
input[type="date"], input[type="datetime-local"] { font: inherit; padding: 5px 8px; border: 1px solid #8a8f98; border-radius: 4px; }
input[aria-invalid="true"] { border-color: var(--danger); }
.ssl-row { align-items: flex-end; gap: 24px; }
form.inline-form { display: flex; flex-wrap: wrap; gap: 8px 20px; align-items: flex-end; }
form.inline-form label { margin-top: 0; }
form.inline-form .actions { margin-top: 0; }
.mail-text { white-space: pre-wrap; }
article.notice-mail { border-top: 1px solid var(--line); }
`;
