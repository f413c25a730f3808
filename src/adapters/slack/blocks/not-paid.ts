/**
 * Outcome-unknown executions in Slack: the card's Record outcome… button, a not-paid proposal
 * with its Confirm not paid button, and the thread reply that asks a second approver. Pure builders. People's words (the reason) go in
 * after the figures, escaped.
 */
import type { KnownBlock } from '@slack/types';
import { executionName } from '../../../domain/batch-status.js';
import type { NotPaidProposal } from '../../../domain/not-paid.js';
import type { ExecutionRecord, RequestRecord } from '../../../domain/request.js';
import { context, esc, plain, section, slackDate } from './common.js';

const mention = (a: string) => (a.startsWith('S') ? `<!subteam^${a}>` : `<@${a}>`);

/** Who could confirm: every approver but the proposer and the requester. */
export const confirmers = (approvers: readonly string[], record: RequestRecord, p: NotPaidProposal): string[] =>
  approvers.filter((a) => a !== p.by && a !== record.sealed.requester);

export function proposalReply(record: RequestRecord, execution: ExecutionRecord, approvers: readonly string[]): string {
  const p = execution.proposal;
  if (!p) return '';
  const who = confirmers(approvers, record, p).map(mention).join(' ');
  const cli = p.via === 'cli' ? ' from the CLI' : '';
  return `:warning: <@${p.by}> proposed${cli} that *${executionName(record, execution.id)} was not paid*: “${esc(p.why)}”. It stays outcome unknown until a second approver (not <@${p.by}>, not the requester) confirms it with *Confirm not paid* on the card. If it did go through, requesting it again pays twice: check the receiver's address on the explorer first.${who ? ` ${who}` : ''}`;
}

/** The card's line for a pending proposal (the reason follows in proposalReason). */
export const proposalLine = (p: NotPaidProposal): string =>
  `:warning: <@${p.by}> proposed ${slackDate(p.at)} that this was *not paid*${p.via === 'cli' ? ' (from the CLI)' : ''}. A second approver (not <@${p.by}>, not the requester) must confirm.`;

/** The proposer's words, labelled, as plain text after the figures: never read as markup. */
export const proposalReason = (p: NotPaidProposal): KnownBlock => ({
  type: 'context',
  elements: [
    { type: 'plain_text', text: `Why not paid, in the proposer's words: ${p.why}`.slice(0, 2_000), emoji: false },
  ],
});

export const OUTCOME_ACTIONS = { record: 'outcome_record', confirm: 'outcome_confirm' } as const;
/** Buttons for this many unknown executions on one card; the rest are named with /resolve. */
export const MAX_OUTCOME_ROWS = 5;

/** `name`: the execution as people read it ("B-1003 row 2"); the value keeps its id. */
const recordButton = (execId: string, name: string) => ({
  type: 'button',
  action_id: OUTCOME_ACTIONS.record,
  text: plain('Record outcome…', 75),
  accessibility_label: `Record the outcome of ${name}`,
  value: execId,
});

const confirmButton = (execId: string, name: string, p: NotPaidProposal) => ({
  type: 'button',
  action_id: OUTCOME_ACTIONS.confirm,
  style: 'danger',
  text: plain('Confirm not paid', 75),
  accessibility_label: `Confirm that ${name} was not paid`,
  value: `${execId} ${p.id}`,
  confirm: {
    title: plain('Confirm not paid?', 100),
    text: plain(
      `${name} is then recorded as failed and its velocity amount released. If it did go through, requesting it again pays twice: check the receiver's page on the explorer first. Proposed because: ${p.why}`,
      300,
    ),
    confirm: plain('Confirm not paid', 30),
    deny: plain('Back', 30),
    style: 'danger',
  },
});

/** Approvers listed by user id who could ever confirm here (groups: unknown, so no warning). */
function fewConfirmers(record: RequestRecord, approvers: readonly string[]): string | undefined {
  if (approvers.length === 0 || approvers.some((a) => a.startsWith('S'))) return undefined;
  const eligible = approvers.filter((a) => a !== record.sealed.requester);
  if (eligible.length >= 2) return undefined;
  const who = eligible.length ? `only ${eligible.map(mention).join(', ')} could act` : 'no approver could act';
  return `:warning: Recording not paid takes two different approvers other than the requester; ${who}. Add an approver to APPROVERS, or record paid with the proof.`;
}

/**
 * Under an outcome-unknown card (each unknown row of a batch): a Record outcome… button, and a
 * pending not-paid proposal with its Confirm not paid button for the other approvers.
 */
export function unknownOutcomeBlocks(record: RequestRecord, approvers: readonly string[] = []): KnownBlock[] {
  const unknown = record.executions.filter((e) => e.state === 'unknown');
  const shown = unknown.slice(0, MAX_OUTCOME_ROWS);
  const blocks: KnownBlock[] = [];
  const batch = record.sealed.display.batch !== undefined;
  for (const e of shown) {
    const name = executionName(record, e.id);
    const lines = [
      ...(batch ? [`:rotating_light: *${name}*: outcome unknown`] : []),
      ...(e.proposal ? [proposalLine(e.proposal)] : []),
    ];
    if (lines.length) blocks.push(section(lines.join('\n')));
    if (e.proposal) blocks.push(proposalReason(e.proposal));
    blocks.push({
      type: 'actions',
      block_id: `outcome-${e.id}`,
      elements: [recordButton(e.id, name), ...(e.proposal ? [confirmButton(e.id, name, e.proposal)] : [])],
    } as KnownBlock);
  }
  const more = Math.max(record.counts.unknown, unknown.length) - shown.length;
  if (more > 0)
    blocks.push(
      context(`…and ${more} more: \`/resolve ${record.sealed.id} row n\` (n: the row as the receipt numbers it)`),
    );
  const few = record.counts.unknown > 0 ? fewConfirmers(record, approvers) : undefined;
  if (few) blocks.push(context(few));
  return blocks;
}
