/**
 * The card's warnings about earlier payments, end to end
 * through signed Slack requests: a repeat of a succeeded payment within BATCH_REPEAT_WINDOW, a
 * repeat of an UNKNOWN one first and in bold, nothing outside the window, the same file after a
 * denied batch, a single card's repeat line, and Approve with warnings confirmed in the history.
 */
import { describe, expect, it } from 'vitest';
import { findElement } from '../../devkit/index.js';
import { submitBatchFile, waitForApproval } from '../support/batches.js';
import { PEOPLE } from '../support/harness.js';
import { click, currentCard, openDeny, postRequest, quiescent, waitForState } from '../support/requests.js';
import { seedBeneficiary, seedIdentity } from '../support/seed-service.js';
import { useHarness } from '../support/use-harness.js';

const PAID = '0x52908400098527886E0F7030069857D2E4169EE7';
const LOST = '0x99ED2e97162533BA814aF8092b93b9a3090DEdcF';
const DAY = 86_400_000;

/** The app's clock runs `ahead` ms ahead of real time (to step outside the repeat window). */
let ahead = 0;

const h = useHarness(
  'batch-warnings',
  { BATCH_RATE: 'off' },
  { rampart: { infra: { clock: () => Date.now() + ahead } } },
);

/** The card's section texts, one string (the warnings and the preview are sections). */
const cardText = (id: string): string =>
  (currentCard(h, id).blocks ?? []).map((b) => (b as { text?: { text?: string } }).text?.text ?? '').join('\n');

type Button = { value?: string; confirm?: { title: { text: string }; text: { text: string } } };
const approveButton = (id: string) =>
  findElement(currentCard(h, id).blocks ?? [], 'request_approve')?.element as Button | undefined;

async function approveAndWait(id: string, state: 'succeeded' | 'unknown') {
  await click(h, PEOPLE.approver1, id, 'request_approve');
  await waitForState(h, id, state);
  await quiescent(h);
}

const transfer = (amount: number, to: string, why: string) =>
  postRequest(h, 'transfer', `${amount} base:usdc to ${to} from ops for ${why}`);

describe('repeats on a single card', () => {
  it('a second identical transfer names the first (succeeded); Approve asks to confirm and the history records it', async () => {
    const first = await transfer(21, PAID, 'first payment');
    expect(cardText(first.id)).not.toContain('repeats');
    expect(approveButton(first.id)?.value).toBe(first.id);
    await approveAndWait(first.id, 'succeeded');

    const second = await transfer(21, PAID.toLowerCase(), 'the same again');
    expect(cardText(second.id)).toContain(
      `:warning: *Repeat:* this payment repeats ${first.id}.1 (succeeded, requested a minute before this one)`,
    );
    const button = approveButton(second.id);
    expect(button?.value).toBe(`${second.id} warnings-checked`);
    expect(button?.confirm?.title.text).toBe('Checked the warnings?');
    expect(button?.confirm?.text.text).toContain(`I checked ${first.id}.1, which this payment repeats.`);
    await approveAndWait(second.id, 'succeeded');
    const votes = (id: string) => h.rampart.deps.store.history(id).then((e) => e.filter((x) => x.event === 'approval'));
    expect(await votes(second.id)).toMatchObject([{ by: PEOPLE.approver1, detail: 'warnings checked' }]);
    expect((await votes(first.id))[0]?.detail).toBeUndefined();
  });
});

