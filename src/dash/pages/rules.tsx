/**
 * The Rules pages of a zone (Rules > Overview, as Cloudflare's dashboard groups its rules
 * products: https://developers.cloudflare.com/rules/): Redirect Rules, URL Rewrite Rules,
 * Request and Response Header Transform Rules and Origin Rules, each a section listing its
 * rules in order with Create, Edit and Delete, beside the security rules (Security).
 *
 * Every read and write is the API v4's (`api-call.ts`): each phase's entrypoint (GET; PUT with
 * the first rule when there is none yet), then `/rulesets/{id}/rules` to add one rule, `PATCH`
 * and `DELETE /rulesets/{id}/rules/{rule_id}` to edit and delete one. A refusal shows the API's
 * message next to the field its `source.pointer` names. The kinds and their forms live in
 * `rules/`.
 */
import { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { callApi, messagesOf, statusOf, zonePath } from "../api-call";
import { ErrorSummary, type FormErrors, NO_ERRORS, Notice, sortErrors } from "../components/form";
import { Layout } from "../layout";
import type { EntrypointRule } from "../log-field-rules";
import { render } from "../render";
import { RuleForm, RulesTable } from "../rules/forms";
import { RULE_KINDS, type RuleKind, type RuleValues, ruleBodyOf, ruleFieldOf, valuesOfRule } from "../rules/kinds";
import type { Ctx, DashEnv } from "../types";

/** What a redirect after a successful POST says (`?done=`): fixed texts, nothing from the URL is shown. */
const DONE: Record<string, string> = {
	created: "Rule created.",
	saved: "Rule saved.",
	deleted: "Rule deleted.",
};

interface Entrypoint {
	id: string;
	rules: EntrypointRule[];
}

const pagePath = (c: Ctx, rest = "") => `/zones/${c.var.zone.id}/rules${rest}`;

/** The kind of the path's `:kind`, or undefined. */
function kindOf(c: Ctx): [string, RuleKind] | undefined {
	const key = c.req.param("kind") ?? "";
	const kind = Object.hasOwn(RULE_KINDS, key) ? RULE_KINDS[key] : undefined;
	return kind === undefined ? undefined : [key, kind];
}

/** The phase's entrypoint: its rules, null when it has none yet (404), or the API's refusal. */
async function entrypointOf(c: Ctx, kind: RuleKind) {
	const answer = await callApi<Entrypoint>(
		c,
		c.var.session.credential,
		"GET",
		zonePath(c, `/rulesets/phases/${kind.phase}/entrypoint`),
	);
	if (!answer.ok && answer.status === 404) return { ok: true as const, entrypoint: null };
	return answer.ok ? { ok: true as const, entrypoint: answer.result } : answer;
}

/** The overview: every kind's section with its rules. */
async function overview(c: Ctx, notice?: string, rowErrors: string[] = [], status: ContentfulStatusCode = 200) {
	const sections = await Promise.all(
		Object.entries(RULE_KINDS).map(async ([key, kind]) => ({ key, kind, read: await entrypointOf(c, kind) })),
	);
	return render(
		c,
		<Layout title="Rules" csrf={c.var.csrf} zone={{ ...c.var.zone, page: "rules" }}>
			<p class="crumbs">Rules › Overview</p>
			<h1>Rules</h1>
			<Notice text={notice} />
			<ErrorSummary messages={rowErrors} />
			{sections.map(({ key, kind, read }) => (
				<section class="card" aria-labelledby={`${key}-heading`}>
					<h2 id={`${key}-heading`}>{kind.title}</h2>
					{read.ok ? (
						<RulesTable
							kind={kind}
							rules={read.entrypoint?.rules ?? []}
							base={pagePath(c, `/${key}`)}
							csrf={c.var.csrf}
						/>
					) : (
						<ErrorSummary messages={messagesOf(read.errors)} />
					)}
					<p>
						<a href={pagePath(c, `/${key}/new`)}>Create {kind.noun}</a>
					</p>
				</section>
			))}
		</Layout>,
		status,
	);
}

/** A rule's create or edit page. */
function formPage(
	c: Ctx,
	[key, kind]: [string, RuleKind],
	title: string,
	action: string,
	values: RuleValues,
	errors: FormErrors = NO_ERRORS,
	status: ContentfulStatusCode = 200,
) {
	return render(
		c,
		<Layout title={title} csrf={c.var.csrf} zone={{ ...c.var.zone, page: "rules" }}>
			<p class="crumbs">
				Rules › <a href={pagePath(c)}>Overview</a> › {kind.title}
			</p>
			<h1>{title}</h1>
			<RuleForm
				kindKey={key}
				kind={kind}
				title={kind.title}
				action={action}
				csrf={c.var.csrf}
				values={values}
				errors={errors}
			/>
		</Layout>,
		status,
	);
}

/** A form's values as posted: every field's first string ("" for an unchecked checkbox). */
async function postedValues(c: Ctx): Promise<RuleValues> {
	const body = await c.req.parseBody({ all: true });
	const values: RuleValues = { enabled: "", preserve_query: "" };
	for (const [name, value] of Object.entries(body)) {
		const first = Array.isArray(value) ? value[0] : value;
		if (name !== "csrf" && typeof first === "string") values[name] = first;
	}
	return values;
}

const notFoundPage = (c: Ctx) =>
	render(
		c,
		<Layout title="Page not found" csrf={c.var.csrf} zone={{ ...c.var.zone, page: "rules" }}>
			<h1>Page not found</h1>
			<ErrorSummary messages={["There is no such kind of rule."]} />
		</Layout>,
		404,
	);

/** Routes under `/zones/{zone_id}/rules`. */
export const rules = new Hono<DashEnv>()
	.get("/", (c) => overview(c, DONE[c.req.query("done") ?? ""]))
	.get("/:kind/new", (c) => {
		const found = kindOf(c);
		if (found === undefined) return notFoundPage(c);
		const values = valuesOfRule(found[1], { action: found[1].action, expression: "", enabled: true });
		return formPage(c, found, `Create ${found[1].noun}`, pagePath(c, `/${found[0]}/new`), values);
	})
	.post("/:kind/new", async (c) => {
		const found = kindOf(c);
		if (found === undefined) return notFoundPage(c);
		const [key, kind] = found;
		const values = await postedValues(c);
		const rule = ruleBodyOf(kind, values);
		const read = await entrypointOf(c, kind);
		if (!read.ok) return overview(c, undefined, messagesOf(read.errors), statusOf(read));
		const answer =
			read.entrypoint === null
				? await callApi(c, c.var.session.credential, "PUT", zonePath(c, `/rulesets/phases/${kind.phase}/entrypoint`), {
						rules: [rule],
					})
				: await callApi(
						c,
						c.var.session.credential,
						"POST",
						zonePath(c, `/rulesets/${read.entrypoint.id}/rules`),
						rule,
					);
		if (!answer.ok) {
			const errors = sortErrors(answer.errors, (pointer) => ruleFieldOf(kind, pointer, values));
			return formPage(c, found, `Create ${kind.noun}`, pagePath(c, `/${key}/new`), values, errors, statusOf(answer));
		}
		return c.redirect(pagePath(c, "?done=created"), 303);
	})
	.get("/:kind/:rule_id", async (c) => {
		const found = kindOf(c);
		if (found === undefined) return notFoundPage(c);
		const read = await entrypointOf(c, found[1]);
		const rule = read.ok ? read.entrypoint?.rules.find((r) => r.id === c.req.param("rule_id")) : undefined;
		if (rule === undefined) return overview(c, undefined, ["There is no such rule."], 404);
		const action = pagePath(c, `/${found[0]}/${rule.id}`);
		return formPage(c, found, `Edit ${found[1].noun}`, action, valuesOfRule(found[1], rule));
	})
	.post("/:kind/:rule_id", async (c) => {
		const found = kindOf(c);
		if (found === undefined) return notFoundPage(c);
		const [key, kind] = found;
		const values = await postedValues(c);
		const read = await entrypointOf(c, kind);
		const id = c.req.param("rule_id");
		if (!read.ok || read.entrypoint === null) return overview(c, undefined, ["There is no such rule."], 404);
		const answer = await callApi(
			c,
			c.var.session.credential,
			"PATCH",
			zonePath(c, `/rulesets/${read.entrypoint.id}/rules/${encodeURIComponent(id)}`),
			ruleBodyOf(kind, values),
		);
		if (!answer.ok) {
			const errors = sortErrors(answer.errors, (pointer) => ruleFieldOf(kind, pointer, values));
			return formPage(c, found, `Edit ${kind.noun}`, pagePath(c, `/${key}/${id}`), values, errors, statusOf(answer));
		}
		return c.redirect(pagePath(c, "?done=saved"), 303);
	})
	.post("/:kind/:rule_id/delete", async (c) => {
		const found = kindOf(c);
		if (found === undefined) return notFoundPage(c);
		const read = await entrypointOf(c, found[1]);
		if (!read.ok || read.entrypoint === null) return overview(c, undefined, ["There is no such rule."], 404);
		const answer = await callApi(
			c,
			c.var.session.credential,
			"DELETE",
			zonePath(c, `/rulesets/${read.entrypoint.id}/rules/${encodeURIComponent(c.req.param("rule_id"))}`),
		);
		if (!answer.ok) return overview(c, undefined, messagesOf(answer.errors), statusOf(answer));
		return c.redirect(pagePath(c, "?done=deleted"), 303);
	});
