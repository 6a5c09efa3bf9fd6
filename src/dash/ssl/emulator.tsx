/**
 * The emulator-only sections of the SSL/TLS page, each marked "edgezone emulator, not Cloudflare":
 * the zone's clock (`/emulator/clock`: what the certificates' states are read on), the chain a
 * certificate is served with on a chosen date and which clients validate it
 * (`/emulator/chains/{id}?at=`), and the e-mails Cloudflare would have sent (`/emulator/outbox`).
 * Rendering only: `pages/ssl.tsx` calls the API.
 */
import type { FC } from "hono/jsx";
import type { CertificateChain, ChainAnswer } from "../../zone/certificates/store";
import type { ClockReading } from "../../zone/clock";
import type { Notice } from "../../zone/outbox";
import { Checkbox, Csrf, ErrorSummary, type FormErrors, NO_ERRORS, SelectField, TextField } from "../components/form";
import { caName, minuteOf, shownInstant, verdictWords } from "./values";

/** The mark of every section that is edgezone's, not Cloudflare's dashboard. */
const EmulatorMark: FC = () => <p class="emulator-mark">edgezone emulator, not Cloudflare</p>;

/** The clock, and the form that sets it (or puts it back on real time). */
export const ClockPanel: FC<{ clock?: ClockReading; action: string; csrf: string; errors: FormErrors }> = ({
	clock,
	action,
	csrf,
	errors,
}) => (
	<section class="card emulator" aria-labelledby="clock-heading">
		<h2 id="clock-heading">Emulator clock</h2>
		<EmulatorMark />
		<p>
			Certificate states, expiry, the 2024 chain changes and the notices are read on this zone's clock.{" "}
			{clock === undefined ? (
				"The clock could not be read."
			) : (
				<>
					Now: <strong>{shownInstant(clock.now)}</strong>
					{clock.real ? " (real time)" : clock.frozen ? " (set, standing still)" : " (set, running)"}.
				</>
			)}
		</p>
		<ErrorSummary messages={errors.form} />
		<form method="post" action={action} aria-labelledby="clock-heading" class="inline-form">
			<Csrf token={csrf} />
			<TextField
				form="clock"
				name="now"
				type="datetime-local"
				label="Clock time (UTC)"
				value={minuteOf(clock?.now)}
				errors={errors}
			/>
			<Checkbox form="clock" name="frozen" label="Stand still at that time" checked={clock?.frozen ?? false} />
			<div class="actions">
				<button type="submit" name="mode" value="set" class="secondary">
					Set clock
				</button>
				<button type="submit" name="mode" value="real" class="secondary">
					Back to real time
				</button>
			</div>
		</form>
	</section>
);

/** A certificate the chain view can show: its id and how it is named in the selector. */
export type ChainChoice = [id: string, label: string];

const ClientsTable: FC<{ certificate: CertificateChain; title: string }> = ({ certificate, title }) => (
	<table>
		<caption>Clients validating the {title}</caption>
		<thead>
			<tr>
				<th scope="col">Client</th>
				<th scope="col">Verdict</th>
				<th scope="col">Why</th>
			</tr>
		</thead>
		<tbody>
			{certificate.clients.map((client) => (
				<tr>
					<th scope="row">{client.name}</th>
					<td class={client.validates === false ? "fails" : undefined}>{verdictWords(client.validates)}</td>
					<td>{client.reason}</td>
				</tr>
			))}
		</tbody>
	</table>
);

const ChainResult: FC<{ answer: ChainAnswer }> = ({ answer }) => (
	<div aria-live="polite">
		<p>
			{answer.kind.replaceAll("_", " ")} <code>{answer.certificate_id}</code> ({answer.type}) on{" "}
			<strong>{shownInstant(answer.at)}</strong>.{answer.note !== undefined && ` ${answer.note}`}
		</p>
		{answer.certificates.length === 0 && <p>No certificate is in force then.</p>}
		{answer.certificates.map((certificate) => {
			const title = `${certificate.key_type.toUpperCase()} certificate`;
			return (
				<>
					<h3>{title}</h3>
					<dl class="facts">
						<dt>Certificate authority</dt>
						<dd>{caName(certificate.certificate_authority)}</dd>
						<dt>Leaf issued by</dt>
						<dd>{certificate.leaf_issuer}</dd>
						<dt>Valid</dt>
						<dd>
							{shownInstant(certificate.issued_on)} to {shownInstant(certificate.expires_on)}
						</dd>
						<dt>Served chain</dt>
						<dd>
							<code>{certificate.chain.description}</code>
							{certificate.chain.cross_signed ? " (cross-signed by DST Root CA X3)" : ""}
						</dd>
						<dt>Why this chain</dt>
						<dd>{certificate.chain.rule}</dd>
					</dl>
					{certificate.chain.notes.length > 0 && (
						<ul class="hint">
							{certificate.chain.notes.map((note) => (
								<li>{note}</li>
							))}
						</ul>
					)}
					<ClientsTable certificate={certificate} title={title} />
				</>
			);
		})}
	</div>
);

/** The chain view: a GET form (certificate, date) and, when asked, the answer or the API's refusal. */
export const ChainPanel: FC<{
	action: string;
	choices: ChainChoice[];
	chosen: string;
	date: string;
	answer?: ChainAnswer;
	errors?: FormErrors;
}> = ({ action, choices, chosen, date, answer, errors }) => (
	<section class="card emulator" aria-labelledby="chain-heading">
		<h2 id="chain-heading">Served chain on a date</h2>
		<EmulatorMark />
		<p>
			Which chain Cloudflare serves after a certificate's leaf on a day (00:00 UTC), following the 2024 schedule: the
			cross-signed ISRG Root X1 chain ends for managed certificates on 2024-09-09, and the cross-sign expires on
			2024-09-30. Then which clients validate it.
		</p>
		{choices.length === 0 ? (
			<p>No certificate to show: add a custom hostname, order a pack or upload a certificate.</p>
		) : (
			<form method="get" action={`${action}#chain-heading`} aria-labelledby="chain-heading">
				<ErrorSummary messages={errors?.form ?? []} />
				<SelectField
					form="chain"
					name="chain"
					label="Certificate"
					options={choices}
					value={chosen}
					errors={errors ?? NO_ERRORS}
				/>
				<TextField form="chain" name="date" type="date" label="Date (UTC)" value={date} errors={errors ?? NO_ERRORS} />
				<div class="actions">
					<button type="submit" class="secondary">
						Show chain
					</button>
				</div>
			</form>
		)}
		{answer !== undefined && <ChainResult answer={answer} />}
	</section>
);

/** The e-mails Cloudflare would have sent about the zone's certificates, by the zone's clock. */
export const OutboxPanel: FC<{ notices?: Notice[]; errors: string[] }> = ({ notices, errors }) => (
	<section class="card emulator" aria-labelledby="outbox-heading">
		<h2 id="outbox-heading">Notices (e-mails)</h2>
		<EmulatorMark />
		<ErrorSummary messages={errors} />
		{notices !== undefined && notices.length === 0 && (
			<p>No notices by the zone's clock: Cloudflare e-mails owners of Let's Encrypt certificates from 2024-06-01.</p>
		)}
		{notices?.map((notice) => (
			<article class="notice-mail" aria-label={notice.subject}>
				<h3>{notice.subject}</h3>
				<p class="hint">
					{shownInstant(notice.date)}, to {notice.recipient}, about the {notice.certificate_type} certificate{" "}
					<code>{notice.certificate_id ?? ""}</code>
				</p>
				<p class="mail-text">{notice.text}</p>
			</article>
		))}
	</section>
);
