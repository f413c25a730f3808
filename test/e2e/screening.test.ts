/**
 * Screening through signed Slack requests: a listed address is refused at submission in any
 * letter case, from the form and from a batch row, naming the list and its date; an address
 * listed between the votes of a 2-approval request is never paid (the start script cancels it,
 * gives its velocity back and says so to the approvers and SCREENING_NOTIFY); a batch pauses on
 * such a row; the cards say what was screened, or plainly what was not.
 */
import { describe, expect, it } from 'vitest';
import { addresses, submitBatchFile, transfersCsv, waitForApproval } from '../support/batches.js';
import { APPROVALS, blocksText, eventually, PEOPLE } from '../support/harness.js';
import {
  click,
  currentCard,
  postRequest,
  quiescent,
  RECEIVER,
  SOLANA_RECEIVER,
  serviceCalls,
  submitRequest,
  threadOf,
  waitForState,
} from '../support/requests.js';
import { loadScreeningList } from '../support/screening.js';
import { useHarness } from '../support/use-harness.js';

const COMPLIANCE = 'C0COMPLIANCE';
const h = useHarness('screening', {
  TWO_APPROVALS_ABOVE: 'USDC=100',
  VELOCITY_LIMITS: 'ops:USDC=100000/24h',
  SCREENING_NOTIFY: COMPLIANCE,
});

const loadList = loadScreeningList;

const refusalOf = (body: unknown) => (body as { errors?: Record<string, string> }).errors?.receiver;
const LISTED_SENTENCE =
  'This address is on the OFAC SDN list of 2026-11-20, so Rampart will not pay it; check the destination with compliance.';
const LOWER_LISTED = addresses(1, 7)[0] ?? '';

