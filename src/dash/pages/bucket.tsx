/**
 * The Bucket page of a zone (R2 Object Storage > Bucket): browse the gateway's bucket, a
 * log-push bucket of LOGPUSH_BUCKETS, or a bucket created at run time, by folder (`delimiter=/`, the list's delimited prefixes),
 * page by page with the list's cursor; an object's details (every field of the list's JSON with
 * `include`: size, etags, uploaded, version, httpMetadata, customMetadata, checksums, storage
 * class), download, previews (text: the first 64 KiB by Range; images by Range; audio and video
 * from the proxy, whose ranges the browser asks itself); delete one or many (the gateway's
 * `POST /?delete`); upload many files with progress, large ones as resumable multipart uploads
 * (the script, `assets/bucket.js`). Its S3 section shows the S3 endpoint and the signed-in token's
 * S3 credentials (`bucket/s3-access.tsx`).
 *
 * Every read and write is a gateway request with the gateway token the person gave the page
 * (`bucket/gateway-call.ts`); the page asks for it once and keeps it sealed in the session.
 * The script's requests go through the same-origin proxy `/zones/{zone_id}/bucket/o/...`, which
 * adds the token; writes through it carry the session's CSRF token in `X-CSRF-Token` (app.tsx).
 * Reads through it (previews, downloads) need only the session cookie, which is SameSite=Strict:
 * another site's `<img>` or `<video>` arrives without it. Its answers are sandboxed and, but for
 * the types the page previews, downloads (`bucket/containment.ts`): no stored object runs as the
 * dashboard.
 */
import { Hono } from "hono";
import type { FC } from "hono/jsx";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { zoneRegistry } from "../../common/durable-objects";
import type { R2ObjectJson, R2ObjectsJson } from "../../wire/object-json";
import { bucketMap } from "../../zone/destinations";
import { statusOf } from "../api-call";
import {
	crumbs,
	formatBytes,
	listingUrl,
	nameUnder,
	objectPageUrl,
	type Place,
	pageUrl,
	previewKind,
	proxyObjectUrl,
} from "../bucket/browse";
import { contain } from "../bucket/containment";
import { callGateway, errorMessage, forward, gatewayJson } from "../bucket/gateway-call";
import { S3AccessCard, s3AccessOf } from "../bucket/s3-access";
import {
	Csrf,
	ErrorSummary,
	type FormErrors,
	formValues,
	NO_ERRORS,
	Notice,
	PostForm,
	SelectField,
	TextField,
} from "../components/form";
import { Layout } from "../layout";
import { render } from "../render";
import { writeSession } from "../session";
import type { Ctx, DashEnv } from "../types";

/** How many keys a listing page asks for unless `limit` says otherwise. */
const PAGE_SIZE = 50;
/** The text preview: the first 64 KiB, asked for by Range. */
const TEXT_PREVIEW_BYTES = 64 * 1024;
/** Images up to this size are previewed (fetched whole, by Range, by the script). */
const IMAGE_PREVIEW_BYTES = 16 * 1024 * 1024;

/** What a redirect after a successful POST says (`?done=`): fixed texts, nothing from the URL is shown. */
const DONE: Record<string, string> = {
	"token-saved": "Gateway token saved for this session.",
	"token-forgotten": "Gateway token forgotten.",
	deleted: "Deleted.",
};

const SCRIPTS = ["/assets/bucket.js"];

/**
 * The buckets the gateway serves: its own (the empty name), then LOGPUSH_BUCKETS's, then those
 * created at run time (src/runtime-buckets/).
 */
async function bucketOptions(env: Env): Promise<[string, string][]> {
	const created = await zoneRegistry(env).createdBuckets();
	return [
		["", "BUCKET (the gateway's own)"],
		...Object.entries(bucketMap(env)).map(([name, binding]): [string, string] => [
			name,
			`${name} (LOGPUSH_BUCKETS, binding ${binding})`,
		]),
		...created.map((bucket): [string, string] => [
			bucket.name,
			`${bucket.name} (created ${bucket.created.slice(0, 10)})`,
		]),
	];
}

/** The bucket a request names: one the gateway serves, else its own. */
async function bucketOf(c: Ctx, value: string | undefined): Promise<string> {
	const name = value ?? "";
	return (await bucketOptions(c.env)).some(([option]) => option === name) ? name : "";
}

