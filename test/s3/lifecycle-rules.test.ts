/**
 * Lifecycle rules as S3 sends them (src/edge/s3/lifecycle/rules.ts): what a document may hold,
 * what is refused and with which S3 error, the document answered back, and when a rule is due.
 */
import { describe, expect, it } from "vitest";
import { S3Error } from "../../src/edge/s3/errors";
import {
	abortOf,
	DEFAULT_RULES,
	dueAfterDays,
	expirationHeader,
	expiryOf,
	type LifecycleRule,
	lifecycleDocument,
	parseLifecycle,
} from "../../src/edge/s3/lifecycle/rules";

const DAY = 86_400_000;
const doc = (rules: string) => `<LifecycleConfiguration>${rules}</LifecycleConfiguration>`;
const rule = (body: string) => `<Rule>${body}</Rule>`;

/** The S3 code and message `parseLifecycle` refuses `text` with. */
function refusal(text: string): { code: string; status: number; message: string } {
	try {
		parseLifecycle(text);
	} catch (error) {
		if (error instanceof S3Error) return { code: error.code, status: error.status, message: error.message };
		throw error;
	}
	throw new Error("the document was taken");
}

describe("parseLifecycle", () => {
	it("takes R2's rules: a prefix in a Filter or in the rule, an expiration by days or date, an abort", () => {
		const rules = parseLifecycle(
			doc(
				rule(
					"<ID>logs</ID><Filter><Prefix>logs/</Prefix></Filter><Status>Enabled</Status><Expiration><Days>90</Days></Expiration>",
				) +
					rule(
						"<ID>2019</ID><Prefix>2019/</Prefix><Status>Disabled</Status><Expiration><Date>2024-01-01T00:00:00.000Z</Date></Expiration>",
					) +
					rule(
						"<ID>uploads</ID><Filter></Filter><Status>Enabled</Status><AbortIncompleteMultipartUpload><DaysAfterInitiation>1</DaysAfterInitiation></AbortIncompleteMultipartUpload>",
					) +
					rule(
						"<ID>and</ID><Filter><And><Prefix>a/</Prefix></And></Filter><Status>Enabled</Status><Expiration><Days>2</Days></Expiration>",
					),
			),
		);
		expect(rules).toEqual([
			{ id: "logs", enabled: true, prefix: "logs/", expiration: { days: 90 } },
			{
				id: "2019",
				enabled: false,
				prefix: "2019/",
				prefixInRule: true,
				expiration: { date: "2024-01-01T00:00:00.000Z" },
			},
			{ id: "uploads", enabled: true, prefix: "", abortAfterDays: 1 },
			{ id: "and", enabled: true, prefix: "a/", expiration: { days: 2 } },
		]);
	});

	it("gives a rule without an ID a random one, as S3 does", () => {
		const [first] = parseLifecycle(doc(rule("<Status>Enabled</Status><Expiration><Days>1</Days></Expiration>")));
		expect(first?.id).toMatch(/^[0-9a-f]{32}$/);
	});

	it("refuses what R2's rules do not hold with 501 NotImplemented", () => {
		const cases = [
			"<Status>Enabled</Status><Transition><Days>30</Days><StorageClass>STANDARD_IA</StorageClass></Transition>",
			"<Status>Enabled</Status><Filter><Tag><Key>k</Key><Value>v</Value></Tag></Filter><Expiration><Days>1</Days></Expiration>",
			"<Status>Enabled</Status><Filter><ObjectSizeGreaterThan>10</ObjectSizeGreaterThan></Filter><Expiration><Days>1</Days></Expiration>",
			"<Status>Enabled</Status><Filter><And><Prefix>a/</Prefix><Tag><Key>k</Key><Value>v</Value></Tag></And></Filter><Expiration><Days>1</Days></Expiration>",
			"<Status>Enabled</Status><NoncurrentVersionExpiration><NoncurrentDays>1</NoncurrentDays></NoncurrentVersionExpiration>",
			"<Status>Enabled</Status><Expiration><ExpiredObjectDeleteMarker>true</ExpiredObjectDeleteMarker></Expiration>",
		];
		for (const body of cases) expect(refusal(doc(rule(body)))).toMatchObject({ code: "NotImplemented", status: 501 });
	});

	it("refuses bad values with S3's codes and messages", () => {
		expect(refusal(doc(rule("<Status>Enabled</Status><Expiration><Days>0</Days></Expiration>")))).toEqual({
			code: "InvalidArgument",
			status: 400,
			message: "'Days' for Expiration action must be a positive integer",
		});
		expect(
			refusal(doc(rule("<Status>Enabled</Status><Expiration><Date>2024-01-01T10:00:00Z</Date></Expiration>"))),
		).toMatchObject({ code: "InvalidArgument", message: "'Date' must be at midnight GMT" });
		expect(refusal(doc(rule("<Status>Enabled</Status><Expiration><Date>soon</Date></Expiration>")))).toMatchObject({
			code: "InvalidArgument",
		});
		expect(
			refusal(
				doc(
					rule(
						"<Status>Enabled</Status><AbortIncompleteMultipartUpload><DaysAfterInitiation>-1</DaysAfterInitiation></AbortIncompleteMultipartUpload>",
					),
				),
			),
		).toMatchObject({ code: "InvalidArgument", message: expect.stringContaining("DaysAfterInitiation") });
		const twice = rule("<ID>same</ID><Status>Enabled</Status><Expiration><Days>1</Days></Expiration>");
		expect(refusal(doc(twice + twice))).toMatchObject({
			code: "InvalidArgument",
			message: expect.stringContaining("unique"),
		});
		expect(
			refusal(doc(rule(`<ID>${"i".repeat(256)}</ID><Status>Enabled</Status><Expiration><Days>1</Days></Expiration>`))),
		).toMatchObject({
			code: "InvalidArgument",
		});
		expect(refusal(doc(rule("<ID>idle</ID><Status>Enabled</Status>")))).toMatchObject({
			code: "InvalidRequest",
			status: 400,
			message: "At least one action needs to be specified in a rule",
		});
	});

	it("refuses a document that is not S3's with 400 MalformedXML", () => {
		const many = rule("<Status>Enabled</Status><Expiration><Days>1</Days></Expiration>").repeat(1001);
		for (const text of [
			"<LifecycleConfiguration><Rule>",
			doc(""),
			"<Other/>",
			doc(rule("<Status>On</Status><Expiration><Days>1</Days></Expiration>")),
			doc(rule("<Status>Enabled</Status><Expiration><Days>1</Days><Date>2024-01-01T00:00:00Z</Date></Expiration>")),
			doc(
				rule(
					"<Status>Enabled</Status><Filter><Prefix>a</Prefix></Filter><Filter/><Expiration><Days>1</Days></Expiration>",
				),
			),
			doc(
				rule("<Status>Enabled</Status><Expiration><Days>1</Days></Expiration><Expiration><Days>2</Days></Expiration>"),
			),
			doc(
				rule(
					"<Status>Enabled</Status><Prefix>a</Prefix><Filter><Prefix>b</Prefix></Filter><Expiration><Days>1</Days></Expiration>",
				),
			),
		]) {
			expect(refusal(text).code).toBe("MalformedXML");
		}
		expect(refusal(doc(many))).toMatchObject({ code: "InvalidArgument", message: expect.stringContaining("1000") });
	});
});

