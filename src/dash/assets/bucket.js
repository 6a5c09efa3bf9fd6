/**
 * The Bucket page's script, served at `/assets/bucket.js` (the CSP forbids inline scripts):
 *
 * - Upload: each chosen file goes to the same-origin proxy with XMLHttpRequest (for
 *   `upload.onprogress`), a progress bar per file and one for all. Files over 8 MiB are multipart
 *   uploads (`POST ?uploads`, `PUT ?uploadId=&partNumber=` in 8 MiB parts, `POST ?uploadId=` to
 *   complete; docs/gateway.md). Each finished part's `{partNumber, etag}` is kept in
 *   localStorage with the upload's `{key, uploadId, size, lastModified}`, so the same file chosen
 *   again after a reload (same key, size and modification time) sends only the parts still
 *   missing. The gateway has no "list parts" operation (the R2 binding has none), so what was
 *   sent is what this browser recorded; an upload the gateway no longer knows (404) starts over.
 * - Image preview: fetched with `Range` (the whole image, at most 16 MiB) into a blob URL, the
 *   answer's `Content-Range` shown under it. The blob URL is revoked once the image is decoded:
 *   a blob URL has the dashboard's origin and none of the proxy's headers
 *   (`bucket/containment.ts`), so it must not outlive the preview for a tab to open it.
 * Every write carries the session's CSRF token in `X-CSRF-Token` (app.tsx refuses it otherwise).
 */

