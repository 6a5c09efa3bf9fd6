/** Vite's `?raw` imports: the file's text (test fixtures). */
declare module "*?raw" {
	const text: string;
	export default text;
}
