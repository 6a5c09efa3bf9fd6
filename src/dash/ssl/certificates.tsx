/**
 * The certificate sections of the SSL/TLS page: the zone's certificate packs with their CA
 * (`/ssl/certificate_packs?status=all`), Universal SSL and Total TLS settings, and the custom
 * certificates with the upload form (`/custom_certificates`: the API parses the PEM for real, so
 * hosts, issuer and expiry shown are the certificate's). Rendering only: `pages/ssl.tsx` calls the API.
 */
import type { CustomCertificate } from "cloudflare/resources/custom-certificates/custom-certificates";
import type { CertificatePackListResponse } from "cloudflare/resources/ssl/certificate-packs/certificate-packs";
import type { FC } from "hono/jsx";
import type { TotalTlsSettings, UniversalSettings } from "../../zone/certificates/store";
import { DeleteForm, type FormProps, HeadedForm, SelectField, TextArea, TextField } from "../components/form";
import { BUNDLE_METHODS, caName, shownInstant, statusWords, VALIDATION_METHODS } from "./values";

export type { CustomCertificate };
/** A certificate pack as the API lists it. */
export type CertificatePack = CertificatePackListResponse;

/** The upload form as typed. */
export interface UploadValues {
	certificate: string;
	private_key: string;
	bundle_method: string;
}

/** The upload form's starting values. */
export const EMPTY_UPLOAD: UploadValues = { certificate: "", private_key: "", bundle_method: "ubiquitous" };

/** Where an upload error shows, by the pointer of the API's error. */
export function uploadFieldOf(pointer: string): string | undefined {
	const top = pointer.split("/")[1];
	return top === "certificate" || top === "private_key" || top === "bundle_method" ? top : undefined;
}

/** The order form of an advanced pack as typed. */
export interface OrderValues {
	hosts: string;
	validation_method: string;
	validity_days: string;
	certificate_authority: string;
}

/** The order form's starting values. */
export const EMPTY_ORDER: OrderValues = {
	hosts: "",
	validation_method: "txt",
	validity_days: "90",
	certificate_authority: "lets_encrypt",
};

/** Where an order error shows, by the pointer of the API's error (`/hosts/1` is the hosts field). */
export function orderFieldOf(pointer: string): string | undefined {
	const top = pointer.split("/")[1];
	return top === "hosts" || top === "validation_method" || top === "validity_days" || top === "certificate_authority"
		? top
		: undefined;
}

/** The API's order body from the form: hosts split at commas and spaces, the validity a number. */
export function orderBody(values: OrderValues): Record<string, unknown> {
	const days = Number(values.validity_days);
	return {
		type: "advanced",
		hosts: values.hosts.split(/[\s,]+/).filter((h) => h !== ""),
		validation_method: values.validation_method,
		// Not a number: sent as typed, so the API's own message says what is wrong with it.
		validity_days: Number.isInteger(days) ? days : values.validity_days,
		certificate_authority: values.certificate_authority,
	};
}

const chainLink = (base: string, id: string, date: string) =>
	`${base}?chain=${encodeURIComponent(id)}${date === "" ? "" : `&date=${encodeURIComponent(date)}`}#chain-heading`;

/** The packs table: type, hosts, status, CA, each certificate's signature, issuer and expiry. */
export const PacksTable: FC<{ packs: CertificatePack[]; base: string; date: string; csrf: string }> = ({
	packs,
	base,
	date,
	csrf,
}) =>
	packs.length === 0 ? (
		<p>No certificate packs: Universal SSL is off and no advanced pack was ordered.</p>
	) : (
		<table>
			<thead>
				<tr>
					<th scope="col">Type</th>
					<th scope="col">Hosts</th>
					<th scope="col">Status</th>
					<th scope="col">Certificate authority</th>
					<th scope="col">Certificates</th>
					<th scope="col">Actions</th>
				</tr>
			</thead>
			<tbody>
				{packs.map((p) => (
					<tr>
						<td>{p.type}</td>
						<td>{p.hosts.join(", ")}</td>
						<td>{statusWords(p.status)}</td>
						<td>{caName(p.certificate_authority)}</td>
						<td>
							<ul class="plain">
								{p.certificates.map((cert) => (
									<li>
										{cert.signature ?? "?"} from {cert.issuer ?? "?"}, expires {shownInstant(cert.expires_on)}
									</li>
								))}
							</ul>
						</td>
						<td>
							<div class="row-actions">
								<a href={chainLink(base, p.id, date)} aria-label={`Chain of the ${p.type} pack ${p.hosts.join(", ")}`}>
									Show chain
								</a>
								{p.type === "advanced" && (
									<DeleteForm
										action={`${base}/packs/${p.id}/delete`}
										csrf={csrf}
										confirm={`Delete the advanced pack for ${p.hosts.join(", ")}?`}
										label={`Delete the advanced pack ${p.hosts.join(", ")}`}
									/>
								)}
							</div>
						</td>
					</tr>
				))}
			</tbody>
		</table>
	);