const frame = (c: Ctx) => ({ ...c.var.zone, page: "bucket" });

// ---- The gateway token --------------------------------------------------------------------------

const TokenForm: FC<{ action: string; csrf: string; errors: FormErrors }> = ({ action, csrf, errors }) => (
	<section class="card" aria-labelledby="token-heading">
		<h2 id="token-heading">Bucket access</h2>
		<p>
			The bucket is served by the gateway, which takes its own tokens (<code>GATEWAY_TOKENS</code>), not the API
			credential you signed in with. Give one once: it is kept, sealed, in this session only.
		</p>
		<ErrorSummary messages={errors.form} />
		<form method="post" action={action}>
			<Csrf token={csrf} />
			<TextField
				form="token"
				name="token"
				label="Gateway token"
				type="password"
				required
				errors={errors}
				hint="A token of the GATEWAY_TOKENS secret (with npm run dev: dev-token, or dev-read-token to only read)."
			/>
			<div class="actions">
				<button type="submit">Use this token</button>
			</div>
		</form>
	</section>
);

/** The page without a token (or with one the gateway refused): the token form alone. */
async function tokenPage(c: Ctx, errors: FormErrors = NO_ERRORS, status: ContentfulStatusCode = 200) {
	const s3Access = await s3AccessOf(c);
	return render(
		c,
		<Layout title="Bucket" csrf={c.var.csrf} zone={frame(c)}>
			<p class="crumbs">R2 Object Storage › Bucket</p>
			<h1>Bucket</h1>
			<Notice text={DONE[c.req.query("done") ?? ""]} />
			<TokenForm action={pageUrl(c.var.zone.id, "/token", {})} csrf={c.var.csrf} errors={errors} />
			<S3AccessCard access={s3Access} />
		</Layout>,
		status,
	);
}

// ---- The listing --------------------------------------------------------------------------------

/** The query of a listing request (docs/gateway.md, `GET /?list`): folders by `/`, metadata included. */
function listQuery(place: Place): string {
	const query = new URLSearchParams({ delimiter: "/", include: "httpMetadata" });
	if (place.prefix !== "") query.set("prefix", place.prefix);
	if (place.cursor !== undefined && place.cursor !== "") query.set("cursor", place.cursor);
	query.set("limit", place.limit ?? String(PAGE_SIZE));
	return `/?list&${query}`;
}

const Listing: FC<{ c: Ctx; place: Place; page: R2ObjectsJson }> = ({ c, place, page }) => {
	const zoneId = c.var.zone.id;
	const empty = page.objects.length === 0 && page.delimitedPrefixes.length === 0;
	return (
		<section class="card" aria-labelledby="listing-heading" id="listing">
			<h2 id="listing-heading">{place.prefix === "" ? "Objects" : `Objects in ${place.prefix}`}</h2>
			{empty ? (
				<p>{place.prefix === "" ? "This bucket is empty." : "No objects in this folder."}</p>
			) : (
				<table>
					<thead>
						<tr>
							<th scope="col">
								<span class="visually-hidden">Select</span>
							</th>
							<th scope="col">Name</th>
							<th scope="col">Size</th>
							<th scope="col">Type</th>
							<th scope="col">Uploaded</th>
						</tr>
					</thead>
					<tbody>
						{page.delimitedPrefixes.map((prefix) => (
							<tr>
								<td />
								<td>
									<a href={listingUrl(zoneId, { bucket: place.bucket, prefix, limit: place.limit })}>
										{nameUnder(place.prefix, prefix)}
									</a>
								</td>
								<td>Folder</td>
								<td />
								<td />
							</tr>
						))}
						{page.objects.map((object) => (
							<tr>
								<td>
									<input
										type="checkbox"
										name="key"
										value={object.key}
										form="delete-many"
										aria-label={`Select ${object.key}`}
									/>
								</td>
								<td>
									<a href={objectPageUrl(zoneId, place.bucket, object.key)}>{nameUnder(place.prefix, object.key)}</a>
								</td>
								<td>{formatBytes(object.size)}</td>
								<td>{object.httpMetadata?.contentType ?? ""}</td>
								<td>
									<time datetime={object.uploaded}>{object.uploaded.replace("T", " ").replace(/\.\d+Z$/, " UTC")}</time>
								</td>
							</tr>
						))}
					</tbody>
				</table>
			)}
			<div class="actions">
				{page.truncated && page.cursor !== undefined && (
					<a href={listingUrl(zoneId, { ...place, cursor: page.cursor })}>Next page</a>
				)}
				{place.cursor !== undefined && place.cursor !== "" && (
					<a href={listingUrl(zoneId, { ...place, cursor: undefined })}>First page</a>
				)}
			</div>
			{page.objects.length > 0 && (
				<form
					method="post"
					action={pageUrl(zoneId, "/delete", {})}
					id="delete-many"
					data-confirm="Delete the selected objects?"
				>
					<Csrf token={c.var.csrf} />
					<input type="hidden" name="bucket" value={place.bucket} />
					<input type="hidden" name="prefix" value={place.prefix} />
					<div class="actions">
						<button type="submit" class="danger">
							Delete selected
						</button>
					</div>
				</form>
			)}
		</section>
	);
};

