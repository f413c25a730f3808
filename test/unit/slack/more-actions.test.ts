/**
 * The other buttons, called as functions with a fake `ack` and client (as Bolt's starter app
 * tests its listeners): Resume and Stop on a batch, Request again, the passkey buttons, "Share in
 * channel" and an address book's Remove. Each acks first and answers privately in one sentence
 * per outcome; a store that fails is said as such, never as a success.
 */
import { describe, expect, it } from 'vitest';
import { removeAddressAction } from '../../../src/adapters/slack/actions/addresses.js';
import { batchControlAction } from '../../../src/adapters/slack/actions/batch.js';
import { requestAgainAction } from '../../../src/adapters/slack/actions/batch-again.js';
import { approvePasskeyAction, removePasskeyAction } from '../../../src/adapters/slack/actions/passkey.js';
import { shareAction } from '../../../src/adapters/slack/actions/share.js';
import { REDIS_UNREACHABLE_TEXT, RedisUnavailableError } from '../../../src/store/redis-errors.js';
import { byKind, listenerDeps, runAction } from '../../support/slack-listener.js';

const OLDER = 'This button is from an older version of Rampart; run the command again.';
/** A use case that fails the way an unreachable Redis does. */
const unreachable = async () => {
  throw new RedisUnavailableError('Redis is unreachable.');
};

describe('Resume and Stop on a batch', () => {
  const control = (outcome: unknown) => async () => outcome;
  const batches = (resume: unknown, stop: unknown = resume) =>
    listenerDeps({ app: { batches: { resume, stop }, passkeys: { offerStepUp: async () => ({ kind: 'late' }) } } });

  it.each(
    byKind([
      [{ kind: 'resumed', requestId: 'B-3' }, 'B-3 resumed: its remaining rows run one at a time.'],
      [
        { kind: 'unfunded', requestId: 'B-3', shortfall: 'ops holds 10 USDC of the 25 the unsent rows need' },
        'Not resumed: ops holds 10 USDC of the 25 the unsent rows need. B-3 stays paused; fund the wallet and Resume again, or Stop.',
      ],
      [
        { kind: 'self', requestId: 'B-3' },
        'You requested B-3, so you cannot resume it; another approver must (you can Stop it).',
      ],
      [{ kind: 'late', requestId: 'B-3', state: 'running' }, 'B-3 cannot be resumed now: it is already running.'],
      [{ kind: 'late', requestId: 'B-3', state: 'archived' }, 'B-3 cannot be resumed now: it is archived.'],
      [{ kind: 'not-approver' }, 'You are not an approver for this, so nothing changed.'],
      [{ kind: 'step-up', requestId: 'B-3' }, 'B-3 is no longer waiting for approval.'],
    ]),
  )('Resume answers $kind', async ({ outcome, said }) => {
    const heard = await runAction(batchControlAction(batches(control(outcome)).deps, 'resume'), { value: 'B-3' });
    expect(heard.acks).toEqual([undefined]);
    expect(heard.said()).toEqual([said]);
  });

  it.each(
    byKind([
      [{ kind: 'stopped', requestId: 'B-3', cancelled: 1 }, 'B-3 stopped: 1 unsent row cancelled.'],
      [{ kind: 'stopped', requestId: 'B-3', cancelled: 4 }, 'B-3 stopped: 4 unsent rows cancelled.'],
      [{ kind: 'not-allowed', requestId: 'B-3' }, 'Only the requester or an approver can stop B-3.'],
      [{ kind: 'late', requestId: 'B-3', state: 'done' }, 'B-3 cannot be stopped now: it has finished.'],
    ]),
  )('Stop answers $kind', async ({ outcome, said }) => {
    const heard = await runAction(batchControlAction(batches(control(outcome)).deps, 'stop'), { value: 'B-3' });
    expect(heard.said()).toEqual([said]);
  });

  it('says an unreachable store as such, and any other failure as nothing changed', async () => {
    const { deps, logs } = batches(unreachable, async () => {
      throw new Error('boom');
    });
    const resume = await runAction(batchControlAction(deps, 'resume'), { value: 'B-3' });
    expect(resume.said()).toEqual([REDIS_UNREACHABLE_TEXT]);
    const stop = await runAction(batchControlAction(deps, 'stop'), { value: 'B-3' });
    expect(stop.said()).toEqual(['Rampart could not stop B-3 just now; nothing changed. Try again in a moment.']);
    expect(logs.text).toContain('batch stop failed');
  });
});