/** The order form of an advanced certificate pack. */
export const OrderForm: FC<FormProps<OrderValues>> = ({ action, csrf, values, errors }) => (
	<HeadedForm
		id="order-heading"
		title="Order an advanced certificate"
		action={action}
		csrf={csrf}
		errors={errors}
		submit="Order certificate"
	>
		<TextField
			form="order"
			name="hosts"
			label="Hosts"
			value={values.hosts}
			errors={errors}
			required
			hint="The zone apex and up to 49 more names of the zone, separated by commas or spaces; *.name for a wildcard."
		/>
		<SelectField
			form="order"
			name="certificate_authority"
			label="Certificate authority"
			options={ORDER_CAS}
			value={values.certificate_authority}
			errors={errors}
		/>
		<SelectField
			form="order"
			name="validity_days"
			label="Validity"
			options={VALIDITIES}
			value={values.validity_days}
			errors={errors}
			hint="Let's Encrypt issues 90 days only; Google Trust Services and SSL.com 14, 30 or 90."
		/>
		<SelectField
			form="order"
			name="validation_method"
			label="Validation method"
			options={VALIDATION_METHODS}
			value={values.validation_method}
			errors={errors}
		/>
	</HeadedForm>
);

const ORDER_CAS: [string, string][] = [
	["lets_encrypt", "Let's Encrypt"],
	["google", "Google Trust Services"],
	["ssl_com", "SSL.com"],
];
const VALIDITIES: [string, string][] = [
	["14", "14 days"],
	["30", "30 days"],
	["90", "90 days"],
];

/** Universal SSL and Total TLS as the API answers them (read here; set them through the API). */
export const EdgeSettings: FC<{ universal?: UniversalSettings; totalTls?: TotalTlsSettings }> = ({
	universal,
	totalTls,
}) => (
	<dl class="facts">
		<dt>Universal SSL</dt>
		<dd>
			{universal === undefined
				? "unknown"
				: universal.enabled
					? `Enabled, certificate authority ${caName(universal.certificate_authority)}`
					: "Disabled"}
		</dd>
		<dt>Total TLS</dt>
		<dd>
			{totalTls === undefined
				? "unknown"
				: totalTls.enabled
					? `Enabled, certificate authority ${caName(totalTls.certificate_authority ?? "")}`
					: "Disabled"}
		</dd>
	</dl>
);

/** The custom certificates table, with chain links and delete. */
export const CustomCertificatesTable: FC<{
	certificates: CustomCertificate[];
	csrf: string;
	base: string;
	date: string;
}> = ({ certificates, csrf, base, date }) =>
	certificates.length === 0 ? (
		<p>No custom certificates uploaded.</p>
	) : (
		<table>
			<thead>
				<tr>
					<th scope="col">Hosts</th>
					<th scope="col">Issuer</th>
					<th scope="col">Signature</th>
					<th scope="col">Bundle method</th>
					<th scope="col">Status</th>
					<th scope="col">Uploaded</th>
					<th scope="col">Expires</th>
					<th scope="col">Actions</th>
				</tr>
			</thead>
			<tbody>
				{certificates.map((cert) => {
					const name = (cert.hosts ?? []).join(", ");
					return (
						<tr>
							<td>{name}</td>
							<td>{cert.issuer}</td>
							<td>{cert.signature}</td>
							<td>{BUNDLE_METHODS.find(([v]) => v === cert.bundle_method)?.[1] ?? cert.bundle_method ?? "—"}</td>
							<td>{statusWords(cert.status)}</td>
							<td>{shownInstant(cert.uploaded_on)}</td>
							<td>{shownInstant(cert.expires_on)}</td>
							<td>
								<div class="row-actions">
									<a href={chainLink(base, cert.id, date)} aria-label={`Chain of the custom certificate ${name}`}>
										Show chain
									</a>
									<DeleteForm
										action={`${base}/custom-certificates/${cert.id}/delete`}
										csrf={csrf}
										confirm={`Delete the custom certificate for ${name}?`}
										label={`Delete the custom certificate ${name}`}
									/>
								</div>
							</td>
						</tr>
					);
				})}
			</tbody>
		</table>
	);

/** The upload form: certificate (with its bundle), private key, bundle method. */
export const UploadForm: FC<FormProps<UploadValues>> = ({ action, csrf, values, errors }) => (
	<HeadedForm
		id="upload-heading"
		title="Upload a custom certificate"
		action={action}
		csrf={csrf}
		errors={errors}
		submit="Upload certificate"
	>
		<TextArea
			form="upload"
			name="certificate"
			label="Certificate (PEM)"
			value={values.certificate}
			errors={errors}
			required
			rows={6}
			hint="The leaf first, then its intermediates; -----BEGIN CERTIFICATE----- blocks. No root."
		/>
		<TextArea
			form="upload"
			name="private_key"
			label="Private key (PEM)"
			value={values.private_key}
			errors={errors}
			required
			rows={4}
			hint="The certificate's key (PKCS#8, PKCS#1 or SEC 1). It is checked against the certificate, then dropped."
		/>
		<SelectField
			form="upload"
			name="bundle_method"
			label="Bundle method"
			options={BUNDLE_METHODS}
			value={values.bundle_method}
			errors={errors}
			hint="Compatible and modern: Cloudflare bundles the chain; user-defined: served as uploaded."
		/>
	</HeadedForm>
);
