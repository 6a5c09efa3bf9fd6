/** `expression-check.js` is a browser script the Worker imports as a Text module (wrangler.toml's `[[rules]]`): its text. */
declare const text: string;
export default text;
