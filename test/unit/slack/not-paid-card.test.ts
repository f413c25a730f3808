/** The outcome-unknown card's buttons: Record outcome…, a proposal with Confirm not paid, and its limits. */
import { describe, expect, it } from 'vitest';
import { checkBlockKitLimits } from '../../../devkit/fake-slack/block-kit-limits.js';
import { requestCardBlocks } from '../../../src/adapters/slack/blocks/card.js';
import { homeView } from '../../../src/adapters/slack/blocks/home.js';
import { proposalReply, unknownOutcomeBlocks } from '../../../src/adapters/slack/blocks/not-paid.js';
import type { ExecutionRecord } from '../../../src/domain/request.js';
import { readableTexts } from '../../support/block-texts.js';
import { buildRecord } from '../../support/factories.js';

const proposal = {
  id: 'P-1a2b3c4d',
  by: 'U0APPROVER1',
  at: Date.UTC(2026, 10, 21, 14, 2),
  why: 'no incoming transfer',
};
const actionsOf = (blocks: ReturnType<typeof unknownOutcomeBlocks>) =>
  blocks.filter((b) => b.type === 'actions') as unknown as { elements: Record<string, unknown>[] }[];

describe('an outcome-unknown card', () => {
  it('offers Record outcome…, and with a proposal a danger-confirmed Confirm not paid carrying the proposal id', () => {
    const plain = buildRecord('unknown');
    expect(actionsOf(unknownOutcomeBlocks(plain)).map((a) => a.elements.map((e) => e.action_id))).toEqual([
      ['outcome_record'],
    ]);
    const record = buildRecord('unknown');
    record.executions = record.executions.map((e) => ({ ...e, proposal }));
    const blocks = requestCardBlocks(record);
    expect(checkBlockKitLimits('message', { blocks, text: 'card' })).toEqual([]);
    const text = readableTexts(blocks).join('\n');
    expect(text).toContain('<@U0APPROVER1> proposed');
    expect(text).toContain('no incoming transfer');
    // The proposer's words are plain text, never markup.
    const mrkdwn = JSON.stringify(blocks).match(/"type":"mrkdwn","text":"[^"]*"/g) ?? [];
    expect(mrkdwn.join('\n')).not.toContain('no incoming transfer');
    const confirm = actionsOf(unknownOutcomeBlocks(record))[0]?.elements[1] as {
      value: string;
      style: string;
      confirm: { text: { text: string } };
    };
    expect(confirm.value).toBe('R-1001.1 P-1a2b3c4d');
    expect(confirm.style).toBe('danger');
    expect(confirm.confirm.text.text).toContain('If it did go through, requesting it again pays twice');
  });

  it('gives a batch five rows of buttons, then names the rest with /resolve', () => {
    const record = buildRecord('unknown');
    const rows: ExecutionRecord[] = Array.from({ length: 7 }, (_, i) => ({
      id: `B-7.${i + 1}`,
      approvalId: 'B-7',
      state: 'unknown',
      sealHash: 'x',
      tries: 1,
    }));
    const batch = {
      ...record,
      sealed: { ...record.sealed, id: 'B-7' },
      executions: rows,
      executionCount: 9,
      counts: { ...record.counts, unknown: 9 },
    };
    const blocks = unknownOutcomeBlocks(batch);
    expect(actionsOf(blocks)).toHaveLength(5);
    expect(readableTexts(blocks).join('\n')).toContain('…and 4 more: `/resolve B-7 row n`');
  });

  it('names who could confirm when fewer than two approvers other than the requester exist', () => {
    const text = readableTexts(unknownOutcomeBlocks(buildRecord('unknown'), ['U0APPROVER1', 'U0REQUESTER'])).join('\n');
    expect(text).toContain('only <@U0APPROVER1> could act');
    expect(readableTexts(unknownOutcomeBlocks(buildRecord('unknown'), ['U0A', 'U0B'])).join('\n')).not.toContain(
      'could act',
    );
  });

  it('asks in the thread the approvers who could confirm, not the proposer or the requester', () => {
    const record = buildRecord('unknown');
    const execution = { ...(record.executions[0] as ExecutionRecord), proposal };
    const reply = proposalReply(record, execution, ['U0APPROVER1', 'U0APPROVER2', 'U0REQUESTER', 'S0TREASURY']);
    expect(reply).toContain('<@U0APPROVER2> <!subteam^S0TREASURY>');
    expect(reply).not.toContain('<@U0REQUESTER>');
    expect(reply).toContain('requesting it again pays twice');
  });

  it('lists a pending proposal under "Needs your vote" on App Home for the other approvers only', () => {
    const record = buildRecord('unknown');
    record.executions = record.executions.map((e) => ({ ...e, proposal }));
    const home = (user: string) =>
      readableTexts(
        homeView({ pending: [], recent: [], approver: { user, links: new Map() }, confirm: [record] }).blocks,
      ).join('\n');
    expect(home('U0APPROVER2')).toContain('*Needs your vote* (1)');
    expect(home('U0APPROVER2')).toContain('<@U0APPROVER1> proposed *not paid*: confirm it or record paid');
    expect(home('U0APPROVER1')).toContain('*Needs your vote* (0)');
    expect(home('U0REQUESTER')).toContain('*Needs your vote* (0)');
  });
});
