/**
 * Each slash command's phrasing, called as a function with a fake `ack`, `respond` and client (as
 * Bolt's starter app tests its listeners): what `help` shows, the one sentence for a wrong input,
 * and that a command Slack would open a form for acks bare within its 3 s and opens it.
 */
import { describe, expect, it } from 'vitest';
import { BATCH_USAGE, batchTemplateText } from '../../../src/adapters/slack/blocks/batch-modal.js';
import { PASSKEY_USAGE } from '../../../src/adapters/slack/blocks/passkey.js';
import { USAGE } from '../../../src/adapters/slack/blocks/usage.js';
import { batchCommand } from '../../../src/adapters/slack/commands/batch.js';
import { freezeCommand, unfreezeCommand, whoCanFreeze } from '../../../src/adapters/slack/commands/freeze.js';
import { passkeyCommand } from '../../../src/adapters/slack/commands/passkey.js';
import { readOnlyCommand } from '../../../src/adapters/slack/commands/read-only.js';
import { beneficiaryCommand, identityCommand } from '../../../src/adapters/slack/commands/registry.js';
import { REPORT_USAGE, reportCommand } from '../../../src/adapters/slack/commands/report.js';
import { requestCommand } from '../../../src/adapters/slack/commands/request.js';
import { resolveCommand } from '../../../src/adapters/slack/commands/resolve.js';
import { listenerDeps, runCommand } from '../../support/slack-listener.js';

const { deps } = listenerDeps();

describe('help shows each command’s usage in the ack, and nothing else happens', () => {
  it.each([
    ['/transfer', requestCommand('transfer', deps), USAGE.transfer],
    ['/offramp', requestCommand('offramp', deps), USAGE.offramp],
    ['/balance', readOnlyCommand('balance', deps), USAGE.balance],
    ['/rate', readOnlyCommand('rate', deps), USAGE.rate],
    ['/lookup', readOnlyCommand('lookup', deps), USAGE.lookup],
    ['/identity', identityCommand(deps), USAGE.identity],
    ['/resolve', resolveCommand(deps), USAGE.resolve],
    ['/batch', batchCommand(deps), BATCH_USAGE],
    ['/passkey', passkeyCommand(deps), PASSKEY_USAGE],
    ['/report', reportCommand(deps), REPORT_USAGE],
  ])('%s help', async (_name, handler, usage) => {
    for (const text of ['help', ' --help ', '?']) {
      const heard = await runCommand(handler, text);
      expect(heard.ackText()).toBe(usage);
      expect(heard.acks[0]).toMatchObject({ response_type: 'ephemeral' });
      expect(heard.calls).toEqual([]);
      expect(heard.responds).toEqual([]);
    }
  });

  it('/freeze and /unfreeze help say what each does and who decides', async () => {
    for (const handler of [freezeCommand(deps), unfreezeCommand(deps)]) {
      const text = (await runCommand(handler, 'help')).ackText();
      expect(text).toContain('`/freeze [reason]` stops every approval and execution');
      expect(text).toContain('two approvers decide');
    }
  });
});