describe('Request again', () => {
  const again = (againRows: unknown) => listenerDeps({ app: { batches: { againRows } } });

  it.each(
    byKind([
      [
        { kind: 'not-requester', requestId: 'B-3', requester: 'U0REQUESTER' },
        'Only the requester of B-3, <@U0REQUESTER>, can request its rows again.',
      ],
      [
        { kind: 'not-done', requestId: 'B-3', state: 'running' },
        'B-3 has not finished (it is running); its rows can be requested again once it has.',
      ],
      [
        { kind: 'none', requestId: 'B-3' },
        'No row of B-3 failed or was cancelled, so there is nothing to request again.',
      ],
      [
        { kind: 'already', requestId: 'B-3', newId: 'B-4' },
        'The rows of B-3 were already requested again as B-4; each batch can be requested again once.',
      ],
    ]),
  )('$kind opens no form and says why', async ({ outcome, said }) => {
    const heard = await runAction(requestAgainAction(again(async () => outcome).deps), { value: 'B-3' });
    expect(heard.said()).toEqual([said]);
    expect(heard.calls.map((c) => c.method)).toEqual(['chat.postEphemeral']);
  });

  it('says the batch could not be read when the store fails', async () => {
    const heard = await runAction(requestAgainAction(again(unreachable).deps), { value: 'B-3' });
    expect(heard.said()).toEqual(['Rampart could not read B-3 just now; try again in a moment.']);
  });
});

describe('the passkey buttons', () => {
  const passkeys = (offer: unknown) =>
    listenerDeps({ app: { passkeys: { offerApproval: async () => offer, offerRemoval: async () => offer } } }).deps;

  it('Approve passkey… sends the one-time link privately', async () => {
    const heard = await runAction(approvePasskeyAction(passkeys({ kind: 'link', url: 'https://r.example/p' })), {
      value: 'U0NEW/cred1',
    });
    expect(heard.said()).toEqual([
      'Approve this passkey with your own: the link is yours only and works once, for 5 minutes.',
    ]);
    expect(JSON.stringify(heard.calls[0]?.args.blocks)).toContain('https://r.example/p');
  });

  it.each(
    byKind([
      [{ kind: 'self' }, 'You cannot approve your own passkey: another approver must, with their own passkey.'],
      [{ kind: 'not-approver' }, 'Only approvers approve passkeys.'],
      [{ kind: 'late' }, 'That passkey is no longer waiting (already approved or removed).'],
    ]),
  )('Approve passkey… refuses $kind in one sentence', async ({ outcome, said }) => {
    const heard = await runAction(approvePasskeyAction(passkeys(outcome)), { value: 'U0NEW/cred1' });
    expect(heard.said()).toEqual([said]);
  });

  it('Remove… says a passkey already gone is gone, and a value without a passkey does nothing', async () => {
    const heard = await runAction(removePasskeyAction(passkeys({ kind: 'late' })), { value: 'cred1' });
    expect(heard.said()).toEqual(['That passkey is already gone.']);
    const bare = await runAction(approvePasskeyAction(passkeys({ kind: 'late' })), { value: 'cred1' });
    expect(bare.calls).toEqual([]);
  });
});