describe("lifecycleDocument", () => {
	it("answers each rule with its ID, prefix filter, status and actions, and R2's default rule", () => {
		const rules: LifecycleRule[] = [
			{ id: "d", enabled: false, prefix: "x/", expiration: { date: "2030-01-01T00:00:00.000Z" } },
			{ id: "old", enabled: true, prefix: "y/", prefixInRule: true, expiration: { days: 3 } },
		];
		expect(lifecycleDocument(rules).Rule).toEqual([
			{ ID: "d", Filter: { Prefix: "x/" }, Status: "Disabled", Expiration: { Date: "2030-01-01T00:00:00Z" } },
			{ ID: "old", Prefix: "y/", Status: "Enabled", Expiration: { Days: 3 } },
		]);
		expect(lifecycleDocument(DEFAULT_RULES).Rule).toEqual([
			{
				ID: "Default Multipart Abort Rule",
				Filter: { Prefix: "" },
				Status: "Enabled",
				AbortIncompleteMultipartUpload: { DaysAfterInitiation: 7 },
			},
		]);
	});
});

describe("when a rule is due", () => {
	it("adds the days and rounds up to the next midnight UTC, as S3 does", () => {
		const uploaded = Date.parse("2014-01-15T10:30:00Z");
		expect(new Date(dueAfterDays(uploaded, 3)).toISOString()).toBe("2014-01-19T00:00:00.000Z");
	});

	it("applies a rule only to an enabled rule's prefix, and a date to every object under it", () => {
		const byDays: LifecycleRule = { id: "a", enabled: true, prefix: "logs/", expiration: { days: 1 } };
		expect(expiryOf(byDays, "logs/1", 0)).toBe(2 * DAY);
		expect(expiryOf(byDays, "other/1", 0)).toBeUndefined();
		expect(expiryOf({ ...byDays, enabled: false }, "logs/1", 0)).toBeUndefined();
		const byDate: LifecycleRule = {
			id: "b",
			enabled: true,
			prefix: "",
			expiration: { date: "2030-01-01T00:00:00.000Z" },
		};
		expect(expiryOf(byDate, "any", Date.now())).toBe(Date.parse("2030-01-01T00:00:00Z"));
		expect(abortOf(byDays, "logs/1", 0)).toBeUndefined();
		expect(abortOf(DEFAULT_RULES[0] as LifecycleRule, "any", 0)).toBe(8 * DAY);
	});
});

describe("expirationHeader", () => {
	it("names the earliest rule's date and ID, and is left out for an ID no header can carry", () => {
		const rules: LifecycleRule[] = [
			{ id: "later", enabled: true, prefix: "", expiration: { days: 30 } },
			{ id: "sooner", enabled: true, prefix: "logs/", expiration: { days: 1 } },
		];
		expect(expirationHeader(rules, "logs/x", 0)).toBe('expiry-date="Sat, 03 Jan 1970 00:00:00 GMT", rule-id="sooner"');
		expect(expirationHeader(rules, "other", 0)).toBe('expiry-date="Sun, 01 Feb 1970 00:00:00 GMT", rule-id="later"');
		expect(expirationHeader([{ ...(rules[0] as LifecycleRule), id: "régle" }], "x", 0)).toBeUndefined();
		expect(expirationHeader([{ ...(rules[0] as LifecycleRule), id: "line\nbreak" }], "x", 0)).toBeUndefined();
		expect(expirationHeader([{ ...(rules[0] as LifecycleRule), id: "back\\slash" }], "x", 0)).toContain(
			'rule-id="back\\\\slash"',
		);
		expect(expirationHeader(DEFAULT_RULES, "x", 0)).toBeUndefined();
	});
});