describe('a wrong input gets the usage or one sentence, in the ack', () => {
  it.each([
    ['/identity with two words', identityCommand(deps), 'idn_1 extra', USAGE.identity],
    ['/beneficiary with a word it does not know', beneficiaryCommand(deps), 'delete', USAGE.beneficiary],
    ['/batch with a word it does not know', batchCommand(deps), 'now', BATCH_USAGE],
    ['/passkey with any text', passkeyCommand(deps), 'remove', PASSKEY_USAGE],
    ['/resolve with nothing', resolveCommand(deps), '  ', USAGE.resolve],
  ])('%s', async (_what, handler, text, answer) => {
    const heard = await runCommand(handler, text);
    expect(heard.ackText()).toBe(answer);
    expect(heard.calls).toEqual([]);
  });

  it('/resolve with a batch but no row asks for the row, from the stored shape', async () => {
    const { deps: batch } = listenerDeps({ app: { reads: { request: async () => ({ shape: 'batch' }) } } });
    const heard = await runCommand(resolveCommand(batch), 'r-12');
    expect(heard.ackText()).toBe('Name the row of R-12, e.g. `/resolve R-12 row 3`.');
    expect(heard.calls).toEqual([]);
  });

  it('/resolve with a word it does not know names it and what to type', async () => {
    const text = (await runCommand(resolveCommand(deps), 'R-12.1 maybe 0xabc')).ackText();
    expect(text).toMatch(/maybe/);
    expect(text).toMatch(/paid|not-paid/);
  });

  it('/report names the word it does not know, the two spans and post', async () => {
    const text = (await runCommand(reportCommand(deps), '7d weekly')).ackText();
    expect(text).toBe(`"weekly" is not a report option: give 7d or 30d, and post to share it. ${REPORT_USAGE}`);
  });

  it('/report escapes what was typed, so a mention cannot be smuggled into the answer', async () => {
    const text = (await runCommand(reportCommand(deps), '<!channel>')).ackText();
    expect(text).not.toContain('<!channel>');
    expect(text).toContain('&lt;!channel&gt;');
  });

  it('/batch template lists each kind’s columns', async () => {
    for (const word of ['template', 'TEMPLATES']) {
      expect((await runCommand(batchCommand(deps), word)).ackText()).toBe(batchTemplateText());
    }
  });
});

describe('a form opens after a bare ack', () => {
  it.each([
    ['/transfer', requestCommand('transfer', deps), '250 base:usdc from ops'],
    ['/offramp', requestCommand('offramp', deps), ''],
    ['/batch', batchCommand(deps), ''],
    ['/lookup', readOnlyCommand('lookup', deps), ''],
    ['/identity new', identityCommand(deps), 'new'],
    ['/beneficiary new', beneficiaryCommand(deps), 'new'],
    ['/beneficiary register', beneficiaryCommand(deps), 'register'],
  ])('%s', async (_name, handler, text) => {
    const heard = await runCommand(handler, text);
    expect(heard.acks).toEqual([undefined]);
    expect(heard.calls[0]).toMatchObject({ method: 'views.open', args: { trigger_id: 'T0TRIGGER' } });
  });

  it('/lookup says how to type the lookup when Slack cannot open the form', async () => {
    const heard = await runCommand(readOnlyCommand('lookup', deps), '', {
      answers: {
        'views.open': () => {
          throw new Error('expired_trigger_id');
        },
      },
    });
    expect(heard.said()).toEqual([
      'Slack could not open the lookup form just now; type the bank code and account number instead.',
    ]);
  });
});

describe('/passkey', () => {
  it('says passkeys are not set up where PUBLIC_URL is not configured', async () => {
    const text = (await runCommand(passkeyCommand(deps), '')).ackText();
    expect(text).toBe('Passkeys are not set up here: PUBLIC_URL is not configured (docs/step-up.md).');
  });

  it('tells a non-approver who registers passkeys, privately', async () => {
    const { deps: withUrl } = listenerDeps({
      env: { PUBLIC_URL: 'https://rampart.example.com', STEP_UP_ABOVE: 'USDC=10000' },
      app: { approvals: { authorise: async () => ({ kind: 'not-approver' }) } },
    });
    const heard = await runCommand(passkeyCommand(withUrl), '');
    expect(heard.acks).toEqual([undefined]);
    expect(heard.said()).toEqual(['Only approvers register passkeys; ask an admin to add you to APPROVERS.']);
  });

  it('says nothing changed when the check fails, and logs why without showing it', async () => {
    const { deps: failing, logs } = listenerDeps({
      env: { PUBLIC_URL: 'https://rampart.example.com', STEP_UP_ABOVE: 'USDC=10000' },
      app: {
        approvals: {
          authorise: async () => {
            throw new Error('usergroups.users.list failed: ratelimited');
          },
        },
      },
    });
    const heard = await runCommand(passkeyCommand(failing), '');
    expect(heard.said()).toEqual([
      'Rampart could not answer /passkey just now; nothing changed. Try again in a minute.',
    ]);
    expect(logs.text).toContain('/passkey failed');
  });
});