describe('repeats on a batch card', () => {
  it('a repeat of an UNKNOWN payment comes first and in bold, then a repeat of a succeeded one; flagged rows lead the preview', async () => {
    const lost = await transfer(31, LOST, 'lost in the service');
    h.sandbox.faults.failNext('/transfer', 1, { status: 500, body: 'json' });
    await approveAndWait(lost.id, 'unknown');
    const paid = await transfer(32, PAID, 'paid before');
    await approveAndWait(paid.id, 'succeeded');

    // Row 2 and 3 pay a known address new amounts (no warning); row 4 repeats the succeeded
    // payment; row 5 the unknown one.
    const csv = `receiver,amount\n${PAID},1\n${PAID},2\n${PAID},32\n${LOST},31\n`;
    const id = await submitBatchFile(h, csv);
    const text = cardText(id);
    const warnings = text.slice(text.indexOf(':rotating_light:'));
    expect(warnings.split('\n')[0]).toBe(
      `:rotating_light: *row 5 repeats ${lost.id}.1, whose outcome is UNKNOWN — check it first*`,
    );
    expect(warnings.split('\n')[1]).toMatch(
      new RegExp(
        `^:warning: \\*Repeat:\\* row 4 repeats ${paid.id}\\.1 \\(succeeded, requested (a minute|\\d+ minutes) before this batch\\)$`,
      ),
    );
    expect(text).toContain(':warning: *New destinations:* row 5 pays an address Rampart has never paid');
    const preview = text.slice(text.indexOf('Rows, flagged first:')).split('\n').slice(1, 5);
    expect(preview.map((l) => l.split(' · ')[0])).toEqual(['row 5', 'row 4', 'row 2', 'row 3']);
    expect(approveButton(id)?.confirm?.text.text).toContain(
      'I checked rows 4 and 5 (repeats) and row 5 (new destination).',
    );
  });

  it('the same file after a denied batch names the earlier batch and its state', async () => {
    const csv = `receiver,amount\n${PAID},41\n${PAID},42\n`;
    const first = await submitBatchFile(h, csv);
    expect(cardText(first)).not.toContain('Same file');
    const modal = await openDeny(h, PEOPLE.approver1, first);
    await h.driver.submitView(PEOPLE.approver1, modal, { reason: 'wrong month' });
    await waitForApproval(h, first, 'denied');
    // The same payments in another order are the same file.
    const again = await submitBatchFile(h, `receiver,amount\n${PAID},42\n${PAID},41\n`);
    expect(cardText(again)).toMatch(
      new RegExp(
        `:warning: \\*Same file:\\* the same payments \\(kind, wallet, asset, destinations and amounts\\) were submitted as ${first}, (a minute|\\d+ minutes) before this batch; it is denied`,
      ),
    );
    // Denied rows moved nothing: they are no repeats.
    expect(cardText(again)).not.toContain('*Repeat:*');
    expect(approveButton(again)?.confirm?.text.text).toContain(`I checked the earlier ${first} (same file).`);
  });
});

describe('new destinations in an offramp batch', () => {
  it('flags a beneficiary Rampart has never paid, and no longer one an earlier batch paid', async () => {
    const identity = await seedIdentity(h.sandbox, 'Ada Obi', '22212345678', '01-02-1990');
    const [paid, fresh] = [
      await seedBeneficiary(h.sandbox, identity, '058', '0123456789'),
      await seedBeneficiary(h.sandbox, identity, '044', '0987654321'),
    ];
    for (const [id, label] of [
      [paid, 'ada-gtb'],
      [fresh, 'ada-access'],
    ] as const)
      await h.rampart.deps.registry.addBeneficiary({
        id,
        label,
        identityId: identity,
        identityName: 'Ada Obi',
        bankName: 'Bank',
        accountMasked: '••••6789',
        holderName: 'ADA OBI',
        createdBy: PEOPLE.requester,
        approvedBy: PEOPLE.approver1,
        createdAt: Date.now(),
        requestId: 'R-1',
      });
    const first = await submitBatchFile(h, 'beneficiary,amount\nada-gtb,10\n', PEOPLE.requester, 'a.csv', 'offramps');
    expect(cardText(first)).toContain(':warning: *New destinations:* row 2 pays a beneficiary Rampart has never paid');
    await click(h, PEOPLE.approver1, first, 'request_approve');
    await waitForApproval(h, first, 'done');
    await quiescent(h);
    const second = await submitBatchFile(
      h,
      'beneficiary,amount\nada-gtb,11\nada-access,12\n',
      PEOPLE.requester,
      'b.csv',
      'offramps',
    );
    expect(cardText(second)).toContain(':warning: *New destinations:* row 3 pays a beneficiary Rampart has never paid');
  });
});

describe('the repeat window', () => {
  it('a payment requested before BATCH_REPEAT_WINDOW (7 days) is not a repeat', async () => {
    const before = await transfer(51, PAID, 'last week');
    ahead = 7 * DAY + 60_000;
    const after = await transfer(51, PAID, 'this week');
    expect(cardText(after.id)).not.toContain('repeats');
    expect(approveButton(after.id)?.value).toBe(after.id);
    // Within the window it would have been: the earlier one is still pending.
    expect((await h.rampart.deps.store.get(before.id))?.state).toBe('pending');
  });
});