const Uploader: FC<{ c: Ctx; place: Place }> = ({ c, place }) => (
	<section
		class="card"
		aria-labelledby="upload-heading"
		id="uploader"
		data-proxy={`/zones/${c.var.zone.id}/bucket/o/`}
		data-bucket={place.bucket}
		data-csrf={c.var.csrf}
	>
		<h2 id="upload-heading">Upload</h2>
		<noscript>
			<p class="placeholder">Uploading needs JavaScript: this section sends each file with its progress.</p>
		</noscript>
		<form id="upload-form">
			<div>
				<label for="upload-files">Files to upload</label>
				<input type="file" id="upload-files" name="files" multiple required aria-describedby="upload-files-hint" />
				<p class="hint" id="upload-files-hint">
					Files over 8 MiB go as multipart uploads in 8 MiB parts; choose the same file again after a reload to resume
					one.
				</p>
			</div>
			<TextField
				form="upload"
				name="prefix"
				label="Folder"
				value={place.prefix}
				hint="Each key is this folder followed by the file's name; empty for the bucket's root."
			/>
			<div class="actions">
				<button type="submit">Upload</button>
			</div>
		</form>
		<div id="upload-progress" hidden>
			<div>
				<label for="upload-overall">Overall progress</label>
				<progress id="upload-overall" max="1" value="0" />
				<span id="upload-overall-text" />
			</div>
			<ul id="upload-list" class="uploads" />
		</div>
		<p id="upload-status" role="status" aria-live="polite" />
	</section>
);

/** The listing page of `place`; `errors` are a refused delete's. */
async function listingPage(c: Ctx, place: Place, state: { errors?: string[]; notice?: string } = {}) {
	const zoneId = c.var.zone.id;
	const answer = await gatewayJson<R2ObjectsJson>(c, "GET", listQuery(place), { bucket: place.bucket });
	if (!answer.ok && answer.status === 401) {
		// The token changed or was revoked since it was given: ask again, saying why.
		return tokenPage(c, { fields: { token: [answer.message] }, form: [] }, 401);
	}
	const s3Access = await s3AccessOf(c);
	const options = await bucketOptions(c.env);
	return render(
		c,
		<Layout title="Bucket" csrf={c.var.csrf} zone={frame(c)} scripts={SCRIPTS}>
			<p class="crumbs">R2 Object Storage › Bucket</p>
			<h1>Bucket</h1>
			<Notice text={state.notice} />
			<ErrorSummary messages={state.errors ?? []} />
			<form method="get" action={pageUrl(zoneId, "", {})} class="bucket-choice" aria-label="Choose a bucket">
				<SelectField form="choose" name="bucket" label="Bucket" options={options} value={place.bucket} />
				<div class="actions">
					<button type="submit" class="secondary">
						Open bucket
					</button>
				</div>
			</form>
			<nav aria-label="Folder path" class="folders">
				<ol>
					<li>
						<a
							href={listingUrl(zoneId, { bucket: place.bucket, prefix: "" })}
							aria-current={place.prefix === "" ? "page" : undefined}
						>
							Root
						</a>
					</li>
					{crumbs(place.prefix).map((crumb) => (
						<li>
							<a
								href={listingUrl(zoneId, { bucket: place.bucket, prefix: crumb.prefix })}
								aria-current={crumb.prefix === place.prefix ? "page" : undefined}
							>
								{crumb.name}
							</a>
						</li>
					))}
				</ol>
			</nav>
			{answer.ok ? (
				<Listing c={c} place={place} page={answer.value} />
			) : (
				<section class="card" id="listing">
					<ErrorSummary messages={[answer.message]} />
				</section>
			)}
			<Uploader c={c} place={place} />
			<section class="card" aria-labelledby="token-set-heading">
				<h2 id="token-set-heading">Bucket access</h2>
				<p>This session presents the gateway token you gave to every request of this page.</p>
				<PostForm action={pageUrl(zoneId, "/token/forget", {})} csrf={c.var.csrf}>
					<button type="submit" class="secondary">
						Forget the gateway token
					</button>
				</PostForm>
			</section>
			<S3AccessCard access={s3Access} />
		</Layout>,
		answer.ok ? 200 : statusOf(answer),
	);
}

