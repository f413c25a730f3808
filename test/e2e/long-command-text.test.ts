/**
 * Long command text cannot break a modal: `/transfer 25 <3,000 characters>`
 * opens a modal whose private_metadata is whole JSON within Slack's 3,000 characters, whose
 * pre-filled values are bounded, and which can be submitted; a form whose hidden data is damaged
 * gets one sentence on the form, never a crash.
 */
import { expect, it } from 'vitest';
import { METADATA_PROBLEM } from '../../src/adapters/slack/metadata.js';
import { PREFILL_LIMITS } from '../../src/domain/command-text.js';
import { APPROVALS, eventually, PEOPLE } from '../support/harness.js';
import { RECEIVER } from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

const h = useHarness('long-text');

const initialValues = (blocks: unknown[]): string[] =>
  JSON.stringify(blocks)
    .match(/"initial_value":"(?:[^"\\]|\\.)*"/g)
    ?.map((m) => JSON.parse(m.slice('"initial_value":'.length)) as string) ?? [];

async function openTransfer(text: string) {
  const seen = new Set(h.fake.views(PEOPLE.requester).map((v) => v.id));
  const ack = await h.driver.command(PEOPLE.requester, '/transfer', text);
  expect(ack.status).toBe(200);
  return eventually(() => h.fake.views(PEOPLE.requester).find((v) => !seen.has(v.id)), 5000, 'transfer modal');
}

it('/transfer 25 with 3,000 characters after it opens a modal that can be submitted', async () => {
  const junk = `0x${'"\\<&'.repeat(750)}`; // 3,002 characters, each one JSON or mrkdwn would escape
  const form = await openTransfer(`25 base:usdc from ops to ${junk} for "invoice" ${'\\"'.repeat(400)}`);
  expect(form.private_metadata.length).toBeLessThanOrEqual(3000);
  const meta = JSON.parse(form.private_metadata) as { kind: string; channel: string };
  expect(meta).toMatchObject({ kind: 'transfer' });
  for (const v of initialValues(form.blocks)) expect(v.length).toBeLessThanOrEqual(PREFILL_LIMITS.reason);

  const before = h.fake.messages(APPROVALS).length;
  const res = await h.driver.submitView(PEOPLE.requester, form, { receiver: RECEIVER, reason: 'invoice 7' });
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ response_action: 'clear' });
  await eventually(() => h.fake.messages(APPROVALS)[before], 5000, 'approval card');
});

it('a form whose private_metadata is damaged gets a sentence on the form, not a crash', async () => {
  const form = await openTransfer(`25 base:usdc from ops to ${RECEIVER} for invoice 8`);
  for (const damaged of ['{"kind":"transfer","chan', '{}', 'null']) {
    const res = await h.driver.submitView(PEOPLE.requester, { ...form, private_metadata: damaged }, {});
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ response_action: 'errors', errors: { reason: METADATA_PROBLEM } });
  }
  expect(h.logs.text).not.toContain('unhandled error');
});
