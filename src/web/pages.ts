/**
 * Rampart's own pages (issue 22), as pure functions of what they show: HTML text, every value
 * escaped. The shell carries nothing about a request; the request's facts come only in the
 * answer to a POST with a valid token, rendered here too.
 */
import type { RequestRecord } from '../domain/request.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

export type PageKind = 'step-up' | 'passkey';

const TITLES: Record<PageKind, string> = { 'step-up': 'Approve with your passkey', passkey: 'Register a passkey' };

/** The static page: one stylesheet and one ES module, both from Rampart itself. */
export function shellPage(kind: PageKind, base: string): string {
  const b = escapeHtml(base);
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    `<title>Rampart · ${TITLES[kind]}</title>`,
    `<link rel="stylesheet" href="${b}/assets/passkey.css">`,
    `<script type="module" src="${b}/assets/passkey.js"></script>`,
    '</head>',
    `<body data-page="${kind}" data-base="${b}">`,
    `<header><h1>Rampart · ${TITLES[kind]}</h1></header>`,
    '<main id="main"><p>Checking your link…</p></main>',
    '<noscript><p>This page needs JavaScript to talk to your passkey.</p></noscript>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** The plain answer to any link that is not (or no longer) valid: no detail about why. */
export const invalidLinkHtml = (): string =>
  '<p class="refused">This link is no longer valid. Go back to Slack and click Approve again for a new one.</p>';

export const limitedHtml = (): string =>
  '<p class="refused">Too many attempts with this link, by you or from your address in the last hour. Wait a while, then click Approve in Slack again.</p>';

export const messageHtml = (text: string, tone: 'ok' | 'refused' = 'ok'): string =>
  `<p class="${tone}">${escapeHtml(text)}</p>`;

const row = (label: string, value: string | undefined): string =>
  value ? `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd>` : '';

/** What the card shows, for the approver to compare before using the passkey. */
export function approvalHtml(
  record: RequestRecord,
  approver: string,
  approvalHash: string,
  purpose: 'approve' | 'resume' = 'approve',
): string {
  const f = record.frozen;
  const d = f.display;
  const call = f.call;
  const amount =
    call.kind === 'transfer' || call.kind === 'offramp'
      ? `${d.amountText ?? String(call.body.amount)} ${d.assetCode ?? ''}${d.entireBalance ? ' (entire available balance at submission)' : ''}`
      : undefined;
  const to =
    call.kind === 'transfer'
      ? `${call.body.receiver}${d.newReceiver ? ' (never paid by Rampart before)' : ''}`
      : call.kind === 'offramp'
        ? `${d.beneficiaryLabel ?? call.body.beneficiary_id}${d.holderName ? ` · holder ${d.holderName} (${d.holderSource === 'lookup' ? 'verified by the service' : 'as typed by the requester'})` : ''}`
        : call.kind === 'beneficiary'
          ? `${d.beneficiaryLabel ?? ''}${d.holderName ? ` · holder ${d.holderName}` : ''}`
          : undefined;
  const wallet =
    call.kind === 'transfer' || call.kind === 'offramp' ? (d.walletAlias ?? call.body.wallet_id) : undefined;
  const b = d.batch;
  return [
    `<h2>${escapeHtml(f.id)} · ${escapeHtml(b ? `batch of ${b.kind}` : call.kind)}</h2>`,
    '<dl>',
    row(b ? 'Total' : 'Amount', amount),
    row('Chain', d.chain),
    ...(b ? batchRows(b) : [row('To', to)]),
    row('From wallet', wallet),
    row('Requested by', f.requester),
    row('Reason', f.reason),
    row('Policy', f.rule),
    row('Approval hash', approvalHash),
    row('You are', approver),
    '</dl>',
    `<p>Your passkey signs this approval hash; Rampart runs exactly ${b ? 'these rows' : 'this call'}.</p>`,
    purpose === 'resume'
      ? '<p>This batch is paused. Your passkey resumes it: its remaining rows run one at a time.</p><p><button id="go" type="button">Resume with your passkey</button></p>'
      : '<p><button id="go" type="button">Approve with your passkey</button></p>',
    '<p id="status" role="status"></p>',
  ].join('');
}

export function enrolHtml(user: string): string {
  return [
    `<p>Register a passkey for Slack user <strong>${escapeHtml(user)}</strong>.</p>`,
    '<p>Your device will ask you to unlock it (fingerprint, face or PIN).</p>',
    '<p><button id="go" type="button">Register a passkey</button></p>',
    '<p id="status" role="status"></p>',
  ].join('');
}

/** Issue 22 item 6: a batch's summary, as its card shows it (file, rows, largest, warnings). */
function batchRows(b: NonNullable<RequestRecord['frozen']['display']['batch']>): string[] {
  const warn = [
    ...(b.newDestinations?.length ? [`rows ${b.newDestinations.join(', ')} pay destinations Rampart never paid`] : []),
    ...(b.repeatsInFile?.length
      ? [`rows ${b.repeatsInFile.map((r) => `${r.row} (repeats ${r.of})`).join(', ')} repeat another row`]
      : []),
  ];
  return [
    row('File', `${b.fileName} · ${b.rows} rows`),
    row('Largest', `row ${b.largest.row} · ${b.largest.amount}`),
    row('First rows', b.preview.join('\n')),
    row('Warnings', warn.join('; ') || undefined),
  ];
}