// ---- An object's details ------------------------------------------------------------------------

/** The object named `key`, from a list with both includes: the list's JSON holds every field. */
async function readObject(c: Ctx, bucket: string, key: string) {
	const query = new URLSearchParams({ prefix: key, limit: "1", include: "httpMetadata,customMetadata" });
	const answer = await gatewayJson<R2ObjectsJson>(c, "GET", `/?list&${query}`, { bucket });
	if (!answer.ok) return answer;
	// The first key under a prefix equal to `key` is `key` itself, when it exists.
	const object = answer.value.objects.find((o) => o.key === key);
	return object === undefined
		? { ok: false as const, status: 404, message: "The specified key does not exist." }
		: { ok: true as const, status: 200, value: object };
}

/** The first TEXT_PREVIEW_BYTES of `key`, by Range, decoded as UTF-8; whether there is more. */
async function textPreview(c: Ctx, bucket: string, object: R2ObjectJson) {
	const query = new URLSearchParams({ key: object.key });
	const response = await callGateway(c, "GET", `/?${query}`, {
		bucket,
		headers: { range: `bytes=0-${TEXT_PREVIEW_BYTES - 1}` },
	});
	if (!response.ok) return { ok: false as const, message: await errorMessage(response) };
	const text = new TextDecoder().decode(await response.arrayBuffer());
	return { ok: true as const, text, partial: object.size > TEXT_PREVIEW_BYTES, status: response.status };
}

const Row: FC<{ name: string; value?: string | number }> = ({ name, value }) => (
	<tr>
		<th scope="row">{name}</th>
		<td>{value === undefined || value === "" ? <span class="hint">none</span> : <code>{String(value)}</code>}</td>
	</tr>
);

const Preview: FC<{ c: Ctx; bucket: string; object: R2ObjectJson; text?: Awaited<ReturnType<typeof textPreview>> }> = ({
	c,
	bucket,
	object,
	text,
}) => {
	const http = object.httpMetadata ?? {};
	const kind = previewKind(object.key, http.contentType, http.contentEncoding);
	const src = proxyObjectUrl(c.var.zone.id, bucket, object.key);
	if (object.size === 0) return <p>The object is empty.</p>;
	if (kind === "text" && text !== undefined) {
		if (!text.ok) return <ErrorSummary messages={[text.message]} />;
		return (
			<>
				<p class="hint">
					{text.partial
						? `The first ${formatBytes(TEXT_PREVIEW_BYTES)} of ${formatBytes(object.size)}, read with Range: bytes=0-${TEXT_PREVIEW_BYTES - 1}.`
						: `All ${formatBytes(object.size)}, read with Range: bytes=0-${TEXT_PREVIEW_BYTES - 1}.`}
				</p>
				<section class="preview-text" tabindex={0} aria-label={`Text of ${object.key}`}>
					<pre>{text.text}</pre>
				</section>
			</>
		);
	}
	if (kind === "image") {
		if (object.size > IMAGE_PREVIEW_BYTES)
			return <p>The image is over {formatBytes(IMAGE_PREVIEW_BYTES)}: download it to see it.</p>;
		return (
			<figure class="preview-image" data-preview-image data-src={src} data-size={object.size} data-alt={object.key}>
				<p class="hint">Loading the image…</p>
				<noscript>
					<img src={src} alt={object.key} />
				</noscript>
			</figure>
		);
	}
	if (kind === "audio")
		// biome-ignore lint/a11y/useMediaCaption: an object of the bucket comes with no caption track.
		return <audio controls preload="metadata" src={src} aria-label={`Audio of ${object.key}`} />;
	if (kind === "video")
		// biome-ignore lint/a11y/useMediaCaption: an object of the bucket comes with no caption track.
		return <video controls preload="metadata" src={src} aria-label={`Video of ${object.key}`} class="preview-video" />;
	return <p>No preview for this type of object: download it instead.</p>;
};