describe('screening', () => {
  it('says plainly that nothing was screened while no list is loaded', async () => {
    const { id } = await postRequest(h, 'transfer', `5 base:usdc to ${RECEIVER} from ops for before any list`);
    expect(blocksText(currentCard(h, id))).toContain('⚠️ Not screened: no list loaded');
    await click(h, PEOPLE.requester, id, 'request_cancel');
  });

  it('refuses a checksummed listed address typed lower- or upper-case, and a lower-case listed one typed checksummed', async () => {
    await loadList(h, '2026-11-20', [RECEIVER, LOWER_LISTED]);
    const upper = `0x${RECEIVER.slice(2).toUpperCase()}`;
    for (const typed of [RECEIVER.toLowerCase(), upper, RECEIVER]) {
      const r = await submitRequest(h, 'transfer', `5 base:usdc to ${typed} from ops for listed`);
      expect(refusalOf(r.body), typed).toBe(LISTED_SENTENCE);
    }
    // A capital 0X prefix is refused as a malformed address (never rewritten), so never paid.
    const capital = await submitRequest(
      h,
      'transfer',
      `5 base:usdc to 0X${RECEIVER.slice(2).toUpperCase()} from ops for listed`,
    );
    expect(refusalOf(capital.body)).toBe(
      'It starts with a capital 0X: an EVM address starts with a lower-case 0x, followed by 40 hexadecimal characters. (base:usdc is on Base)',
    );
    // The same EVM address on another EVM chain is the same account.
    const other = await submitRequest(h, 'transfer', `5 ethereum:usdc to ${RECEIVER} from treasury for listed`);
    expect(refusalOf(other.body), JSON.stringify(other.body)).toBe(LISTED_SENTENCE);
    const { toChecksumAddress } = await import('../../src/domain/address.js');
    const checksummed = await submitRequest(
      h,
      'transfer',
      `5 base:usdc to ${toChecksumAddress(LOWER_LISTED)} from ops for listed lower`,
    );
    expect(refusalOf(checksummed.body), JSON.stringify(checksummed.body)).toBe(LISTED_SENTENCE);
  });

  it('refuses a batch row paying a listed address, naming the row, the list and its date', async () => {
    const [a, b] = addresses(2, 8);
    const csv = transfersCsv([a ?? '', RECEIVER.toLowerCase(), b ?? ''], [1, 1, 1]);
    await expect(submitBatchFile(h, csv)).rejects.toThrow(`Row 3 receiver: ${LISTED_SENTENCE}`);
  });

  it('shows the list on the card, or that the chain is not covered', async () => {
    const { id } = await postRequest(h, 'transfer', `5 base:usdc to ${addresses(1, 9)[0]} from ops for a clean one`);
    const sha = (await h.rampart.deps.store.screening.current())?.sha256.slice(0, 6);
    expect(blocksText(currentCard(h, id))).toContain(
      `Screened: OFAC SDN list of 2026-11-20 (sha ${sha}…, 2 addresses): no match`,
    );
    const sol = await postRequest(h, 'transfer', `5 solana:usdc to ${SOLANA_RECEIVER} from ops for solana`);
    expect(blocksText(currentCard(h, sol.id))).toContain('OFAC SDN lists no Solana addresses; not screened');
  });

  it('never pays an address listed between the two approvals: cancelled at the start with the list date', async () => {
    const clean = addresses(1, 10)[0] ?? '';
    const { id } = await postRequest(h, 'transfer', `150 base:usdc to ${clean} from ops for two approvals`);
    await click(h, PEOPLE.approver1, id, 'request_approve');
    await loadList(h, '2026-11-27', [RECEIVER, LOWER_LISTED, clean]);
    const sent = serviceCalls(h, '/transfer').length;
    await click(h, PEOPLE.approver2, id, 'request_approve');
    const record = await waitForState(h, id, 'cancelled');
    await quiescent(h);
    expect(serviceCalls(h, '/transfer')).toHaveLength(sent);
    expect(record.executions[0]?.outcome?.message).toBe('listed on OFAC SDN of 2026-11-27; nothing sent');
    const history = await h.rampart.deps.store.history(id);
    expect(history.at(-1)).toMatchObject({
      event: 'cancelled',
      by: 'rampart',
      detail: 'listed on OFAC SDN of 2026-11-27; nothing sent',
    });
    // The velocity reservation made at the quorum is given back.
    const usage = await h.rampart.deps.store.screening.current();
    expect(usage?.published).toBe('2026-11-27');
    const ledger = await h.rampart.deps.controls.usage(
      { walletId: 'wal_ops_7f3a', walletAlias: 'ops', code: 'USDC', decimals: 6, units: 0n },
      h.rampart.deps.config.controls.velocity,
      Date.now(),
    );
    expect(ledger.map((u) => u.used)).not.toContain(150_000_000n);
    const reply = await eventually(
      () => threadOf(h, id).find((m) => (m.text ?? '').includes('was not paid')),
      10_000,
      'the hit reply',
    );
    expect(reply.text).toContain(
      `${id}.1 was not paid: its destination is listed on OFAC SDN of 2026-11-27; nothing sent`,
    );
    expect(reply.text).toContain(`<@${PEOPLE.approver1}>`);
    const notice = await eventually(() => h.fake.messages(COMPLIANCE).at(-1), 10_000, 'the compliance notice');
    expect(notice.text).toContain(`Screening stopped ${id}.1`);
    expect(notice.text).not.toContain(clean);
  });

  it('pauses a batch on a row listed after its approval; the rows before it ran, nothing after', async () => {
    const rows = addresses(3, 11);
    const id = await submitBatchFile(h, transfersCsv(rows, [1, 1, 1]));
    await loadList(h, '2026-11-28', [RECEIVER, LOWER_LISTED, addresses(1, 10)[0] ?? '', rows[1] ?? '']);
    const sent = serviceCalls(h, '/transfer').length;
    await h.driver.click(PEOPLE.approver1, {
      action_id: 'request_approve',
      message: currentCard(h, id),
      channel: APPROVALS,
    });
    const paused = await waitForApproval(h, id, 'paused');
    await quiescent(h);
    expect(serviceCalls(h, '/transfer')).toHaveLength(sent + 1);
    const states = (await h.rampart.deps.store.executions.page(id, 0, 3, 3)).map((e) => e.state);
    expect(states).toEqual(['succeeded', 'cancelled', 'queued']);
    expect(paused.sealed.id).toBe(id);
    expect((await h.rampart.deps.store.history(id)).map((e) => e.detail)).toContain(
      'row 2: listed on OFAC SDN of 2026-11-28; nothing sent',
    );
  });
});

describe('SCREENING=required', () => {
  const r = useHarness('screening-required', { SCREENING: 'required' });
  it('refuses every payment while no list is loaded, in one sentence', async () => {
    const refused = await submitRequest(r, 'transfer', `5 base:usdc to ${RECEIVER} from ops for no list`);
    expect(refusalOf(refused.body)).toBe(
      'Screening is required and no sanctions list is loaded; ask an admin to run `rampart screening load` before paying.',
    );
  });
});
