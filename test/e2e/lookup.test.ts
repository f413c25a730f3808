/**
 * /lookup with no arguments: a small modal asks for the bank code and the account
 * number; a submission shows the bank and the holder in the modal, bad fields get field errors,
 * and service failures one clear sentence in the modal.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { StoredView } from '../../devkit/index.js';
import { blocksText, eventually, GENERAL, PEOPLE, readableTexts, SECRETS } from '../support/harness.js';
import { useHarness } from '../support/use-harness.js';

const ASKER = PEOPLE.requester;
const LOOKING_UP = 'Looking up…';

/** The readable texts of a view's blocks, joined. */
const viewText = (view: StoredView): string => readableTexts(view.blocks).join('\n');

/** One sentence that says what happened and what to do: no JSON, stack, HTML or secret. */
function expectCleanMessage(text: string): void {
  for (const bad of ['{', 'Error:', '    at ', '<html', ...SECRETS]) {
    expect(text).not.toContain(bad);
  }
}

function suite(name: string, extraEnv: Record<string, string> = {}) {
  const ctx = { h: useHarness(name, extraEnv) };
  afterAll(() => {
    const { h } = ctx;
    expect(h.fake.problems).toEqual([]);
    // Full account numbers are personal data (DESIGN invariant 6).
    expect(h.logs.text).not.toContain('0123456789');
  });

  /** `/lookup` with nothing after it; resolves to the form Slack shows. */
  async function openForm(user: string = ASKER): Promise<StoredView> {
    const { h } = ctx;
    const opened = h.fake.callsTo('views.open').length;
    const ack = await h.driver.command(user, '/lookup', '');
    expect(ack.status).toBe(200);
    expect(ack.body).toBe('');
    await eventually(() => h.fake.callsTo('views.open').length > opened, 3000, 'views.open');
    const form = h.fake.views(user).at(-1);
    if (!form) throw new Error('no lookup form open');
    expect(form.callback_id).toBe('lookup_modal');
    return form;
  }

  /** Submits the form; resolves to the ack and, once the result is in, the modal as Slack shows it. */
  async function submit(form: StoredView, values: Record<string, string>, user: string = ASKER) {
    const { h } = ctx;
    const ack = await h.driver.submitView(user, form, values);
    expect(ack.status).toBe(200);
    const shown = await eventually(
      () => {
        const view = h.fake.views(user).find((v) => v.id === form.id);
        return view && !viewText(view).includes(LOOKING_UP) ? view : undefined;
      },
      8000,
      'lookup result in the modal',
    );
    return { ack, shown, text: viewText(shown) };
  }

  return { ctx, openForm, submit };
}

