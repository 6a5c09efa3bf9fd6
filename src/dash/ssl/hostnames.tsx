/**
 * The custom hostnames section of the SSL/TLS page (Cloudflare for SaaS: https://developers.cloudflare.com/cloudflare-for-platforms/cloudflare-for-saas/security/certificate-management/issue-and-validate/issue-certificates/): each
 * hostname's status and ownership token, its certificate (status, CA, issuer, expiry, validation
 * records and errors), the CA selector that PATCHes `ssl.certificate_authority`, delete, and the
 * create form. Rendering only: the routes in `pages/ssl.tsx` call the API.
 */
import type { CustomHostnameGetResponse } from "cloudflare/resources/custom-hostnames/custom-hostnames";
import type { FC } from "hono/jsx";
import {
	DeleteForm,
	ErrorSummary,
	type FormErrors,
	type FormProps,
	HeadedForm,
	NO_ERRORS,
	PostForm,
	SelectField,
	TextField,
} from "../components/form";
import {
	caName,
	DEFAULT_CA_EXPLAINED,
	HOSTNAME_CA_OPTIONS,
	shownInstant,
	statusWords,
	VALIDATION_METHODS,
} from "./values";

/** A custom hostname as the API answers it. */
export type CustomHostname = CustomHostnameGetResponse;

/** The create form as typed. */
export interface HostnameValues {
	hostname: string;
	method: string;
	certificate_authority: string;
}

/** The create form's starting values: TXT validation, the default CA. */
export const EMPTY_HOSTNAME: HostnameValues = { hostname: "", method: "txt", certificate_authority: "" };

/** Where a create (or CA change) error shows, by the pointer of the API's error. */
export function hostnameFieldOf(pointer: string): string | undefined {
	if (pointer === "/hostname") return "hostname";
	if (pointer === "/ssl/method") return "method";
	if (pointer === "/ssl/certificate_authority") return "certificate_authority";
	return undefined;
}

const ValidationRecords: FC<{ ssl: NonNullable<CustomHostname["ssl"]>; hostname: string }> = ({ ssl, hostname }) => {
	const records = ssl.validation_records ?? [];
	if (records.length === 0) return <p>No validation records: nothing left to validate.</p>;
	return (
		<table>
			<caption>Validation records of {hostname}</caption>
			<thead>
				<tr>
					<th scope="col">Record</th>
					<th scope="col">Value</th>
					<th scope="col">Status</th>
				</tr>
			</thead>
			<tbody>
				{records.map((r) => (
					<tr>
						<td>
							{r.txt_name !== undefined ? (
								<>
									TXT <code>{r.txt_name}</code>
								</>
							) : r.http_url !== undefined ? (
								<>
									HTTP <code>{r.http_url}</code>
								</>
							) : (
								(r.emails ?? []).join(", ")
							)}
						</td>
						<td>
							<code>{r.txt_value ?? r.http_body ?? ""}</code>
						</td>
						<td>{statusWords(r.status)}</td>
					</tr>
				))}
			</tbody>
		</table>
	);
};

/** One custom hostname: its state, its certificate, the CA selector and delete. */
export const HostnameCard: FC<{ host: CustomHostname; csrf: string; base: string; errors?: FormErrors }> = ({
	host,
	csrf,
	base,
	errors,
}) => {
	const ssl = host.ssl;
	const headingId = `hostname-${host.id}`;
	return (
		<section class="card" aria-labelledby={headingId}>
			<h3 id={headingId}>{host.hostname}</h3>
			<dl class="facts">
				<dt>Hostname status</dt>
				<dd>{statusWords(host.status)}</dd>
				{host.ownership_verification?.name !== undefined && (
					<>
						<dt>Ownership TXT record</dt>
						<dd>
							<code>{host.ownership_verification.name}</code> = <code>{host.ownership_verification.value}</code>
						</dd>
					</>
				)}
				<dt>Certificate status</dt>
				<dd>{statusWords(ssl?.status)}</dd>
				<dt>Certificate authority</dt>
				<dd>{caName(ssl?.certificate_authority)}</dd>
				<dt>Validation method</dt>
				<dd>{ssl?.method ?? "—"}</dd>
				<dt>Certificate id</dt>
				<dd>
					<code>{ssl?.id ?? "—"}</code>
				</dd>
				<dt>Issuer</dt>
				<dd>{ssl?.issuer ?? "not issued yet"}</dd>
				<dt>Expires</dt>
				<dd>{shownInstant(ssl?.expires_on)}</dd>
			</dl>
			{(host.verification_errors ?? []).length > 0 && (
				<p class="hint">Ownership: {(host.verification_errors ?? []).join(" ")}</p>
			)}
			{(ssl?.validation_errors ?? []).length > 0 && (
				<ul class="error" aria-label={`Validation errors of ${host.hostname}`}>
					{(ssl?.validation_errors ?? []).map((e) => (
						<li>{e.message}</li>
					))}
				</ul>
			)}
			{ssl !== undefined && <ValidationRecords ssl={ssl} hostname={host.hostname} />}
			<div class="row-actions ssl-row">
				<PostForm
					action={`${base}/hostnames/${host.id}/ca`}
					csrf={csrf}
					label={`Certificate authority of ${host.hostname}`}
				>
					<input type="hidden" name="method" value={ssl?.method ?? "txt"} />
					<ErrorSummary messages={errors?.form ?? []} />
					<SelectField
						form={`ca-${host.id}`}
						name="certificate_authority"
						label="Certificate authority"
						options={HOSTNAME_CA_OPTIONS}
						value={ssl?.certificate_authority ?? ""}
						errors={errors ?? NO_ERRORS}
						hint={DEFAULT_CA_EXPLAINED}
					/>
					<div class="actions">
						<button type="submit" class="secondary" aria-label={`Change the CA of ${host.hostname}`}>
							Change CA
						</button>
					</div>
				</PostForm>
				<DeleteForm
					action={`${base}/hostnames/${host.id}/delete`}
					csrf={csrf}
					confirm={`Delete the custom hostname ${host.hostname}?`}
					label={`Delete ${host.hostname}`}
				/>
			</div>
		</section>
	);
};

/** The create form: hostname, validation method, CA. */
export const CreateHostnameForm: FC<FormProps<HostnameValues>> = ({ action, csrf, values, errors }) => (
	<HeadedForm
		id="create-hostname-heading"
		title="Add a custom hostname"
		action={action}
		csrf={csrf}
		errors={errors}
		submit="Add custom hostname"
	>
		<TextField
			form="hostname"
			name="hostname"
			label="Hostname"
			value={values.hostname}
			errors={errors}
			required
			hint="A hostname of your customer, e.g. shop.customer.test, or *.customer.test for a wildcard."
		/>
		<SelectField
			form="hostname"
			name="method"
			label="Validation method"
			options={VALIDATION_METHODS}
			value={values.method}
			errors={errors}
		/>
		<SelectField
			form="hostname"
			name="certificate_authority"
			label="Certificate authority"
			options={HOSTNAME_CA_OPTIONS}
			value={values.certificate_authority}
			errors={errors}
			hint={DEFAULT_CA_EXPLAINED}
		/>
	</HeadedForm>
);
