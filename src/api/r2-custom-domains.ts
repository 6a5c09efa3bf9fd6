/**
 * `/accounts/{account_id}/r2/buckets/{bucket_name}/domains`: a bucket's public access, its custom
 * domains and its managed `r2.dev` URL (https://developers.cloudflare.com/api/resources/r2/subresources/buckets/subresources/domains/;
 * SDK `client.r2.buckets.domains.custom.*` and `.managed.*`; `wrangler r2 bucket domain ...` and
 * `wrangler r2 bucket dev-url ...` call the same paths).
 *
 * - `GET /custom` `{domains: [Domain]}`; `POST /custom` `{domain, zoneId, enabled?, minTLS?,
 *   ciphers?}` ("If undefined, the domain will be enabled") answers `{domain, enabled, zoneId,
 *   minTLS, ciphers?}`; `GET /custom/{domain}` a `Domain` (`{domain, enabled, status: {ownership,
 *   ssl}, minTLS, ciphers?, zoneId, zoneName}`); `PUT /custom/{domain}` `{enabled?, minTLS?,
 *   ciphers?}` (absent: unchanged; wrangler also sends `domain`) answers `{domain, enabled, minTLS,
 *   ciphers?}`; `DELETE /custom/{domain}` `{domain}`.
 * - `GET /managed` and `PUT /managed` `{enabled}` answer `{bucketId, domain, enabled}`, `domain`
 *   being `pub-<bucketId>.r2.dev`. R2 gives each bucket its own random id; edgezone derives it
 *   from the account and the bucket's name (the first 32 hex digits of their SHA-256), so it is
 *   stable with no state until r2.dev is turned on.
 * The bucket (`bucketOfPath`) and the rules of a domain (`src/zone/r2-custom-domains.ts`) give
 * the errors. Permission: reading with "Workers R2 Storage Read" or "Edit", writing with "Edit",
 * as the S3 operations reading and changing a bucket's configuration (`readsBucketConfig`,
 * `managesBuckets`); a token of listed zones is refused, the bucket being every zone's.
 * Each write makes this isolate's edge read the public hosts again (`forgetPublicHosts`).
 * Size limits: a domain 253 characters (RFC 1035); at most 64 ciphers of 64 characters each,
 * edgezone's choice (BoringSSL's cipher names are under 50 characters).
 */
import type {
	CustomCreateResponse,
	CustomDeleteResponse,
	CustomGetResponse,
	CustomListResponse,
	CustomUpdateResponse,
} from "cloudflare/resources/r2/buckets/domains/custom";
import type { ManagedListResponse, ManagedUpdateResponse } from "cloudflare/resources/r2/buckets/domains/managed";
import { Hono } from "hono";
import { z } from "zod";
import { zoneRegistry } from "../common/durable-objects";
import { toHex } from "../common/encoding";
import { forgetPublicHosts } from "../edge/r2-domain/hosts";
import { CODES } from "../zone/failure";
import { MIN_TLS_VERSIONS, type R2CustomDomain } from "../zone/r2-custom-domains";
import { ok } from "./envelope";
import { unwrap } from "./errors";
import { managesBuckets, readsBucketConfig } from "./permissions";
import { bucketOfPath } from "./r2-buckets";
import type { ApiEnv } from "./types";
import { HEX_ID, parseBody } from "./validate";

const DOMAIN = z.string().min(1).max(253);
const MIN_TLS = z.enum(MIN_TLS_VERSIONS);
const CIPHERS = z.array(z.string().min(1).max(64)).max(64);

const CREATE = z.strictObject({
	domain: DOMAIN,
	zoneId: HEX_ID,
	enabled: z.boolean().default(true),
	minTLS: MIN_TLS.default("1.0"),
	ciphers: CIPHERS.optional(),
});

const UPDATE = z.strictObject({
	domain: DOMAIN.optional(),
	enabled: z.boolean().optional(),
	minTLS: MIN_TLS.optional(),
	ciphers: CIPHERS.optional(),
});

const MANAGED = z.strictObject({ enabled: z.boolean() });

