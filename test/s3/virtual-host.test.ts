/**
 * Virtual-host addressing: a signed request to `<bucket>.localhost` or `<bucket>.<zone name>`
 * names that bucket and its path is the key, signed as sent (aws4fetch signs the URL it is
 * given); a Host that already means something (a zone's own name, a custom hostname, a label that
 * is no served bucket) keeps its path-style meaning.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call } from "../api/http";
import { textOf } from "../bodies";
import { zoneWithHost } from "../edge/logs-helpers";
import { BUCKET, bucket, clientOf, expectS3Error, s3, xmlOf } from "./helpers";

const key = (label: string) => `vhost/${label}-${crypto.randomUUID()}`;

interface ListV2 {
	ListBucketResult: { Name: string; Contents: { Key: string }[] };
}

describe("virtual-host addressing", () => {
	it("takes <bucket>.localhost as the bucket and the whole path as the key", async () => {
		const origin = `http://${BUCKET}.localhost`;
		const k = `${key("put")}/deep/name.txt`;
		const put = await s3(`/${k}`, { method: "PUT", body: "virtual" }, undefined, origin);
		expect(put.status).toBe(200);
		expect(await (await bucket().get(k))?.text()).toBe("virtual");
		const got = await s3(`/${k}`, {}, undefined, origin);
		expect(got.status).toBe(200);
		expect(await textOf(got)).toBe("virtual");
		expect((await s3(`/${k}`, { method: "HEAD" }, undefined, origin)).status).toBe(200);
	});

	it("answers the bucket's operations at its root: ListObjectsV2, HeadBucket, GetBucketLocation", async () => {
		const origin = `http://${BUCKET}.localhost`;
		const prefix = `${key("list")}/`;
		await bucket().put(`${prefix}a`, "a");
		const listed = await s3(`/?list-type=2&prefix=${encodeURIComponent(prefix)}`, {}, undefined, origin);
		expect(listed.status).toBe(200);
		const { ListBucketResult: result } = await xmlOf<ListV2>(listed);
		expect(result.Name).toBe(BUCKET);
		expect(result.Contents.map((c) => c.Key)).toEqual([`${prefix}a`]);
		expect((await s3("/", { method: "HEAD" }, undefined, "http://edgezone-logs.localhost")).status).toBe(200);
		const location = await s3("/?location", {}, undefined, origin);
		expect(await location.text()).toContain(">auto</LocationConstraint>");
	});

	it("serves a presigned URL on the bucket's host", async () => {
		const k = key("presigned");
		await bucket().put(k, "presigned body");
		const signed = await (await clientOf()).sign(`http://${BUCKET}.localhost/${k}`, { aws: { signQuery: true } });
		const response = await exports.default.fetch(signed.url);
		expect(response.status).toBe(200);
		expect(await textOf(response)).toBe("presigned body");
	});

	it("refuses a request signed for the path-style path but sent to the bucket's host", async () => {
		const k = key("mismatch");
		const signed = await (await clientOf()).sign(`http://${BUCKET}.localhost/${BUCKET}/${k}`, {
			method: "PUT",
			body: "x",
		});
		// The same request, with the bucket dropped from the path: the signature covered another path.
		const moved = new Request(`http://${BUCKET}.localhost/${k}`, signed);
		await expectS3Error(await exports.default.fetch(moved), 403, "SignatureDoesNotMatch");
		expect(await bucket().head(k)).toBeNull();
	});

	it("takes <bucket>.<zone name> in that zone, behind its firewall", async () => {
		const { zone_id, host } = await zoneWithHost("s3-vhost");
		const rule = await call("POST", `/zones/${zone_id}/firewall/rules`, [
			{ action: "block", filter: { expression: 'starts_with(http.request.uri.path, "/blocked/")' } },
		]);
		expect(rule.status, JSON.stringify(rule.body)).toBe(200);
		const origin = `http://${BUCKET}.${host}`;
		const allowed = key("zone");
		expect((await s3(`/${allowed}`, { method: "PUT", body: "in zone" }, undefined, origin)).status).toBe(200);
		expect(await (await bucket().get(allowed))?.text()).toBe("in zone");
		const blocked = `blocked/${crypto.randomUUID()}`;
		const refused = await s3(`/${blocked}`, { method: "PUT", body: "no" }, undefined, origin);
		// The zone's block page: the request never reached the dialect.
		expect(refused.status).toBe(403);
		expect(refused.headers.get("x-amz-request-id")).toBeNull();
		await refused.arrayBuffer();
		expect(await bucket().head(blocked)).toBeNull();
	});

	it("keeps path-style for a Host that is a zone's own name, even one that starts with a bucket's name", async () => {
		const { host: parent } = await zoneWithHost("s3-own");
		const own = `${BUCKET}.${parent}`;
		const created = await call("POST", "/zones", { name: own, account: {} });
		expect(created.status, JSON.stringify(created.body)).toBe(200);
		const k = key("own-name");
		const put = await s3(`/${BUCKET}/${k}`, { method: "PUT", body: "path-style" }, undefined, `http://${own}`);
		expect(put.status).toBe(200);
		expect(await (await bucket().get(k))?.text()).toBe("path-style");
		expect(await bucket().head(`${BUCKET}/${k}`)).toBeNull();
	});

	it("keeps path-style for a Host that is a custom hostname", async () => {
		const { host: parent } = await zoneWithHost("s3-saas");
		const { zone_id: saas } = await zoneWithHost("s3-saas-provider");
		const hostname = `${BUCKET}.${parent}`;
		const res = await call("POST", `/zones/${saas}/custom_hostnames`, { hostname, ssl: { method: "txt" } });
		expect(res.status, JSON.stringify(res.body)).toBe(200);
		const k = key("custom-hostname");
		const put = await s3(`/${BUCKET}/${k}`, { method: "PUT", body: "custom" }, undefined, `http://${hostname}`);
		expect(put.status).toBe(200);
		expect(await (await bucket().get(k))?.text()).toBe("custom");
	});

	it("keeps path-style when the first label is no served bucket, or the rest is no served host", async () => {
		const k = key("not-a-bucket");
		const put = await s3(`/${BUCKET}/${k}`, { method: "PUT", body: "p" }, undefined, "http://other-bucket.localhost");
		expect(put.status).toBe(200);
		expect(await (await bucket().get(k))?.text()).toBe("p");
		const elsewhere = key("not-served");
		const far = await s3(
			`/${BUCKET}/${elsewhere}`,
			{ method: "PUT", body: "q" },
			undefined,
			`http://${BUCKET}.nowhere.test`,
		);
		expect(far.status).toBe(200);
		expect(await (await bucket().get(elsewhere))?.text()).toBe("q");
	});

	it("answers ListBuckets at the service's own host, not a bucket's", async () => {
		const response = await s3("/", {}, undefined, "http://localhost");
		expect(await response.text()).toContain("<ListAllMyBucketsResult");
	});
});
