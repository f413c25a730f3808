/**
 * A not-paid proposal in Slack: the thread reply that asks a second approver, and the lines the
 * card adds under an outcome-unknown execution. Pure builders. People's words (the reason) go in
 * after the figures, escaped.
 */
import type { NotPaidProposal } from '../../domain/not-paid.js';
import type { ExecutionRecord, RequestRecord } from '../../domain/request.js';
import { esc, slackDate } from './common.js';

const mention = (a: string) => (a.startsWith('S') ? `<!subteam^${a}>` : `<@${a}>`);

/** Who could confirm: every approver but the proposer and the requester. */
export const confirmers = (approvers: readonly string[], record: RequestRecord, p: NotPaidProposal): string[] =>
  approvers.filter((a) => a !== p.by && a !== record.frozen.requester);

export function proposalReply(record: RequestRecord, execution: ExecutionRecord, approvers: readonly string[]): string {
  const p = execution.proposal;
  if (!p) return '';
  const who = confirmers(approvers, record, p).map(mention).join(' ');
  const cli = p.via === 'cli' ? ' from the CLI' : '';
  return `:warning: <@${p.by}> proposed${cli} that *${execution.id} was not paid*: “${esc(p.why)}”. It stays outcome unknown until a second approver (not <@${p.by}>, not the requester) confirms it with *Confirm not paid* on the card. If it did go through, requesting it again pays twice: check the receiver's address on the explorer first.${who ? ` ${who}` : ''}`;
}

/** The card's line for a pending proposal. */
export const proposalLine = (p: NotPaidProposal): string =>
  `:warning: <@${p.by}> proposed ${slackDate(p.at)} that this was *not paid*${p.via === 'cli' ? ' (from the CLI)' : ''}: “${esc(p.why)}”. A second approver must confirm.`;
