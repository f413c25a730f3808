/**
 * /balance, /rate and /lookup through signed slash commands: answers reach only the
 * person who asked, through the response_url, with figures as the service holds them; bad input
 * and every kind of service failure get one clear sentence.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SlackDriver, StoredEphemeral } from '../../devkit/index.js';
import {
  BOT_TOKEN,
  blocksText,
  driverFor,
  eventually,
  GENERAL,
  PEOPLE,
  readableTexts,
  SERVICE_KEY,
  SIGNING_SECRET,
} from '../support/harness.js';
import { useHarness } from '../support/use-harness.js';

const ASKER = PEOPLE.requester;

/** Every text a person can read in the blocks of a message (mrkdwn and plain). */
const blockTexts = (m: { blocks?: unknown[] }): string[] => readableTexts(m.blocks ?? []);

/** The notification text and the text of every block. */
const texts = (m: { text?: string; blocks?: unknown[] }): string[] => [...(m.text ? [m.text] : []), ...blockTexts(m)];

const headers = (m: { blocks?: unknown[] }): string[] =>
  (m.blocks ?? []).flatMap((b) => {
    const block = b as { type?: string; text?: { text?: string } };
    return block.type === 'header' && block.text?.text ? [block.text.text] : [];
  });

/** The message says what went wrong and what to do in one line: no JSON, stack, HTML or secret. */
function expectOneClearSentence(answer: StoredEphemeral): string {
  const sentence = answer.text;
  expect(sentence).toMatch(/^[A-Z"].{20,300}[.!]$/);
  expect(sentence).not.toContain('\n');
  const readable = texts(answer).join('\n');
  expect(readable).toContain(sentence);
  for (const bad of ['{', 'Error:', '    at ', '<html', 'undefined', SERVICE_KEY, BOT_TOKEN, SIGNING_SECRET]) {
    expect(readable).not.toContain(bad);
  }
  return sentence;
}

/** The parsed value of the "Share in channel" button, or undefined when there is none. */
function shareValue(answer: StoredEphemeral): unknown {
  for (const b of answer.blocks) {
    const elements = (b as { elements?: { action_id?: string; value?: string }[] }).elements ?? [];
    const button = elements.find((e) => e.action_id === 'share_in_channel');
    if (button?.value !== undefined) return JSON.parse(button.value);
  }
  return undefined;
}

/** `<!date^SECONDS^…>` in the answer: when the figures were fetched. */
function fetchedAtSeconds(answer: StoredEphemeral): number {
  const m = /<!date\^(\d+)\^/.exec(blocksText(answer));
  if (!m?.[1]) throw new Error('no fetch time in the answer');
  return Number(m[1]);
}

function suite(name: string, extraEnv: Record<string, string> = {}) {
  const ctx = { h: useHarness(name, extraEnv) };
  /**
   * `/command text` by `user`; resolves to the one answer that reached them. Checks it went to
   * them alone: an ephemeral for the asker, nothing posted in the channel.
   */
  async function ask(command: string, text: string, user: string = ASKER, driver?: SlackDriver) {
    const { h } = ctx;
    const before = h.fake.ephemerals(user).length;
    const inChannel = h.fake.messages(GENERAL).length;
    const ack = await (driver ?? h.driver).command(user, command, text);
    expect(ack.status).toBe(200);
    const answer = await eventually(() => h.fake.ephemerals(user)[before], 8000, `answer to ${command} ${text}`);
    expect(answer.recipient).toBe(user);
    expect(answer.channel).toBe(GENERAL);
    expect(h.fake.messages(GENERAL)).toHaveLength(inChannel);
    expect(h.fake.callsTo('chat.postMessage')).toHaveLength(0);
    return { ack, answer, readable: texts(answer).join('\n') };
  }
  /** `/command text` is answered with one clear sentence holding each of `parts`; the sentence and the answer's text. */
  async function askSentence(command: string, text: string, ...parts: string[]) {
    const { answer, readable } = await ask(command, text);
    const sentence = expectOneClearSentence(answer);
    for (const part of parts) expect(sentence).toContain(part);
    return { sentence, readable };
  }
  return { ctx, ask, askSentence };
}

describe('read-only commands against a healthy service', () => {
  const { ctx, ask, askSentence } = suite('read-only');
  const sandbox = () => ctx.h.sandbox;
  const received = (path: string) => sandbox().state.received.filter((r) => r.path === path).length;
  afterEach(() => sandbox().faults.reset());

  describe('/balance', () => {
    it('shows one wallet by alias: aligned figures with separators and codes, linked addresses, state and capabilities', async () => {
      const { ack, answer, readable } = await ask('/balance', 'ops');
      expect(ack.body).toBe('');
      // Delivered through the response_url, as an ephemeral.
      const posted = ctx.h.fake.callsTo('response_url').at(-1);
      expect(posted?.args.response_type).toBe('ephemeral');
      expect(posted?.status).toBe(200);

      expect(readable).toContain('Wallet ops (wal_ops_7f3a)');
      // One line per asset; balance only when it differs, debt only when owed.
      const lines = blockTexts(answer)
        .find((t) => t.includes('available on'))
        ?.split('\n');
      expect(lines).toEqual([
        '*120,000.50 USDC* available on Base · balance 125,400.50',
        '*48,250.00 USDC* available on Solana',
        '*29,500.25 USDT* available on Ethereum · balance 30,000.00',
        '*14,000,000.00 cNGN* available on BNB Smart Chain · balance 15,000,000.00 · :warning: debt 250,000.00',
      ]);
      expect(readable).toContain(
        '<https://etherscan.io/address/0x6Be7E73f4A1264E8EF4C486e42C78f33D5Dc5344|0x6Be7E73f4A1264E8EF4C486e42C78f33D5Dc5344>',
      );
      expect(readable).toContain(
        '<https://solscan.io/account/CinVW8Y4g8PeYfQva7fwvzTi8yR9jKTpHCDMXXPUYS4E|CinVW8Y4g8PeYfQva7fwvzTi8yR9jKTpHCDMXXPUYS4E>',
      );
      expect(readable).toContain(':large_green_circle: Active · can transfer, swap, offramp');
      // A debt is flagged, naming the asset; an active wallet is not flagged inactive.
      expect(readable).toContain(':warning: *Debt:* 250,000.00 cNGN on BNB Smart Chain.');
      expect(readable).not.toContain('Inactive');
      expect(shareValue(answer)).toEqual({ command: 'balance', args: 'ops' });
    });

    it('with no argument shows every configured wallet in order and flags the inactive one', async () => {
      const started = Math.floor(Date.now() / 1000);
      const { answer, readable } = await ask('/balance', '');
      expect(headers(answer)).toEqual([
        'Wallet ops (wal_ops_7f3a)',
        'Wallet treasury (wal_treasury_91c2)',
        'Wallet payroll (wal_payroll_44d0)',
        'Wallet legacy (wal_legacy_0b19)',
      ]);
      expect(readable).toContain(':red_circle: Inactive · can transfer; cannot swap, offramp');
      expect(readable).toContain(':no_entry: *Inactive*: nothing can be sent from this wallet.');
      expect(readable.match(/\*Inactive\*/g)).toHaveLength(1);
      expect(readable.match(/\*Debt:\*/g)).toHaveLength(1);
      expect(readable).toContain(':large_green_circle: Active · can transfer');
      expect(readable).toContain('*80,000,000.00 cNGN* available on Base');
      expect(readable).toContain('*1,200.00 USDC* available on Optimism');
      expect(fetchedAtSeconds(answer)).toBeGreaterThanOrEqual(started);
      expect(fetchedAtSeconds(answer)).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
      expect(shareValue(answer)).toEqual({ command: 'balance', args: '' });
    });

    it('accepts a wallet id and names its alias', async () => {
      const { readable } = await ask('/balance', 'wal_treasury_91c2');
      expect(readable).toContain('Wallet treasury (wal_treasury_91c2)');
      expect(readable).toMatch(/\*2,400,000\.00 USDC\* available on Ethereum · balance 2,500,000\.00/);
    });

    it('answers `help` with the usage and an example in the ack, calling nothing', async () => {
      const calls = sandbox().state.received.length;
      const { ack, answer } = await ask('/balance', 'help');
      expect(ack.body).toMatchObject({ response_type: 'ephemeral' });
      expect(answer.text).toContain('Usage: `/balance [wallet]`');
      expect(answer.text).toContain('Example: `/balance ops`');
      expect(sandbox().state.received).toHaveLength(calls);
    });

    it('answers malformed input with one sentence and the usage', async () => {
      const calls = sandbox().state.received.length;
      const { answer, readable } = await ask('/balance', 'ops treasury');
      expect(expectOneClearSentence(answer)).toBe('Give one wallet at most.');
      expect(readable).toContain('Example: `/balance ops`');
      expect(sandbox().state.received).toHaveLength(calls);
    });

    it('names the configured aliases when the wallet is unknown', async () => {
      const { readable } = await askSentence(
        '/balance',
        'opz',
        '"opz" is neither a configured wallet (ops, treasury, payroll, legacy)',
        'check the spelling',
      );
      expect(readable).toContain('Example: `/balance ops`');
    });

    it("passes on the service's message for a wallet id it does not know (HTTP 404)", async () => {
      await askSentence('/balance', 'wal_nope', '"wal_nope"', 'the service said “wallet wal_nope not found”');
    });

    it('reads a wallet record once for two /balance in a row, and its balances each time', async () => {
      const wallets = received('/wallet');
      const balances = received('/balances');
      await ask('/balance', 'payroll');
      const { readable } = await ask('/balance', 'payroll');
      expect(readable).toContain('Wallet payroll (wal_payroll_44d0)');
      expect(received('/balances')).toBe(balances + 2);
      // One read, or none when an earlier test of this file read it within the last 30 s.
      expect(received('/wallet') - wallets).toBeLessThanOrEqual(1);
    });

    it('says the service failed, without its HTML error page, on a 5xx', async () => {
      sandbox().faults.failNext('/balances', 10, { status: 503, body: 'html' });
      const { answer } = await ask('/balance', 'ops');
      expect(expectOneClearSentence(answer)).toBe(
        'The wallet service failed (HTTP 503). Try again in a minute; if it keeps happening, tell on-call.',
      );
      expect(received('/balances')).toBeGreaterThanOrEqual(1);
    });

    it('still shows the other wallets when the service fails for one of them, naming it', async () => {
      // Four wallets, three tries each: nine failures leave exactly one wallet without balances.
      sandbox().faults.failNext('/balances', 9, { status: 502, body: 'empty' });
      const { answer, readable } = await ask('/balance', '');
      expect(headers(answer)).toHaveLength(3);
      const failed = readable.match(
        /:warning: \*(ops|treasury|payroll|legacy)\*: The wallet service failed \(HTTP 502\)\./g,
      );
      expect(failed).toHaveLength(1);
    });
  });

  describe('/rate', () => {
    it('shows the NGN onramp rate with separators and when it was fetched', async () => {
      const started = Math.floor(Date.now() / 1000);
      const { answer, readable } = await ask('/rate', '');
      expect(readable).toContain('*1 USDC ≈ ₦1,532.75* (onramp rate, NGN)');
      expect(fetchedAtSeconds(answer)).toBeGreaterThanOrEqual(started);
      expect(fetchedAtSeconds(answer)).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
      expect(shareValue(answer)).toEqual({ command: 'rate', args: '' });
      const asked = sandbox()
        .state.received.filter((r) => r.path === '/rate/onramp')
        .at(-1);
      expect(asked?.query).toEqual({ currency: 'ngn' });
    });

    it('accepts the currency in any case', async () => {
      const { readable } = await ask('/rate', 'ngn');
      expect(readable).toContain('*1 USDC ≈ ₦1,532.75* (onramp rate, NGN)');
    });

    it('refuses an unknown currency with one sentence and the usage, asking the service nothing', async () => {
      const calls = received('/rate/onramp');
      const { answer, readable } = await ask('/rate', 'usd');
      expect(expectOneClearSentence(answer)).toBe('"usd" is not a currency the service quotes; the only one is NGN.');
      expect(readable).toContain('Example: `/rate NGN`');
      expect(received('/rate/onramp')).toBe(calls);
    });

    it('answers `help` with the usage', async () => {
      const { ack } = await ask('/rate', 'help');
      expect(ack.body).toMatchObject({ text: expect.stringContaining('Example: `/rate NGN`') });
    });

    it("passes on the service's message on a 5xx with a JSON body", async () => {
      sandbox().faults.failNext('/rate/onramp', 3, { status: 500, body: 'json' });
      const { answer } = await ask('/rate', '');
      expect(expectOneClearSentence(answer)).toBe(
        'The wallet service failed (HTTP 500): “internal error (injected by the sandbox)”. Try again in a minute; if it keeps happening, tell on-call.',
      );
    });

    it('says the service refused, with its message, on another 4xx', async () => {
      sandbox().faults.failNext('/rate/onramp', 1, { status: 422, body: 'json' });
      const calls = received('/rate/onramp');
      await askSentence(
        '/rate',
        '',
        'The wallet service refused the request: “internal error (injected by the sandbox)”.',
      );
      // A refusal is final: asked once, not retried.
      expect(received('/rate/onramp')).toBe(calls + 1);
    });
  });

  describe('/lookup with arguments', () => {
    it('shows the bank and the account holder, masking the account number, with nothing to share', async () => {
      const { answer, readable } = await ask('/lookup', '058 0123456789');
      expect(readable).toContain('*ADAEZE OKAFOR*');
      expect(readable).toContain('Guaranty Trust Bank (bank code 058)');
      expect(readable).toContain('••••6789');
      expect(readable).not.toContain('0123456789');
      expect(shareValue(answer)).toBeUndefined();
      const asked = sandbox()
        .state.received.filter((r) => r.path === '/lookup')
        .at(-1);
      expect(asked?.body).toEqual({ bank_code: '058', account_number: '0123456789', currency: 'ngn' });
    });

    it('refuses an account number that is not a 10-digit NUBAN, asking the service nothing', async () => {
      const calls = received('/lookup');
      const { answer, readable } = await ask('/lookup', '058 12345');
      expect(expectOneClearSentence(answer)).toBe(
        'A Nigerian account number (NUBAN) has exactly 10 digits; "12345" has 5.',
      );
      expect(readable).toContain('Example: `/lookup 058 0123456789`');
      const letters = await ask('/lookup', '058 01234x6789');
      expect(expectOneClearSentence(letters.answer)).toContain('has other characters');
      expect(received('/lookup')).toBe(calls);
    });

    it('answers a missing account number with the usage, placeholders escaped for mrkdwn', async () => {
      const { answer, readable } = await ask('/lookup', '058');
      expect(expectOneClearSentence(answer)).toBe('Give a bank code and an account number.');
      expect(readable).toContain('`/lookup &lt;bank_code&gt; &lt;account_number&gt;`');
    });

    it('says when the bank has no such account', async () => {
      await askSentence(
        '/lookup',
        '058 0000000000',
        'No account ••••0000 at bank 058',
        'check both numbers with the account holder',
      );
    });

    it('answers `help` with the usage', async () => {
      const { answer } = await ask('/lookup', 'help');
      expect(answer.text).toContain('Example: `/lookup 058 0123456789`');
    });

    it('says the service failed on a 5xx with an empty body', async () => {
      sandbox().faults.failNext('/lookup', 3, { status: 502, body: 'empty' });
      const { answer } = await ask('/lookup', '058 0123456789');
      expect(expectOneClearSentence(answer)).toBe(
        'The wallet service failed (HTTP 502). Try again in a minute; if it keeps happening, tell on-call.',
      );
    });
  });

  describe('Share in channel', () => {
    it('posts a fresh /rate answer in the channel, naming who shared it; the ephemeral stays', async () => {
      const { answer } = await ask('/rate', '');
      const before = ctx.h.fake.messages(GENERAL).length;
      const click = await ctx.h.driver.click(ASKER, { action_id: 'share_in_channel', message: answer });
      expect(click.status).toBe(200);
      const shared = await eventually(() => ctx.h.fake.messages(GENERAL)[before], 5000, 'shared message');
      const readable = texts(shared).join('\n');
      expect(readable).toContain('*1 USDC ≈ ₦1,532.75* (onramp rate, NGN)');
      expect(readable).toContain(`Shared by <@${ASKER}> from \`/rate\``);
      expect(JSON.stringify(shared.blocks)).not.toContain('share_in_channel');
      expect(ctx.h.fake.ephemerals(ASKER).some((e) => e.ts === answer.ts)).toBe(true);
    });

    it('posts the one wallet that was asked for', async () => {
      const { answer } = await ask('/balance', 'payroll');
      const before = ctx.h.fake.messages(GENERAL).length;
      await ctx.h.driver.click(ASKER, { action_id: 'share_in_channel', message: answer });
      const shared = await eventually(() => ctx.h.fake.messages(GENERAL)[before], 5000, 'shared message');
      const readable = texts(shared).join('\n');
      expect(readable).toContain('Wallet payroll (wal_payroll_44d0)');
      expect(readable).not.toContain('Wallet ops');
      expect(readable).toContain(`Shared by <@${ASKER}> from \`/balance payroll\``);
    });
  });

  describe('many wallets', () => {
    it("keeps a /balance of every wallet within Slack's 50 blocks and names the wallets not shown", async () => {
      const { h } = ctx;
      const wallets = Array.from({ length: 14 }, (_, i) => `w${i + 1}=wal_ops_7f3a`).join(',');
      const other = await h.startAnother({ ROLE: 'web', WALLETS: wallets });
      const driver = driverFor(h.fake, other.port);
      const { answer, readable } = await ask('/balance', '', ASKER, driver);
      expect(answer.blocks.length).toBeLessThanOrEqual(50);
      const shown = headers(answer);
      expect(shown.length).toBeGreaterThanOrEqual(10);
      const hidden = Array.from({ length: 14 - shown.length }, (_, i) => `w${shown.length + i + 1}`);
      expect(readable).toContain(`${hidden.length} more wallets not shown here: ${hidden.join(', ')}.`);
      expect(readable).toContain('`/balance &lt;wallet&gt;`');
      expect(h.fake.violations).toEqual([]);
      expect(Math.max(...driver.ackTimes)).toBeLessThan(3000);
    });
  });
});

describe('read-only commands when the service is slow or down', () => {
  const { ctx, ask } = suite('read-only-outage', { SERVICE_READ_TIMEOUT: '300ms' });
  const TIMED_OUT =
    'The wallet service did not answer in time. Try again in a minute; if it keeps happening, tell on-call.';
  const DOWN =
    'The wallet service cannot be reached right now. Try again in a minute; if it keeps happening, tell on-call.';

  // Four people ask at once, so the three tries of each read overlap.
  const askers = [PEOPLE.requester, PEOPLE.approver1, PEOPLE.approver2, PEOPLE.outsider] as const;

  it('acks at once and then says the service did not answer in time', async () => {
    // undici checks response time-outs on a coarse (about 1 s) timer: stay well above it.
    ctx.h.sandbox.faults.latency(3000);
    const commands = [
      ['/balance', 'ops'],
      ['/balance', ''],
      ['/rate', ''],
      ['/lookup', '058 0123456789'],
    ] as const;
    const answers = await Promise.all(commands.map(([command, text], i) => ask(command, text, askers[i])));
    for (const { ack, answer } of answers) {
      expect(ack.ackMs).toBeLessThan(3000);
      expect(expectOneClearSentence(answer)).toBe(TIMED_OUT);
    }
    ctx.h.sandbox.faults.latency(0);
  });

  it('says the service cannot be reached when it is down', async () => {
    await ctx.h.sandbox.close();
    const commands = [
      ['/balance', 'treasury'],
      ['/balance', ''],
      ['/rate', 'NGN'],
      ['/lookup', '044 1234567890'],
    ] as const;
    const answers = await Promise.all(commands.map(([command, text], i) => ask(command, text, askers[i])));
    for (const { answer } of answers) expect(expectOneClearSentence(answer)).toBe(DOWN);
  });
});
