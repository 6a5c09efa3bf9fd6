import type { ScheduledCertificate } from "../../src/certificates/index.ts";

/** Midnight UTC of an ISO day. */
export const day = (iso: string) => new Date(`${iso}T00:00:00Z`);

/** A managed Let's Encrypt certificate first issued on 2024-04-15 for 90 days: renewals fall on 06-14, 08-13, 10-12. */
export const managed = (
	fields: Partial<ScheduledCertificate> & Pick<ScheduledCertificate, "type">,
): ScheduledCertificate => ({
	id: "c2d4",
	certificate_authority: "lets_encrypt",
	issued_on: day("2024-04-15"),
	expires_on: day("2024-07-14"),
	...fields,
});
