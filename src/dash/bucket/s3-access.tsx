/**
 * The Bucket page's S3 section: the endpoint S3 clients use and the signed-in token's S3
 * credentials, as R2 derives them from an API token (Access Key ID the token's id, Secret Access
 * Key the hex SHA-256 of its value: https://developers.cloudflare.com/r2/api/tokens/, "Get S3 API
 * credentials from an API token"; `src/edge/s3/auth/credentials.ts`), with its R2 permission and the
 * buckets it reaches, in the words of `aws configure`'s prompts.
 *
 * The secret is the session's own token's, so only the person signed in with that token sees it
 * (the page is behind the session; every dashboard page is `Cache-Control: no-store`). A session
 * signed in with a Global API Key has no S3 credentials: R2 derives them from API tokens only.
 */
import type { FC } from "hono/jsx";
import { R2_PERMISSION_NAMES, type R2Permission, reachesBucket } from "../../common/s3-keys";
import { type AccessKey, accessKeyOfToken } from "../../edge/s3/auth/credentials";
import { servedBucketNames } from "../../edge/s3/buckets";
import { s3ErrorOf } from "../../edge/s3/errors";
import type { Ctx } from "../types";

/**
 * The aws CLI profile the page's commands write and use, named so that the default profile,
 * which holds a person's AWS keys, is never overwritten.
 */
const PROFILE = "edgezone";

/** What the page says of a permission: R2's name, and why a token has none. */
const permissionName = (permission: R2Permission): string =>
	permission === "none"
		? "none (the token's permissions name none of R2's permission groups)"
		: R2_PERMISSION_NAMES[permission];

/** What the section shows. */
type S3Access =
	| { kind: "key"; endpoint: string; key: AccessKey; buckets: string[] }
	| { kind: "no-token"; endpoint: string; buckets: string[] }
	| { kind: "error"; message: string };

/**
 * The S3 endpoint of the page at `pageUrl`: the same scheme and port, on the host the dashboard's
 * own host is a name under (`dash.localhost:8787` -> `localhost:8787`), which the edge serves;
 * `localhost` when DASHBOARD_HOST has a single label (edgezone's choice: the dashboard's host is
 * its own, so S3 cannot share it).
 */
function s3Endpoint(pageUrl: string, dashboardHost: string): string {
	const url = new URL(pageUrl);
	const dot = dashboardHost.indexOf(".");
	url.hostname = dot < 0 ? "localhost" : dashboardHost.slice(dot + 1);
	return url.origin;
}

/** The S3 section's content for the signed-in person. */
export async function s3AccessOf(c: Ctx): Promise<S3Access> {
	try {
		const endpoint = s3Endpoint(c.req.url, c.env.DASHBOARD_HOST);
		const buckets = servedBucketNames(c.env);
		const credential = c.var.session.credential;
		if (!("token" in credential)) return { kind: "no-token", endpoint, buckets };
		const key = await accessKeyOfToken(c.env, credential.token);
		if (key === undefined) return { kind: "no-token", endpoint, buckets };
		return { kind: "key", endpoint, key, buckets: buckets.filter((name) => reachesBucket(key, name)) };
	} catch (error) {
		const known = s3ErrorOf(error);
		if (known === undefined) throw error;
		return { kind: "error", message: `S3 credentials are not available: ${known.message}` };
	}
}

const Row: FC<{ name: string; value: string; id?: string }> = ({ name, value, id }) => (
	<tr>
		<th scope="row">{name}</th>
		<td>
			<code id={id}>{value}</code>
		</td>
	</tr>
);

/** The section: endpoint, credentials, permission and buckets, and the CLI lines that use them. */
export const S3AccessCard: FC<{ access: S3Access }> = ({ access }) => (
	<section class="card" aria-labelledby="s3-heading" id="s3-access">
		<h2 id="s3-heading">S3 API</h2>
		{access.kind === "error" ? (
			<p>{access.message}</p>
		) : (
			<>
				<p>
					S3 clients (the AWS CLI and SDKs, rclone, s3cmd) reach these buckets at this endpoint, path-style (
					<code>{access.endpoint}/&lt;bucket&gt;/&lt;key&gt;</code>), signed with the S3 credentials R2 derives from an
					API token.
				</p>
				{access.kind === "no-token" ? (
					<p>
						You signed in with a Global API Key, or a token that is no longer configured: R2 gives S3 credentials to API
						tokens only. Sign in with an API token of <code>API_CREDENTIALS</code> to see its credentials here.
					</p>
				) : (
					<p>These are the credentials of the API token you signed in with; keep the secret as you keep the token.</p>
				)}
				<table>
					<caption>Values for aws configure</caption>
					<tbody>
						<Row name="Endpoint URL" value={access.endpoint} id="s3-endpoint" />
						{access.kind === "key" && (
							<>
								<Row name="AWS Access Key ID" value={access.key.id} id="s3-access-key-id" />
								<Row name="AWS Secret Access Key" value={access.key.secret} id="s3-secret-access-key" />
							</>
						)}
						<Row name="Default region name" value="auto" id="s3-region" />
						{access.kind === "key" && (
							<tr>
								<th scope="row">R2 permission</th>
								<td>{permissionName(access.key.permission)}</td>
							</tr>
						)}
						<tr>
							<th scope="row">Buckets</th>
							<td>
								{access.buckets.length === 0
									? "none of the served buckets"
									: access.buckets.map((name, index) => (
											<>
												{index > 0 && ", "}
												<code>{name}</code>
											</>
										))}
							</td>
						</tr>
					</tbody>
				</table>
				{access.kind === "key" && (
					<>
						<h3>With the AWS CLI</h3>
						<p>
							In a profile of its own, <code>{PROFILE}</code>, so the default profile (your AWS keys) stays as it is.
							The aws CLI reads <code>endpoint_url</code> from a profile since versions 1.29 and 2.13;
							<code>--endpoint-url</code> serves older ones.
						</p>
						<pre>
							<code>
								{[
									...[
										`aws_access_key_id ${access.key.id}`,
										`aws_secret_access_key ${access.key.secret}`,
										"region auto",
										`endpoint_url ${access.endpoint}`,
										"s3.addressing_style path",
									].map((setting) => `aws configure set ${setting} --profile ${PROFILE}`),
									`export AWS_PROFILE=${PROFILE}`,
									`aws s3 ls s3://${access.buckets[0] ?? "<bucket>"} --endpoint-url ${access.endpoint}`,
								].join("\n")}
							</code>
						</pre>
					</>
				)}
			</>
		)}
	</section>
);
