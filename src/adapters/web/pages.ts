/**
 * Rampart's own pages, as pure functions of what they show: HTML text, every value
 * escaped. The shell carries nothing about a request; the request's facts come only in the
 * answer to a POST with a valid token, rendered here too.
 */
import type { BatchRowRecord } from '../../domain/batch-approval.js';
import type { RequestRecord } from '../../domain/request.js';
import { localTimeText } from '../../domain/schedule-words.js';
import { cardHtml } from './card-page.js';

import { escapeHtml } from './html.js';

export { escapeHtml };

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

export interface RecordPage {
  purpose: 'approve' | 'resume' | 'confirm-not-paid';
  record: RequestRecord;
  approver: string;
  /** The full hash the passkey signs; the card shows its first 10 characters. */
  approvalHash: string;
  names: ReadonlyMap<string, string>;
  /** confirm-not-paid: the execution whose outcome is unknown, and for a batch its row. */
  executionId?: string;
  row?: BatchRowRecord;
}

const PURPOSE: Record<RecordPage['purpose'], { lead: string; check: string; button: string }> = {
  approve: {
    lead: 'You are approving this request. This is its card in Slack:',
    check: 'Not what you expected? Deny it on the card.',
    button: 'Approve with your passkey',
  },
  resume: {
    lead: 'You are resuming this paused batch: its remaining rows run one at a time. This is its card in Slack:',
    check: 'Not what you expected? Stop it on the card.',
    button: 'Resume with your passkey',
  },
  'confirm-not-paid': {
    lead: 'You are confirming that this payment was NOT made. If it did go through, requesting it again pays twice. This is its card in Slack:',
    check: 'Not what you expected? Close this page: nothing is recorded without your passkey.',
    button: 'Confirm not paid with your passkey',
  },
};

/** A batch row whose outcome is unknown: its amount and its destination in full. */
const rowHtml = (r: BatchRowRecord, asset: string): string =>
  `<p>Row <strong>${r.row}</strong>: <strong>${escapeHtml(r.amount)} ${escapeHtml(asset)}</strong> to <code>${escapeHtml(r.destination)}</code></p>`;

/** A series' sealed run dates, every one, as the hash the passkey signs covers them. */
function runDatesHtml(r: RequestRecord): string[] {
  const schedule = r.shape === 'series' ? r.sealed.schedule : undefined;
  if (!schedule) return [];
  const dates = schedule.runs.map((at) => `<li>${escapeHtml(localTimeText(at, schedule.zone))}</li>`).join('');
  return [
    `<p>Its ${schedule.runs.length} run dates (${escapeHtml(schedule.zone)}), each sending the same call:</p><ul>${dates}</ul>`,
  ];
}

/** The card as Slack shows it, for the approver to compare before using the passkey. */
export function recordPageHtml(p: RecordPage): string {
  const words = PURPOSE[p.purpose];
  const runs =
    p.record.shape === 'batch' ? 'these rows' : p.record.shape === 'series' ? 'this call on these dates' : 'this call';
  const signs = p.purpose === 'confirm-not-paid' ? '' : ` Rampart runs exactly ${runs}.`;
  return [
    `<p>${escapeHtml(words.lead)}</p>`,
    ...runDatesHtml(p.record),
    ...(p.executionId ? [`<p>Execution <strong>${escapeHtml(p.executionId)}</strong>: outcome unknown.</p>`] : []),
    ...(p.row ? [rowHtml(p.row, p.record.sealed.display.assetCode ?? '')] : []),
    cardHtml(p.record, p.approvalHash, p.names, p.purpose === 'confirm-not-paid'),
    `<p class="check"><strong>${escapeHtml(words.check)}</strong></p>`,
    `<p>You are ${escapeHtml(p.names.get(p.approver) ?? p.approver)}. Your passkey signs the hash above.${signs}</p>`,
    `<p><button id="go" type="button">${escapeHtml(words.button)}</button></p>`,
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
