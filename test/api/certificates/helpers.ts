/**
 * Helpers of the certificate API tests: zones whose names the test certificates cover, and the
 * clock. The tests' describe blocks allow 20 s: a replay sends dozens of requests, and the machine
 * running the suite may be shared.
 */
import { call } from "../http";

/** A fresh zone `<random>.certs.example`: the fixtures' `*.certs.example` SAN covers its apex. */
export async function certsZone(): Promise<{ id: string; name: string }> {
	const name = `z${crypto.randomUUID().slice(0, 8)}.certs.example`;
	const res = await call("POST", "/zones", { name, account: {} });
	if (res.status !== 200) throw new Error(`zone create failed: ${JSON.stringify(res.body)}`);
	return { id: (res.body.result as { id: string }).id, name };
}

/** Freezes the zone's clock at `now` (RFC 3339). */
export async function setClock(zone: string, now: string): Promise<void> {
	const res = await call("PUT", `/zones/${zone}/emulator/clock`, { now, frozen: true });
	if (res.status !== 200) throw new Error(`clock failed: ${JSON.stringify(res.body)}`);
}

/** A certificate pack as the tests read it. */
export interface Pack {
	id: string;
	type: string;
	hosts: string[];
	status: string;
	certificate_authority?: string;
	validation_method?: string;
	validity_days?: number;
	cloudflare_branding?: boolean;
	primary_certificate?: string;
	validation_records?: Record<string, unknown>[];
	certificates: {
		id: string;
		hosts: string[];
		status: string;
		issuer?: string;
		signature?: string;
		bundle_method?: string;
		uploaded_on?: string;
		expires_on?: string;
		zone_id?: string;
	}[];
}

/** Every pack of a zone (`status=all`). */
export async function allPacks(zone: string): Promise<Pack[]> {
	const res = await call("GET", `/zones/${zone}/ssl/certificate_packs?status=all&per_page=100`);
	if (res.status !== 200) throw new Error(JSON.stringify(res.body));
	return res.body.result as Pack[];
}

/** An advanced pack order for `zoneName` with `overrides`. */
export function order(zoneName: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
	return {
		type: "advanced",
		hosts: [zoneName, `*.${zoneName}`],
		validation_method: "txt",
		validity_days: 90,
		certificate_authority: "google",
		...overrides,
	};
}
