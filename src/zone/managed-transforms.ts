/**
 * The zone's Managed Transforms (`/zones/{zone_id}/managed_headers`,
 * developers.cloudflare.com/api/resources/managed_transforms/; SDK
 * `client.managedTransforms.list/edit/delete`): one switch per transform, all off in a new zone.
 *
 * Emulates the transforms whose headers edgezone can give (developers.cloudflare.com/rules/
 * transform/managed-transforms/reference/), in the order the API lists them
 * (rules/transform/managed-transforms/configure/): toward the origin
 * `add_visitor_location_headers`, `add_true_client_ip_headers` and `remove_visitor_ip_headers`,
 * the last two conflicting ("This Managed Transform is unavailable when ... is enabled"); on the
 * answer `remove_x-powered-by_header` and `add_security_headers`. The list holds no others, as the
 * real one "will only include available Managed Transforms according to your Cloudflare plan and
 * product subscriptions": `add_bot_protection_headers` (Bot Management), `add_client_certificate_headers`
 * (mTLS), `add_waf_credential_check_status_header` and `add_waf_content_scan_status_header` (WAF
 * detections) read what edgezone does not emulate; a PATCH may turn one of them off (it stays
 * off), not on. An entry's `has_conflict` is true while a
 * transform it conflicts with is on. A PATCH names transforms by list; after it, no two
 * conflicting transforms may be on. Refusals (an unknown id, an id in the other list, one named
 * twice, a conflict) are 400 20200 with the field's pointer (the code is edgezone's choice).
 */
import { CODES, invalid } from "./failure";

/** The request transforms, then the response transforms, each in the API's order. */
const MANAGED_TRANSFORMS = {
	managed_request_headers: ["add_visitor_location_headers", "add_true_client_ip_headers", "remove_visitor_ip_headers"],
	managed_response_headers: ["remove_x-powered-by_header", "add_security_headers"],
} as const;

/** The two lists of the API's body and answer. */
export type TransformList = keyof typeof MANAGED_TRANSFORMS;

/** The id of a transform edgezone performs. */
export type ManagedTransformId = (typeof MANAGED_TRANSFORMS)[TransformList][number];

const LISTS = Object.keys(MANAGED_TRANSFORMS) as TransformList[];

/** Cloudflare's request transforms that edgezone does not list (module header). */
const NOT_EMULATED: ReadonlySet<string> = new Set([
	"add_bot_protection_headers",
	"add_client_certificate_headers",
	"add_waf_credential_check_status_header",
	"add_waf_content_scan_status_header",
]);

/** Which transforms each cannot be on beside (the API's `conflicts_with`). */
const CONFLICTS: Partial<Record<ManagedTransformId, readonly ManagedTransformId[]>> = {
	add_true_client_ip_headers: ["remove_visitor_ip_headers"],
	remove_visitor_ip_headers: ["add_true_client_ip_headers"],
};

/** One transform as the API answers it (SDK `ManagedTransformListResponse.ManagedRequestHeader`). */
export interface ManagedTransform {
	id: ManagedTransformId;
	enabled: boolean;
	has_conflict: boolean;
	conflicts_with?: ManagedTransformId[];
}

/** The API's answer: both lists, every transform in them. */
export type ManagedTransforms = Record<TransformList, ManagedTransform[]>;

/** A PATCH body: the transforms it switches, by list. */
export type ManagedTransformsPatch = Partial<Record<TransformList, { id: string; enabled: boolean }[]>>;

/** The `managed_transforms` table: a row per transform that is on. Every method runs inside the caller's transaction. */
export class ManagedTransformStore {
	readonly #sql: SqlStorage;

	constructor(sql: SqlStorage) {
		this.#sql = sql;
	}

	/** The ids of the transforms that are on. */
	enabled(): Set<ManagedTransformId> {
		const rows = this.#sql.exec<{ id: string }>("SELECT id FROM managed_transforms").toArray();
		// Written only by `edit`, with ids of MANAGED_TRANSFORMS.
		return new Set(rows.map((row) => row.id as ManagedTransformId));
	}

	/** Both lists as the API answers them. */
	list(): ManagedTransforms {
		return answerOf(this.enabled());
	}

	/** Switches the transforms `patch` names; answers both lists. 400 20200 for a refusal (module header). */
	edit(patch: ManagedTransformsPatch): ManagedTransforms {
		const enabled = this.enabled();
		const named = new Set<string>();
		for (const list of LISTS) {
			for (const [index, entry] of (patch[list] ?? []).entries()) {
				const pointer = `/${list}/${index}/id`;
				if (named.has(entry.id)) invalid(CODES.managedTransformsInvalid, `${entry.id} is named twice`, pointer);
				named.add(entry.id);
				if (list === "managed_request_headers" && NOT_EMULATED.has(entry.id)) {
					if (!entry.enabled) continue;
					invalid(
						CODES.managedTransformsInvalid,
						`${entry.id} is not available in this zone: edgezone does not emulate what it reads`,
						pointer,
					);
				}
				const other = listOf(entry.id);
				if (other !== list) {
					invalid(
						CODES.managedTransformsInvalid,
						other === undefined
							? `${entry.id} is not a Managed Transform of this zone`
							: `${entry.id} is a Managed Transform of ${other}, not of ${list}`,
						pointer,
					);
				}
				const id = entry.id as ManagedTransformId;
				if (entry.enabled) enabled.add(id);
				else enabled.delete(id);
			}
		}
		for (const [id, others] of Object.entries(CONFLICTS)) {
			const on = others.find((other) => enabled.has(other));
			if (enabled.has(id as ManagedTransformId) && on !== undefined) {
				invalid(
					CODES.managedTransformsInvalid,
					`${id} and ${on} conflict: at most one of them can be enabled`,
					`/${listOf(id)}`,
				);
			}
		}
		this.reset();
		for (const id of enabled) this.#sql.exec("INSERT INTO managed_transforms (id) VALUES (?)", id);
		return answerOf(enabled);
	}

	/** Turns every transform off (the API's DELETE). */
	reset(): void {
		this.#sql.exec("DELETE FROM managed_transforms");
	}
}

/** The list that holds transform `id`, or undefined for an id edgezone does not know. */
function listOf(id: string): TransformList | undefined {
	return LISTS.find((list) => (MANAGED_TRANSFORMS[list] as readonly string[]).includes(id));
}

function answerOf(enabled: ReadonlySet<ManagedTransformId>): ManagedTransforms {
	const entry = (id: ManagedTransformId): ManagedTransform => {
		const conflicts = CONFLICTS[id];
		return {
			id,
			enabled: enabled.has(id),
			has_conflict: conflicts?.some((other) => enabled.has(other)) ?? false,
			...(conflicts === undefined ? {} : { conflicts_with: [...conflicts] }),
		};
	};
	return {
		managed_request_headers: MANAGED_TRANSFORMS.managed_request_headers.map(entry),
		managed_response_headers: MANAGED_TRANSFORMS.managed_response_headers.map(entry),
	};
}
