/**
 * Virtual-host addressing: a request whose Host is `<bucket>.<host>` names that bucket, and its
 * path is the key (https://docs.aws.amazon.com/AmazonS3/latest/userguide/VirtualHosting.html;
 * R2 serves both styles, https://developers.cloudflare.com/r2/api/s3/api/).
 *
 * S3 knows its own endpoints, so any label before them is a bucket. Edgezone serves every Host,
 * so the rule is edgezone's, made so that no Host loses the meaning it has:
 * - the bucket label is recognised only when it is a served bucket's name (`R2_BUCKETS`), and
 *   the rest of the Host is the host the request's zone is served on: the name of the zone that
 *   holds the Host (`zone-routing.ts`, the nearest parent), or, for a Host no zone holds (the
 *   default zone's), `localhost`, where `npm run dev` serves (browsers and curl resolve
 *   `*.localhost` to loopback, RFC 6761 §6.3). A Host has at most one such reading;
 * - a Host that is a zone's own name, or a custom hostname (listed, or covered by an active
 *   `*.` one), keeps its path-style meaning, so no route or object key is shadowed.
 * The request's zone (its firewall and logs) is the one the edge already chose by Host: the
 * bucket label never moves a request to another zone.
 *
 * The signature covers the path as sent (`sigv4.ts`), which for this style is the key alone.
 */

import { bucketNames } from "../../runtime-buckets/catalog";
import { customHostnameZone } from "../custom-hostname-routing";
import { customHostnameZones, holdingZone, zoneNames } from "../zone-names";

/** The host `npm run dev` serves on, whose subdomains name buckets of the default zone. */
const LOCAL_HOST = "localhost";

/**
 * The bucket a Host names in virtual-host style, or undefined for path-style.
 * @param host the request's host, lower case, without port (`URL.hostname`).
 * @param now the request's time, ms since the epoch (the zone names' cache).
 * @throws S3Error 500 InternalError when `R2_BUCKETS` is not valid.
 */
export async function virtualHostBucket(env: Env, host: string, now: number): Promise<string | undefined> {
	// Cheap first: most Hosts start with no served bucket's name.
	const named = (await bucketNames(env, now)).filter((name) => host.startsWith(`${name}.`));
	if (named.length === 0) return undefined;
	const holder = holdingZone(host, await zoneNames(env, now));
	if (holder?.name === host) return undefined;
	const served = holder?.name ?? LOCAL_HOST;
	const bucket = named.find((name) => host === `${name}.${served}`);
	if (bucket === undefined) return undefined;
	const customHostnames = await customHostnameZones(env, now);
	if (customHostnames.has(host)) return undefined;
	if ((await customHostnameZone(env, host, customHostnames, now)) !== undefined) return undefined;
	return bucket;
}