describe('Share in channel', () => {
  const rate = (answer: () => Promise<unknown>) => listenerDeps({ app: { reads: { rate: answer } } }).deps;

  it('answers again in the channel, naming who shared it', async () => {
    const deps = rate(async () => ({ kind: 'rate', currency: 'NGN', rate: 1532.75 }));
    const heard = await runAction(shareAction(deps), { value: JSON.stringify({ command: 'rate', args: 'NGN' }) });
    expect(heard.responds).toMatchObject([
      { response_type: 'in_channel', replace_original: false, text: 'Shared by <@U0APPROVER1>' },
    ]);
    const shown = JSON.stringify(heard.responds[0]?.blocks);
    expect(shown).toContain('1,532.75');
    expect(shown).toContain('Shared by <@U0APPROVER1> from `/rate NGN`');
  });

  it.each([['not JSON'], [JSON.stringify({ command: 'transfer', args: '' })]])(
    'refuses a value it does not know (%s)',
    async (value) => {
      const heard = await runAction(shareAction(listenerDeps().deps), { value });
      expect(heard.said()).toEqual([OLDER]);
    },
  );

  it('says a failed read privately, never in the channel', async () => {
    const heard = await runAction(shareAction(rate(unreachable)), {
      value: JSON.stringify({ command: 'rate', args: '' }),
    });
    expect(heard.responds).toMatchObject([{ response_type: 'ephemeral', text: REDIS_UNREACHABLE_TEXT }]);
  });
});

describe('Remove on the address book', () => {
  const NOW = Date.UTC(2026, 10, 28, 12);
  const entry = {
    id: 'A-4',
    key: 'evm:0x99ed',
    name: 'Acme payroll',
    chain: 'base',
    address: '0x99EDe97A2b4c0000000000000000000000EdcF',
    wallets: '*',
    addedBy: 'U0ADDER',
    approvedBy: 'U0APPROVER2',
    requestId: 'R-1001',
    approvedAt: NOW - 3_600_000,
    usableAt: NOW - 60_000,
  };
  const book = (remove: () => Promise<unknown>) =>
    listenerDeps({
      app: {
        destinations: { remove, list: async () => [], mode: async () => 'warn', unsent: async () => new Map() },
      },
    });

  it('redraws the list in place and tells the approvals channel who removed what', async () => {
    const removed = { kind: 'removed', entry, unsent: 0, unsentByEntry: new Map() };
    const heard = await runAction(removeAddressAction(book(async () => removed).deps), { value: 'A-4' });
    expect(heard.responds).toMatchObject([{ replace_original: true, text: 'Address book' }]);
    expect(heard.calls).toMatchObject([{ method: 'chat.postMessage', args: { channel: 'C0APPROVALS' } }]);
    expect(String(heard.calls[0]?.args.text)).toContain('<@U0APPROVER1> removed');
  });

  it("counts the unsent payments once: the notice and the redrawn list use the removal's one read", async () => {
    const other = { ...entry, id: 'A-5', key: 'evm:0x11aa', name: 'Acme rent' };
    let counted = 0;
    const { deps } = listenerDeps({
      app: {
        destinations: {
          remove: async () => ({
            kind: 'removed',
            entry,
            unsent: 2,
            unsentByEntry: new Map([
              ['A-4', 2],
              ['A-5', 3],
            ]),
          }),
          list: async () => [other],
          mode: async () => 'warn',
          // A second count would disagree with the first (a payment queued in between).
          unsent: async () => {
            counted += 1;
            return new Map([['A-5', 9]]);
          },
        },
      },
    });
    const heard = await runAction(removeAddressAction(deps), { value: 'A-4' });
    expect(counted).toBe(0);
    expect(String(heard.calls[0]?.args.text)).toContain('it stops 2 payments not yet sent to it');
    expect(JSON.stringify(heard.responds)).toContain('It stops 3 payments not yet sent to it');
  });

  it.each(
    byKind([
      [{ kind: 'not-approver' }, 'Only approvers remove address-book entries, so nothing changed; ask one of them.'],
      [{ kind: 'missing' }, 'A-4 is no longer in the address book; run /addresses to see the list now.'],
    ]),
  )('$kind changes nothing and says so', async ({ outcome, said }) => {
    const heard = await runAction(removeAddressAction(book(async () => outcome).deps), { value: 'A-4' });
    expect(heard.said()).toEqual([said]);
    expect(heard.calls).toEqual([]);
  });

  it('refuses a value that is no entry id, and says a failed store privately', async () => {
    const old = await runAction(removeAddressAction(book(unreachable).deps), { value: 'A-4; DROP' });
    expect(old.said()).toEqual(['This button is from an older version of Rampart; run /addresses again.']);
    const failed = await runAction(removeAddressAction(book(unreachable).deps), { value: 'A-4' });
    expect(failed.said()).toEqual([REDIS_UNREACHABLE_TEXT]);
  });
});