(() => {
	const MULTIPART_ABOVE = 8 * 1024 * 1024;
	const PART_SIZE = 8 * 1024 * 1024;
	const STORE = "edgezone-upload:";

	class HttpError extends Error {
		/**
		 * @param {number} status the HTTP status (0: no answer)
		 * @param {string} message
		 */
		constructor(status, message) {
			super(message);
			this.status = status;
		}
	}

	/** @type {(status: number, text: string) => string} */
	const messageOf = (status, text) => {
		try {
			const message = JSON.parse(text).error.message;
			if (typeof message === "string") return message;
		} catch {}
		return `The request failed (${status}).`;
	};

	/** @type {(bytes: number) => string} */
	const formatBytes = (bytes) => {
		if (bytes < 1024) return `${bytes} B`;
		const units = ["KiB", "MiB", "GiB", "TiB"];
		let value = bytes / 1024;
		let unit = 0;
		while (value >= 1024 && unit < units.length - 1) {
			value /= 1024;
			unit++;
		}
		return `${value.toFixed(1)} ${units[unit]}`;
	};

	/**
	 * @typedef {{ partNumber: number, etag: string }} Part
	 * @typedef {{ key: string, uploadId: string, size: number, lastModified: number, partSize: number, parts: Part[] }} Upload
	 * @typedef {{ progress(sent: number): void, say(message: string): void }} Row
	 */

	/** @param {HTMLElement} root the uploader's section, rendered by pages/bucket.tsx with every element below */
	function setupUploader(root) {
		const form = /** @type {HTMLFormElement} */ (root.querySelector("#upload-form"));
		const files = /** @type {HTMLInputElement} */ (root.querySelector("#upload-files"));
		const folder = /** @type {HTMLInputElement} */ (root.querySelector("#upload-prefix"));
		const progress = /** @type {HTMLElement} */ (root.querySelector("#upload-progress"));
		const overall = /** @type {HTMLProgressElement} */ (root.querySelector("#upload-overall"));
		const overallText = /** @type {HTMLElement} */ (root.querySelector("#upload-overall-text"));
		const list = /** @type {HTMLElement} */ (root.querySelector("#upload-list"));
		const status = /** @type {HTMLElement} */ (root.querySelector("#upload-status"));
		const button = /** @type {HTMLButtonElement} */ (form.querySelector('button[type="submit"]'));
		const { proxy, bucket, csrf = "" } = root.dataset;

		/** @type {(key: string, extra?: string) => string} */
		const objectUrl = (key, extra) => {
			const query = new URLSearchParams({ key });
			if (bucket) query.set("bucket", bucket);
			return `${proxy}?${query}${extra ? `&${extra}` : ""}`;
		};

		/**
		 * @type {(method: string, url: string, body: XMLHttpRequestBodyInit | null, headers?: Record<string, string>,
		 *   onProgress?: (loaded: number) => void) => Promise<any>}
		 */
		const send = (method, url, body, headers, onProgress) =>
			new Promise((resolve, reject) => {
				const xhr = new XMLHttpRequest();
				xhr.open(method, url);
				xhr.setRequestHeader("X-CSRF-Token", csrf);
				for (const [name, value] of Object.entries(headers || {})) xhr.setRequestHeader(name, value);
				if (onProgress) xhr.upload.onprogress = (event) => onProgress(event.loaded);
				xhr.onload = () => {
					if (xhr.status >= 200 && xhr.status < 300) resolve(xhr.responseText ? JSON.parse(xhr.responseText) : null);
					else reject(new HttpError(xhr.status, messageOf(xhr.status, xhr.responseText)));
				};
				xhr.onerror = () => reject(new HttpError(0, "The connection failed."));
				xhr.send(body);
			});

		/** @type {(key: string) => string} */
		const storeKey = (key) => `${STORE + (bucket || "")}:${key}`;
		/** @type {(key: string, file: File) => Upload | null} */
		const load = (key, file) => {
			try {
				const saved = JSON.parse(localStorage.getItem(storeKey(key)) || "null");
				if (
					saved &&
					saved.size === file.size &&
					saved.lastModified === file.lastModified &&
					saved.partSize === PART_SIZE
				)
					return saved;
			} catch {}
			return null;
		};
		/** @type {(state: Upload) => void} */
		const save = (state) => localStorage.setItem(storeKey(state.key), JSON.stringify(state));

		let totalBytes = 0;
		/** @type {Map<number, number>} */
		const doneBytes = new Map();
		const showOverall = () => {
			let sent = 0;
			for (const value of doneBytes.values()) sent += value;
			overall.value = sent;
			overallText.textContent = ` ${formatBytes(sent)} of ${formatBytes(totalBytes)}`;
		};

		/**
		 * @param {File} file
		 * @param {string} key
		 * @param {number} index
		 * @returns {Row}
		 */
		function rowFor(file, key, index) {
			const item = document.createElement("li");
			const id = `upload-file-${index}`;
			const label = document.createElement("label");
			label.htmlFor = id;
			label.textContent = key;
			const bar = document.createElement("progress");
			bar.id = id;
			bar.max = Math.max(file.size, 1);
			bar.value = 0;
			const text = document.createElement("span");
			text.className = "hint";
			item.append(label, bar, text);
			list.append(item);
			return {
				progress(sent) {
					bar.value = sent;
					doneBytes.set(index, sent);
					text.textContent = ` ${formatBytes(sent)} of ${formatBytes(file.size)}`;
					showOverall();
				},
				say(message) {
					text.textContent = ` ${message}`;
				},
			};
		}

		/**
		 * @param {File} file
		 * @param {string} key
		 * @param {Row} row
		 * @returns {Promise<void>}
		 */
		async function multipart(file, key, row) {
			let state = load(key, file);
			if (state) {
				row.say(`Resuming: ${state.parts.length} of ${Math.ceil(file.size / PART_SIZE)} parts already uploaded.`);
				status.textContent =
					"Resuming the upload of " +
					key +
					": " +
					state.parts.length +
					" of " +
					Math.ceil(file.size / PART_SIZE) +
					" parts already uploaded.";
			} else {
				/** @type {Record<string, string>} */
				const headers = file.type ? { "Content-Type": file.type } : {};
				const created = await send("POST", objectUrl(key, "uploads"), null, headers);
				state = {
					key,
					uploadId: created.uploadId,
					size: file.size,
					lastModified: file.lastModified,
					partSize: PART_SIZE,
					parts: [],
				};
				save(state);
			}
			const count = Math.max(1, Math.ceil(file.size / PART_SIZE));
			const done = new Set(state.parts.map((part) => part.partNumber));
			let sent = state.parts.reduce(
				(sum, part) => sum + Math.min(PART_SIZE, file.size - (part.partNumber - 1) * PART_SIZE),
				0,
			);
			row.progress(sent);
			for (let n = 1; n <= count; n++) {
				if (done.has(n)) continue;
				const blob = file.slice((n - 1) * PART_SIZE, Math.min(n * PART_SIZE, file.size));
				const query = `uploadId=${encodeURIComponent(state.uploadId)}&partNumber=${n}`;
				let part;
				try {
					part = await send("PUT", objectUrl(key, query), blob, {}, (loaded) => row.progress(sent + loaded));
				} catch (error) {
					if (error instanceof HttpError && error.status === 404 && state.parts.length > 0) {
						// The gateway no longer knows the upload (aborted, or the bucket's state was reset): start over.
						localStorage.removeItem(storeKey(key));
						row.say("The earlier upload is gone; starting over.");
						return multipart(file, key, row);
					}
					throw error;
				}
				sent += blob.size;
				state.parts.push({ partNumber: part.partNumber, etag: part.etag });
				save(state);
				row.progress(sent);
			}
			const parts = [...state.parts].sort((a, b) => a.partNumber - b.partNumber);
			await send("POST", objectUrl(key, `uploadId=${encodeURIComponent(state.uploadId)}`), JSON.stringify({ parts }), {
				"Content-Type": "application/json",
			});
			localStorage.removeItem(storeKey(key));
		}

		/**
		 * @param {File} file
		 * @param {string} key
		 * @param {Row} row
		 */
		async function uploadOne(file, key, row) {
			if (file.size > MULTIPART_ABOVE) return multipart(file, key, row);
			// The browser sends the file's type as Content-Type: it becomes the object's httpMetadata.
			await send("PUT", objectUrl(key), file, {}, (loaded) => row.progress(loaded));
			row.progress(file.size);
		}

		/** Replaces the listing with the page's current one, keeping the progress on screen. */
		async function refreshListing() {
			const response = await fetch(location.href, { headers: { accept: "text/html" } });
			if (!response.ok) return;
			const fresh = new DOMParser().parseFromString(await response.text(), "text/html").querySelector("#listing");
			const current = document.querySelector("#listing");
			if (fresh && current) current.replaceWith(document.adoptNode(fresh));
		}

		form.addEventListener("submit", async (event) => {
			event.preventDefault();
			const chosen = [...(files.files ?? [])];
			if (chosen.length === 0) return;
			let prefix = folder.value.trim();
			if (prefix !== "" && !prefix.endsWith("/")) prefix += "/";
			button.disabled = true;
			list.replaceChildren();
			doneBytes.clear();
			totalBytes = chosen.reduce((sum, file) => sum + file.size, 0);
			overall.max = Math.max(totalBytes, 1);
			showOverall();
			progress.hidden = false;
			status.textContent = `Uploading ${chosen.length}${chosen.length === 1 ? " file…" : " files…"}`;
			/** @type {string[]} */
			const failures = [];
			for (const [index, file] of chosen.entries()) {
				const key = prefix + file.name;
				const row = rowFor(file, key, index);
				try {
					await uploadOne(file, key, row);
					row.say("Uploaded.");
				} catch (error) {
					const message = error instanceof Error ? error.message : String(error);
					row.say(`Failed: ${message}`);
					failures.push(`${key}: ${message}`);
				}
			}
			button.disabled = false;
			const uploaded = chosen.length - failures.length;
			status.textContent =
				"Uploaded " +
				uploaded +
				" of " +
				chosen.length +
				(chosen.length === 1 ? " file." : " files.") +
				(failures.length > 0 ? ` Failed: ${failures.join("; ")}` : "");
			if (uploaded > 0) await refreshListing();
		});
	}

	/** @param {HTMLElement} figure a `figure[data-preview-image]` with `data-src`, `data-size` and `data-alt` */
	function previewImage(figure) {
		const size = Number(figure.dataset.size);
		const range = `bytes=0-${size - 1}`;
		fetch(figure.dataset.src ?? "", { headers: { Range: range } })
			.then(async (response) => {
				if (response.status !== 206 && response.status !== 200)
					throw new Error(messageOf(response.status, await response.text()));
				const image = new Image();
				image.alt = figure.dataset.alt ?? "";
				const url = URL.createObjectURL(await response.blob());
				const revoke = () => URL.revokeObjectURL(url);
				image.addEventListener("load", revoke, { once: true });
				image.addEventListener("error", revoke, { once: true });
				image.src = url;
				const caption = document.createElement("figcaption");
				caption.className = "hint";
				caption.textContent =
					"Read with Range: " +
					range +
					" (" +
					response.status +
					(response.status === 206 ? ` Partial Content, Content-Range: ${response.headers.get("content-range")}` : "") +
					").";
				figure.replaceChildren(image, caption);
			})
			.catch((error) => {
				const message = document.createElement("p");
				message.className = "error";
				message.textContent = `The preview failed: ${error instanceof Error ? error.message : String(error)}`;
				figure.replaceChildren(message);
			});
	}

	addEventListener("DOMContentLoaded", () => {
		const uploader = document.querySelector("#uploader");
		if (uploader instanceof HTMLElement) setupUploader(uploader);
		for (const figure of document.querySelectorAll("[data-preview-image]")) {
			if (figure instanceof HTMLElement) previewImage(figure);
		}
	});
})();
