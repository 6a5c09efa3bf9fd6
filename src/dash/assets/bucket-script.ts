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
export const BUCKET_JS = `
"use strict";
(() => {
	const MULTIPART_ABOVE = 8 * 1024 * 1024;
	const PART_SIZE = 8 * 1024 * 1024;
	const STORE = "edgezone-upload:";

	class HttpError extends Error {
		constructor(status, message) {
			super(message);
			this.status = status;
		}
	}

	const messageOf = (status, text) => {
		try {
			const message = JSON.parse(text).error.message;
			if (typeof message === "string") return message;
		} catch {}
		return "The request failed (" + status + ").";
	};

	const formatBytes = (bytes) => {
		if (bytes < 1024) return bytes + " B";
		const units = ["KiB", "MiB", "GiB", "TiB"];
		let value = bytes / 1024;
		let unit = 0;
		while (value >= 1024 && unit < units.length - 1) {
			value /= 1024;
			unit++;
		}
		return value.toFixed(1) + " " + units[unit];
	};

	function setupUploader(root) {
		const form = root.querySelector("#upload-form");
		const files = root.querySelector("#upload-files");
		const folder = root.querySelector("#upload-prefix");
		const progress = root.querySelector("#upload-progress");
		const overall = root.querySelector("#upload-overall");
		const overallText = root.querySelector("#upload-overall-text");
		const list = root.querySelector("#upload-list");
		const status = root.querySelector("#upload-status");
		const button = form.querySelector('button[type="submit"]');
		const { proxy, bucket, csrf } = root.dataset;

		const objectUrl = (key, extra) => {
			const query = new URLSearchParams({ key });
			if (bucket) query.set("bucket", bucket);
			return proxy + "?" + query + (extra ? "&" + extra : "");
		};

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

		const storeKey = (key) => STORE + (bucket || "") + ":" + key;
		const load = (key, file) => {
			try {
				const saved = JSON.parse(localStorage.getItem(storeKey(key)) || "null");
				if (saved && saved.size === file.size && saved.lastModified === file.lastModified && saved.partSize === PART_SIZE) return saved;
			} catch {}
			return null;
		};
		const save = (state) => localStorage.setItem(storeKey(state.key), JSON.stringify(state));

		let totalBytes = 0;
		const doneBytes = new Map();
		const showOverall = () => {
			let sent = 0;
			for (const value of doneBytes.values()) sent += value;
			overall.value = sent;
			overallText.textContent = " " + formatBytes(sent) + " of " + formatBytes(totalBytes);
		};

		function rowFor(file, key, index) {
			const item = document.createElement("li");
			const id = "upload-file-" + index;
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
					text.textContent = " " + formatBytes(sent) + " of " + formatBytes(file.size);
					showOverall();
				},
				say(message) {
					text.textContent = " " + message;
				},
			};
		}

		async function multipart(file, key, row) {
			let state = load(key, file);
			if (state) {
				row.say("Resuming: " + state.parts.length + " of " + Math.ceil(file.size / PART_SIZE) + " parts already uploaded.");
				status.textContent = "Resuming the upload of " + key + ": " + state.parts.length + " of " + Math.ceil(file.size / PART_SIZE) + " parts already uploaded.";
			} else {
				const headers = file.type ? { "Content-Type": file.type } : {};
				const created = await send("POST", objectUrl(key, "uploads"), null, headers);
				state = { key, uploadId: created.uploadId, size: file.size, lastModified: file.lastModified, partSize: PART_SIZE, parts: [] };
				save(state);
			}
			const count = Math.max(1, Math.ceil(file.size / PART_SIZE));
			const done = new Set(state.parts.map((part) => part.partNumber));
			let sent = state.parts.reduce((sum, part) => sum + Math.min(PART_SIZE, file.size - (part.partNumber - 1) * PART_SIZE), 0);
			row.progress(sent);
			for (let n = 1; n <= count; n++) {
				if (done.has(n)) continue;
				const blob = file.slice((n - 1) * PART_SIZE, Math.min(n * PART_SIZE, file.size));
				const query = "uploadId=" + encodeURIComponent(state.uploadId) + "&partNumber=" + n;
				let part;
				try {
					part = await send("PUT", objectUrl(key, query), blob, {}, (loaded) => row.progress(sent + loaded));
				} catch (error) {
					if (error.status === 404 && state.parts.length > 0) {
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
			await send("POST", objectUrl(key, "uploadId=" + encodeURIComponent(state.uploadId)), JSON.stringify({ parts }), {
				"Content-Type": "application/json",
			});
			localStorage.removeItem(storeKey(key));
		}

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
			const chosen = [...files.files];
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
			status.textContent = "Uploading " + chosen.length + (chosen.length === 1 ? " file…" : " files…");
			const failures = [];
			for (const [index, file] of chosen.entries()) {
				const key = prefix + file.name;
				const row = rowFor(file, key, index);
				try {
					await uploadOne(file, key, row);
					row.say("Uploaded.");
				} catch (error) {
					row.say("Failed: " + error.message);
					failures.push(key + ": " + error.message);
				}
			}
			button.disabled = false;
			const uploaded = chosen.length - failures.length;
			status.textContent =
				"Uploaded " + uploaded + " of " + chosen.length + (chosen.length === 1 ? " file." : " files.") +
				(failures.length > 0 ? " Failed: " + failures.join("; ") : "");
			if (uploaded > 0) await refreshListing();
		});
	}

	function previewImage(figure) {
		const size = Number(figure.dataset.size);
		const range = "bytes=0-" + (size - 1);
		fetch(figure.dataset.src, { headers: { Range: range } })
			.then(async (response) => {
				if (response.status !== 206 && response.status !== 200) throw new Error(messageOf(response.status, await response.text()));
				const image = new Image();
				image.alt = figure.dataset.alt;
				const url = URL.createObjectURL(await response.blob());
				const revoke = () => URL.revokeObjectURL(url);
				image.addEventListener("load", revoke, { once: true });
				image.addEventListener("error", revoke, { once: true });
				image.src = url;
				const caption = document.createElement("figcaption");
				caption.className = "hint";
				caption.textContent =
					"Read with Range: " + range + " (" + response.status + (response.status === 206 ? " Partial Content, Content-Range: " + response.headers.get("content-range") : "") + ").";
				figure.replaceChildren(image, caption);
			})
			.catch((error) => {
				const message = document.createElement("p");
				message.className = "error";
				message.textContent = "The preview failed: " + error.message;
				figure.replaceChildren(message);
			});
	}

	addEventListener("DOMContentLoaded", () => {
		const uploader = document.querySelector("#uploader");
		if (uploader) setupUploader(uploader);
		for (const figure of document.querySelectorAll("[data-preview-image]")) previewImage(figure);
	});
})();
`;