/** The details page of one object. */
async function objectPage(
	c: Ctx,
	bucket: string,
	key: string,
	errors: string[] = [],
	status: ContentfulStatusCode = 200,
) {
	const zoneId = c.var.zone.id;
	const answer = await readObject(c, bucket, key);
	if (!answer.ok && answer.status === 401) return tokenPage(c, { fields: { token: [answer.message] }, form: [] }, 401);
	const folder = key.includes("/") ? key.slice(0, key.lastIndexOf("/") + 1) : "";
	const back = listingUrl(zoneId, { bucket, prefix: folder });
	const object = answer.ok ? answer.value : undefined;
	const http = object?.httpMetadata ?? {};
	const text =
		object !== undefined && object.size > 0 && previewKind(key, http.contentType, http.contentEncoding) === "text"
			? await textPreview(c, bucket, object)
			: undefined;
	const name = nameUnder(folder, key);
	return render(
		c,
		<Layout title={name === "" ? "Object" : name} csrf={c.var.csrf} zone={frame(c)} scripts={SCRIPTS}>
			<p class="crumbs">
				R2 Object Storage › <a href={back}>Bucket{folder === "" ? "" : ` › ${folder}`}</a>
			</p>
			<h1>{name === "" ? "(the empty key)" : name}</h1>
			<ErrorSummary messages={errors} />
			{object === undefined ? (
				<ErrorSummary messages={[answer.ok ? "" : answer.message]} />
			) : (
				<>
					<section class="card" aria-labelledby="details-heading">
						<h2 id="details-heading">Details</h2>
						<table>
							<caption class="visually-hidden">Details of {key}</caption>
							<tbody>
								<Row name="Key" value={object.key} />
								<Row name="Size" value={`${formatBytes(object.size)} (${object.size} bytes)`} />
								<Row name="ETag" value={object.etag} />
								<Row name="HTTP ETag" value={object.httpEtag} />
								<Row name="Uploaded" value={object.uploaded} />
								<Row name="Version" value={object.version} />
								{/* Miniflare's binding reports "" where R2 says Standard (docs/gateway.md, "Object headers"). */}
								<Row
									name="Storage class"
									value={object.storageClass === "" ? "none reported (R2's default: Standard)" : object.storageClass}
								/>
							</tbody>
						</table>
						<h3 id="http-heading">HTTP metadata</h3>
						<MetadataTable labelledBy="http-heading" entries={Object.entries(http)} />
						<h3 id="custom-heading">Custom metadata</h3>
						<MetadataTable labelledBy="custom-heading" entries={Object.entries(object.customMetadata ?? {})} />
						<h3 id="checksums-heading">Checksums</h3>
						<MetadataTable labelledBy="checksums-heading" entries={Object.entries(object.checksums)} />
						<div class="actions">
							<a href={proxyObjectUrl(zoneId, bucket, key)} download={name === "" ? "object" : name} class="button">
								Download
							</a>
							<PostForm
								action={pageUrl(zoneId, "/delete", {})}
								csrf={c.var.csrf}
								confirm={`Delete ${key}?`}
								label={`Delete ${key}`}
							>
								<input type="hidden" name="bucket" value={bucket} />
								<input type="hidden" name="prefix" value={folder} />
								<input type="hidden" name="key" value={key} />
								<button type="submit" class="danger">
									Delete
								</button>
							</PostForm>
						</div>
					</section>
					<section class="card" aria-labelledby="preview-heading">
						<h2 id="preview-heading">Preview</h2>
						<Preview c={c} bucket={bucket} object={object} text={text} />
					</section>
				</>
			)}
		</Layout>,
		object === undefined && !answer.ok ? statusOf(answer) : status,
	);
}