/** The custom domain a path names, lower case, as domains are kept. */
const domainParam = (name: string | undefined): string => (name ?? "").toLowerCase();

/** The `ciphers` field of an answer: present only when the domain has a list. */
const ciphersOf = (domain: R2CustomDomain) => (domain.ciphers === undefined ? {} : { ciphers: domain.ciphers });

/** The `r2.dev` URL of `bucket` in `accountId`: its id and host (`pub-<id>.r2.dev`). */
async function managedDomain(accountId: string, bucket: string): Promise<{ bucketId: string; domain: string }> {
	const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${accountId}/${bucket}`));
	const bucketId = toHex(new Uint8Array(digest)).slice(0, 32);
	return { bucketId, domain: `pub-${bucketId}.r2.dev` };
}

/** Routes under `/accounts/{account_id}/r2/buckets/{bucket_name}/domains`. */
export const r2Domains = new Hono<ApiEnv>()
	.get("/custom", readsBucketConfig, async (c) => {
		const bucket = (await bucketOfPath(c)).name;
		const domains = unwrap(await zoneRegistry(c.env).r2CustomDomains(bucket));
		return ok({ domains } satisfies CustomListResponse);
	})
	.post("/custom", managesBuckets, async (c) => {
		const bucket = (await bucketOfPath(c)).name;
		const accountId = c.env.DEFAULT_ACCOUNT_ID;
		const body = await parseBody(c, CREATE, CODES.r2CustomDomainInvalid);
		const domain = unwrap(await zoneRegistry(c.env).attachR2CustomDomain(accountId, bucket, body));
		forgetPublicHosts();
		const { enabled, zoneId, minTLS } = domain;
		return ok({ domain: domain.domain, enabled, zoneId, minTLS, ...ciphersOf(domain) } satisfies CustomCreateResponse);
	})
	.get("/custom/:domain", readsBucketConfig, async (c) => {
		const bucket = (await bucketOfPath(c)).name;
		const domain = unwrap(await zoneRegistry(c.env).r2CustomDomain(bucket, domainParam(c.req.param("domain"))));
		return ok(domain satisfies CustomGetResponse);
	})
	.put("/custom/:domain", managesBuckets, async (c) => {
		const bucket = (await bucketOfPath(c)).name;
		const { domain: _named, ...patch } = await parseBody(c, UPDATE, CODES.r2CustomDomainInvalid);
		const domain = unwrap(
			await zoneRegistry(c.env).updateR2CustomDomain(bucket, domainParam(c.req.param("domain")), patch),
		);
		forgetPublicHosts();
		const { enabled, minTLS } = domain;
		return ok({ domain: domain.domain, enabled, minTLS, ...ciphersOf(domain) } satisfies CustomUpdateResponse);
	})
	.delete("/custom/:domain", managesBuckets, async (c) => {
		const bucket = (await bucketOfPath(c)).name;
		const removed = unwrap(await zoneRegistry(c.env).removeR2CustomDomain(bucket, domainParam(c.req.param("domain"))));
		forgetPublicHosts();
		return ok(removed satisfies CustomDeleteResponse);
	})
	.get("/managed", readsBucketConfig, async (c) => {
		const bucket = (await bucketOfPath(c)).name;
		const accountId = c.env.DEFAULT_ACCOUNT_ID;
		const enabled = await zoneRegistry(c.env).r2ManagedEnabled(bucket);
		return ok({ ...(await managedDomain(accountId, bucket)), enabled } satisfies ManagedListResponse);
	})
	.put("/managed", managesBuckets, async (c) => {
		const bucket = (await bucketOfPath(c)).name;
		const accountId = c.env.DEFAULT_ACCOUNT_ID;
		const { enabled } = await parseBody(c, MANAGED, CODES.r2CustomDomainInvalid);
		const managed = await managedDomain(accountId, bucket);
		unwrap(await zoneRegistry(c.env).setR2Managed(bucket, managed.domain, enabled));
		forgetPublicHosts();
		return ok({ ...managed, enabled } satisfies ManagedUpdateResponse);
	});
