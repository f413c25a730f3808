/**
 * A click while Redis is stalled gets its sentence: on a private redis-server stopped by SIGSTOP,
 * a Deny on a pending request and a Resume on a paused batch each read the approval first; that
 * read fails, nothing was changed, and the approver is told so privately.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findElement } from '../../devkit/index.js';
import { REDIS_UNREACHABLE_TEXT } from '../../src/store/redis-errors.js';
import { addresses, submitBatchFile, transfersCsv, waitForApproval } from '../support/batches.js';
import { APPROVALS, eventually, PEOPLE } from '../support/harness.js';
import { type RedisServer, startRedisServer } from '../support/redis-servers.js';
import { click, currentCard, ephemeralText, postRequest, quiescent, RECEIVER } from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

let server: RedisServer;
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  await server.stop();
});
const h = useHarness('stall-clicks', () => ({ REDIS_URL: server.url, BATCH_RATE: 'off' }));

/** Runs `step` while Redis is stopped by SIGSTOP: it accepts connections and answers nothing. */
async function duringStall(step: () => Promise<unknown>): Promise<void> {
  server.pause();
  try {
    await step();
  } finally {
    server.resume();
  }
}

describe('a click while Redis is stalled', () => {
  it('Deny on a pending request: told that Rampart cannot reach its database, and the request stays pending', async () => {
    const { id } = await postRequest(h, 'transfer', `41 base:usdc to ${RECEIVER} from ops for a deny in a stall`);
    await duringStall(async () => {
      const ack = await click(h, PEOPLE.approver1, id, 'request_deny');
      expect(ack.status).toBe(200);
      await eventually(
        () => ephemeralText(h, PEOPLE.approver1).includes(REDIS_UNREACHABLE_TEXT) || undefined,
        2500,
        'the sentence for the Deny',
      );
    });
    expect(h.fake.views(PEOPLE.approver1).some((v) => v.callback_id === 'deny_modal')).toBe(false);
    expect((await h.rampart.deps.store.get(id))?.state).toBe('pending');
  });

  it('Resume on a paused batch: told that Rampart cannot reach its database, and the batch stays paused', async () => {
    h.sandbox.faults.failNext('/transfer'); // the first row's answer is a 500: unknown, so the batch pauses
    const id = await submitBatchFile(h, transfersCsv(addresses(2, 7), [5, 6]));
    await click(h, PEOPLE.approver1, id, 'request_approve');
    await waitForApproval(h, id, 'paused');
    await quiescent(h);
    const card = await eventually(
      () => (findElement(currentCard(h, id).blocks ?? [], 'batch_resume') ? currentCard(h, id) : undefined),
      10_000,
      'Resume on the card',
    );
    const before = ephemeralText(h, PEOPLE.approver2);
    await duringStall(async () => {
      const ack = await h.driver.click(PEOPLE.approver2, {
        action_id: 'batch_resume',
        message: card,
        channel: APPROVALS,
      });
      expect(ack.status).toBe(200);
      await eventually(
        () => ephemeralText(h, PEOPLE.approver2).slice(before.length).includes(REDIS_UNREACHABLE_TEXT) || undefined,
        2500,
        'the sentence for the Resume',
      );
    });
    expect((await h.rampart.deps.store.get(id))?.approvalState).toBe('paused');
  });
});