describe('the /lookup modal', () => {
  const { ctx, openForm, submit } = suite('lookup');
  const lookups = () => ctx.h.sandbox.state.received.filter((r) => r.path === '/lookup');
  afterEach(() => ctx.h.sandbox.faults.reset());

  it('opens a small form asking for the bank code and the account number, calling nothing', async () => {
    const before = ctx.h.sandbox.state.received.length;
    const ephemerals = ctx.h.fake.ephemerals(ASKER).length;
    const form = await openForm();
    const inputs = form.blocks.map((b) => [b.type, b.block_id]);
    expect(inputs).toEqual([
      ['input', 'bank_code'],
      ['input', 'account_number'],
    ]);
    expect(form.submit).toMatchObject({ text: 'Look up' });
    expect(ctx.h.sandbox.state.received).toHaveLength(before);
    expect(ctx.h.fake.ephemerals(ASKER)).toHaveLength(ephemerals);
  });

  it('shows the bank and the account holder in the modal on submit, masking the number', async () => {
    const form = await openForm();
    const { ack, shown, text } = await submit(form, { bank_code: '058', account_number: '0123456789' });
    expect(ack.body).toMatchObject({ response_action: 'update' });
    expect(shown.id).toBe(form.id);
    expect(text).toContain('*ADAEZE OKAFOR*');
    expect(text).toContain('Guaranty Trust Bank (bank code 058)');
    expect(text).toContain('••••6789');
    expect(blocksText(shown)).not.toContain('0123456789');
    expect(shown.submit).toBeNull();
    expect(lookups().at(-1)?.body).toEqual({ bank_code: '058', account_number: '0123456789', currency: 'ngn' });
    // Nothing went to a channel.
    expect(ctx.h.fake.messages(GENERAL)).toHaveLength(0);
  });

  it('trims what was typed around the numbers', async () => {
    const form = await openForm();
    const { text } = await submit(form, { bank_code: ' 044 ', account_number: ' 1234567890\n' });
    expect(text).toContain('*LAGOS LOGISTICS LTD*');
    expect(text).toContain('Access Bank (bank code 044)');
  });

  it('keeps the form open with an error on each bad field, calling nothing', async () => {
    const form = await openForm();
    const before = lookups().length;
    const both = await ctx.h.driver.submitView(ASKER, form, { bank_code: 'GTB', account_number: '12345' });
    expect(both.body).toEqual({
      response_action: 'errors',
      errors: {
        bank_code: 'A bank code is 3 to 6 digits, e.g. 058.',
        account_number: 'A Nigerian account number (NUBAN) has exactly 10 digits.',
      },
    });
    const one = await ctx.h.driver.submitView(ASKER, form, { bank_code: '058', account_number: '01234567890' });
    expect(one.body).toEqual({
      response_action: 'errors',
      errors: { account_number: 'A Nigerian account number (NUBAN) has exactly 10 digits.' },
    });
    const empty = await ctx.h.driver.submitView(ASKER, form, {});
    expect(Object.keys((empty.body as { errors: object }).errors).sort()).toEqual(['account_number', 'bank_code']);
    expect(ctx.h.fake.views(ASKER).at(-1)?.callback_id).toBe('lookup_modal');
    expect(lookups()).toHaveLength(before);
  });

  it("puts the bank's 'no such account' on the account number field, where it can be corrected", async () => {
    const form = await openForm();
    const ack = await ctx.h.driver.submitView(ASKER, form, { bank_code: '058', account_number: '0000000000' });
    const errors = (ack.body as { response_action?: string; errors?: Record<string, string> }).errors;
    expect(ack.body).toMatchObject({ response_action: 'errors' });
    expect(Object.keys(errors ?? {})).toEqual(['account_number']);
    const message = errors?.account_number ?? '';
    expect(message).toContain('No account ••••0000 at bank 058');
    expect(message).toContain('the service said “account not found”');
    expect(message).toContain('check both numbers with the account holder');
    expectCleanMessage(message);
    expect(ctx.h.fake.views(ASKER).at(-1)?.callback_id).toBe('lookup_modal');
  });

  it('says in the modal that the service failed on a 5xx, without its HTML page', async () => {
    ctx.h.sandbox.faults.failNext('/lookup', 3, { status: 503, body: 'html' });
    const form = await openForm();
    const { text } = await submit(form, { bank_code: '058', account_number: '0123456789' });
    expect(text).toContain(
      'The wallet service failed (HTTP 503). Try again in a minute; if it keeps happening, tell on-call.',
    );
    expectCleanMessage(text);
  });

  it("passes on the service's message on a 5xx with a JSON body", async () => {
    ctx.h.sandbox.faults.failNext('/lookup', 3, { status: 500, body: 'json' });
    const form = await openForm();
    const { text } = await submit(form, { bank_code: '058', account_number: '0123456789' });
    expect(text).toContain('The wallet service failed (HTTP 500): “internal error (injected by the sandbox)”.');
    expectCleanMessage(text);
  });

  it('says "Looking up…" at once when the service is slow, then shows the result in the same modal', async () => {
    ctx.h.sandbox.faults.latency(2500);
    const form = await openForm();
    const ack = await ctx.h.driver.submitView(ASKER, form, { bank_code: '057', account_number: '2233445566' });
    expect(ack.ackMs).toBeLessThan(3000);
    expect(ack.body).toMatchObject({ response_action: 'update' });
    expect(JSON.stringify(ack.body)).toContain(LOOKING_UP);
    const result = await eventually(
      () => {
        const view = ctx.h.fake.views(ASKER).find((v) => v.id === form.id);
        return view && viewText(view).includes('CHINEDU BELLO') ? view : undefined;
      },
      8000,
      'late lookup result',
    );
    expect(viewText(result)).toContain('Zenith Bank (bank code 057)');
    expect(ctx.h.fake.callsTo('views.update').at(-1)?.args.view_id).toBe(form.id);
  });

  it('tells the asker, with the typed form of the command, when Slack will not open the form', async () => {
    ctx.h.fake.rateLimitNext('views.open', 1);
    const before = ctx.h.fake.ephemerals(ASKER).length;
    const ack = await ctx.h.driver.command(ASKER, '/lookup', '');
    expect(ack.status).toBe(200);
    const answer = await eventually(() => ctx.h.fake.ephemerals(ASKER)[before], 5000, 'fallback answer');
    expect(answer.text).toBe(
      'Slack could not open the lookup form just now; type the bank code and account number instead.',
    );
    expect(blocksText(answer)).toContain('Example: `/lookup 058 0123456789`');
  });
});

describe('the /lookup modal when the service is slow or down', () => {
  const { ctx, openForm, submit } = suite('lookup-outage', { SERVICE_READ_TIMEOUT: '300ms' });

  it('says in the modal that the service did not answer in time', async () => {
    // undici checks response time-outs on a coarse (about 1 s) timer: stay well above it.
    ctx.h.sandbox.faults.latency(3000);
    const form = await openForm();
    const { ack, text } = await submit(form, { bank_code: '058', account_number: '0123456789' });
    expect(ack.ackMs).toBeLessThan(3000);
    expect(text).toContain(
      'The wallet service did not answer in time. Try again in a minute; if it keeps happening, tell on-call.',
    );
    expectCleanMessage(text);
    ctx.h.sandbox.faults.latency(0);
  });

  it('says in the modal that the service cannot be reached when it is down', async () => {
    await ctx.h.sandbox.close();
    const form = await openForm();
    const { text } = await submit(form, { bank_code: '058', account_number: '0123456789' });
    expect(text).toContain(
      'The wallet service cannot be reached right now. Try again in a minute; if it keeps happening, tell on-call.',
    );
    expectCleanMessage(text);
  });
});