const MetadataTable: FC<{ labelledBy: string; entries: [string, unknown][] }> = ({ labelledBy, entries }) =>
	entries.length === 0 ? (
		<p>None.</p>
	) : (
		<table aria-labelledby={labelledBy}>
			<tbody>
				{entries.map(([name, value]) => (
					<Row name={name} value={String(value)} />
				))}
			</tbody>
		</table>
	);

// ---- Routes -------------------------------------------------------------------------------------

/** The listing's place from the query. */
async function placeOf(c: Ctx): Promise<Place> {
	const prefix = c.req.query("prefix") ?? "";
	return {
		bucket: await bucketOf(c, c.req.query("bucket")),
		prefix,
		cursor: c.req.query("cursor"),
		limit: c.req.query("limit"),
	};
}

/** Routes under `/zones/{zone_id}/bucket`: the pages, their forms, and the proxy `/o/...`. */
export const bucket = new Hono<DashEnv>()
	.get("/", async (c) => {
		if (c.var.session.gatewayToken === undefined) return tokenPage(c);
		const done = c.req.query("done");
		const count = Number(c.req.query("count") ?? "");
		const notice =
			done === "deleted" && Number.isInteger(count) && count > 0
				? `Deleted ${count} ${count === 1 ? "object" : "objects"}.`
				: DONE[done ?? ""];
		return listingPage(c, await placeOf(c), { notice });
	})
	.post("/token", async (c) => {
		const token = (await formValues(c)).one("token").trim();
		if (token === "") return tokenPage(c, { fields: { token: ["Enter a gateway token."] }, form: [] }, 400);
		// The gateway itself checks the token: a one-key listing, which every valid token may do.
		const answer = await gatewayJson(c, "GET", "/?list&limit=1", { token });
		if (!answer.ok) return tokenPage(c, { fields: { token: [answer.message] }, form: [] }, statusOf(answer));
		await writeSession(c, { ...c.var.session, gatewayToken: token });
		return c.redirect(pageUrl(c.var.zone.id, "", { done: "token-saved" }), 303);
	})
	.post("/token/forget", async (c) => {
		const { gatewayToken: _, ...session } = c.var.session;
		await writeSession(c, session);
		return c.redirect(pageUrl(c.var.zone.id, "", { done: "token-forgotten" }), 303);
	})
	.get("/object", async (c) => {
		if (c.var.session.gatewayToken === undefined) return tokenPage(c);
		return objectPage(c, await bucketOf(c, c.req.query("bucket")), c.req.query("key") ?? "");
	})
	.post("/delete", async (c) => {
		const form = await formValues(c);
		const place: Place = { bucket: await bucketOf(c, form.one("bucket")), prefix: form.one("prefix") };
		const keys = form.all("key");
		if (keys.length === 0) return listingPage(c, place, { errors: ["Choose the objects to delete."] });
		const answer =
			keys.length === 1
				? await gatewayJson(c, "DELETE", `/?${new URLSearchParams({ key: keys[0] ?? "" })}`, { bucket: place.bucket })
				: await gatewayJson(c, "POST", "/?delete", {
						bucket: place.bucket,
						headers: { "content-type": "application/json" },
						body: JSON.stringify({ keys }),
					});
		if (!answer.ok) return listingPage(c, place, { errors: [answer.message] });
		return c.redirect(
			pageUrl(c.var.zone.id, "", {
				bucket: place.bucket,
				prefix: place.prefix,
				done: "deleted",
				count: String(keys.length),
			}),
			303,
		);
	})
	// The proxy: everything under /o/ goes to the gateway as it came, with the session's token;
	// the answer comes back with headers that keep its object from running as the dashboard.
	.all("/o/*", async (c) => {
		const path = new URL(c.req.url).pathname;
		const marker = `/bucket/o/`;
		return contain(await forward(c, path.slice(path.indexOf(marker) + marker.length)));
	});