describe('/resolve', () => {
  it('says a failed recording may be tried again, since a recorded one is never recorded twice', async () => {
    const { deps: failing } = listenerDeps({
      app: {
        executions: {
          resolve: async () => {
            throw new Error('connection reset');
          },
        },
      },
    });
    const heard = await runCommand(resolveCommand(failing), 'R-12.1 paid 0xabc123', { user: 'U0APPROVER1' });
    expect(heard.acks).toEqual([undefined]);
    expect(heard.said()).toEqual([
      'Rampart could not finish recording that just now; try again in a minute (a resolution already recorded is never recorded twice).',
    ]);
    expect(heard.said().join()).not.toContain('connection reset');
  });
});

describe('/report post', () => {
  it('names the channels where a report may be shared', async () => {
    const { deps: withChannel } = listenerDeps({ env: { REPORT_CHANNEL: 'C0REPORTS' } });
    const heard = await runCommand(reportCommand(withChannel), 'post', { channel: 'C0GENERAL' });
    expect(heard.said()).toEqual([
      'Reports are shared only in <#C0REPORTS> or <#C0APPROVALS>; type `/report … post` there, or leave out `post` to see it privately.',
    ]);
  });

  it('refuses a channel shared with another organisation', async () => {
    const heard = await runCommand(reportCommand(deps), '30d post', {
      channel: 'C0APPROVALS',
      answers: { 'conversations.info': () => ({ ok: true, channel: { is_ext_shared: true } }) },
    });
    expect(heard.said()).toEqual([
      'This channel is shared with another organisation (Slack Connect), so Rampart does not post treasury figures here; leave out `post` to see it privately.',
    ]);
  });
});

describe('/freeze and /unfreeze', () => {
  const freezing = (outcome: Record<string, unknown>) =>
    listenerDeps({ app: { freeze: { start: async () => outcome, proposeUnfreeze: async () => outcome } } }).deps;

  it('tells a non-approver who can freeze, naming the group as a group', async () => {
    const heard = await runCommand(freezeCommand(freezing({ kind: 'not-approver' })), 'incident');
    expect(heard.said()).toEqual([whoCanFreeze(deps.config.approvers)]);
    expect(heard.said()[0]).toBe(
      'Only approvers can freeze Rampart: <@U0APPROVER1>, <@U0APPROVER2>, <!subteam^S0TREASURY>. Ask one of them; nothing changed.',
    );
  });

  it('says who froze it and why when it is already frozen', async () => {
    const outcome = { kind: 'already', freeze: { by: 'U0APPROVER2', reason: 'key <rotation>' } };
    const heard = await runCommand(freezeCommand(freezing(outcome)), 'again', { user: 'U0APPROVER1' });
    expect(heard.said()).toEqual([
      'Rampart is already frozen by <@U0APPROVER2> (key &lt;rotation&gt;); nothing changed. Use /unfreeze to lift it.',
    ]);
  });

  it('asks for a reason when the freeze was made without one, and announces it in the approvals channel', async () => {
    const outcome = { kind: 'frozen', freeze: { by: 'U0APPROVER1', reason: '', at: 0 }, open: [] };
    const heard = await runCommand(freezeCommand(freezing(outcome)), '', { user: 'U0APPROVER1' });
    expect(heard.calls.map((c) => [c.method, c.args.channel])).toEqual([
      ['chat.postMessage', 'C0APPROVALS'],
      ['chat.postEphemeral', 'C0GENERAL'],
    ]);
    expect(heard.said()).toEqual([
      'Rampart is frozen: no approval and no execution until an unfreeze is approved. Add a reason so the team knows why: `/freeze <reason>`.',
    ]);
  });

  it('says there is nothing to unfreeze when Rampart is not frozen', async () => {
    const heard = await runCommand(unfreezeCommand(freezing({ kind: 'not-frozen' })), '', { user: 'U0APPROVER1' });
    expect(heard.said()).toEqual(['Rampart is not frozen; nothing to unfreeze.']);
  });
});
