/**
 * A click while Redis is stalled or down gets its sentence: on a private redis-server stopped by
 * SIGSTOP (or killed and restarted, AOF on), a Deny on a pending request and a Resume on a paused
 * batch each read the approval first; that read fails, nothing was changed, and the approver is
 * told so privately. The request stays pending and the batch paused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findElement, type StoredMessage } from '../../devkit/index.js';
import { REDIS_UNREACHABLE_TEXT } from '../../src/store/redis-errors.js';
import { addresses, batchClick, submitBatchFile, transfersCsv, waitForApproval } from '../support/batches.js';
import { APPROVALS, eventually, PEOPLE } from '../support/harness.js';
import { type RedisServer, startRedisServer } from '../support/redis-servers.js';
import * as flow from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

let server: RedisServer;
beforeAll(async () => {
  server = await startRedisServer({ appendonly: true }); // a killed server comes back with its data
});
afterAll(async () => {
  if (server && !server.running) await server.restart(); // a failed test may leave it down
  await server?.stop();
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
    const { id } = await flow.postRequest(
      h,
      'transfer',
      `41 base:usdc to ${flow.RECEIVER} from ops for a deny in a stall`,
    );
    await duringStall(async () => {
      const ack = await flow.click(h, PEOPLE.approver1, id, 'request_deny');
      expect(ack.status).toBe(200);
      await eventually(
        () => flow.ephemeralText(h, PEOPLE.approver1).includes(REDIS_UNREACHABLE_TEXT) || undefined,
        2500,
        'the sentence for the Deny',
      );
    });
    expect(h.fake.views(PEOPLE.approver1).some((v) => v.callback_id === 'deny_modal')).toBe(false);
    expect((await h.rampart.deps.store.get(id))?.state).toBe('pending');
  });

  it('Resume on a paused batch: told that Rampart cannot reach its database, and the batch stays paused', async () => {
    const { id, card } = await pausedBatch(7);
    const before = flow.ephemeralText(h, PEOPLE.approver2);
    await duringStall(() => resumeIsRefused(card, before));
    expect((await h.rampart.deps.store.get(id))?.approvalState).toBe('paused');
    await stop(id); // a paused batch holds its wallet's turn
  });
});

describe('a click while Redis is down and restarting', () => {
  it('Resume on a paused batch: told that Rampart cannot reach its database; after the restart it is still paused', async () => {
    const { id, card } = await pausedBatch(8);
    const before = flow.ephemeralText(h, PEOPLE.approver2);
    await server.kill();
    try {
      await resumeIsRefused(card, before);
    } finally {
      await server.restart();
    }
    const record = await eventually(
      () => h.rampart.deps.store.get(id).catch(() => undefined),
      15_000,
      'Redis back after the restart',
    );
    expect(record?.approvalState).toBe('paused');
    await stop(id);
  });
});

async function stop(id: string): Promise<void> {
  await batchClick(h, PEOPLE.requester, id, 'batch_stop');
  await waitForApproval(h, id, 'done');
}

/** A batch of two whose first row's answer is a 500: unknown, so the batch pauses; its card shows Resume. */
async function pausedBatch(salt: number) {
  h.sandbox.faults.failNext('/transfer');
  const id = await submitBatchFile(h, transfersCsv(addresses(2, salt), [5, 6]));
  await flow.click(h, PEOPLE.approver1, id, 'request_approve');
  await waitForApproval(h, id, 'paused');
  await flow.quiescent(h);
  const card = await eventually(
    () => (findElement(flow.currentCard(h, id).blocks ?? [], 'batch_resume') ? flow.currentCard(h, id) : undefined),
    10_000,
    'Resume on the card',
  );
  return { id, card };
}

/** Clicks Resume and waits for the sentence, said privately after the ack. */
async function resumeIsRefused(card: StoredMessage, before: string): Promise<void> {
  const ack = await h.driver.click(PEOPLE.approver2, { action_id: 'batch_resume', message: card, channel: APPROVALS });
  expect(ack.status).toBe(200);
  await eventually(
    () => flow.ephemeralText(h, PEOPLE.approver2).slice(before.length).includes(REDIS_UNREACHABLE_TEXT) || undefined,
    2500,
    'the sentence for the Resume',
  );
}
