/**
 * Screening at the API door: a listed address is refused from POST /api/v1/transfers and from a
 * row of POST /api/v1/batches with the Slack form's own sentence and a stable code, in any letter
 * case of its hexadecimal; a capital "0X" prefix is refused as the form refuses it (the address is
 * never rewritten), so it is never paid either way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVALS, blocksText, type Harness, startHarness } from '../support/harness.js';
import { RECEIVER } from '../support/requests.js';
import { loadScreeningList } from '../support/screening.js';
import { type Api, newKey, startApi, transfer } from './support.js';

let h: Harness;
let api: Api;
let token = '';
beforeAll(async () => {
  h = await startHarness('api-screening', { API_RATE: 'off' });
  api = await startApi(h);
  token = (await newKey(api, { limits: { allowNewDestinations: true } })).token;
  await loadScreeningList(h, '2026-11-20', [RECEIVER]);
});
afterAll(async () => {
  await api?.close();
  await h?.close();
});

let n = 0;
const post = (path: string, body: unknown) => api.call('POST', path, { token, idempotencyKey: `s-${++n}`, body });
const LISTED =
  'This address is on the OFAC SDN list of 2026-11-20, so Rampart will not pay it; check the destination with compliance.';
const CAPITAL_X =
  'It starts with a capital 0X: an EVM address starts with a lower-case 0x, followed by 40 hexadecimal characters.';
const body = RECEIVER.slice(2);
const clean = '0x2222222222222222222222222222222222222222';

describe('screening at the API', () => {
  it('refuses a listed address typed checksummed, lower- or upper-case with the form’s sentence', async () => {
    for (const receiver of [RECEIVER, `0x${body.toLowerCase()}`, `0x${body.toUpperCase()}`]) {
      const a = await post('/transfers', transfer({ receiver }));
      expect([a.status, a.json.code], receiver).toEqual([403, 'screening_listed']);
      expect(a.json.errors).toEqual([{ pointer: '/receiver', detail: LISTED }]);
    }
    expect(h.fake.messages(APPROVALS).some((m) => blocksText(m).includes('invoice 4417'))).toBe(false);
  });

  it('refuses a capital 0X prefix as the form does, listed or not', async () => {
    for (const receiver of [`0X${body.toUpperCase()}`, `0X${clean.slice(2)}`]) {
      const a = await post('/transfers', transfer({ receiver }));
      expect([a.status, a.json.code], receiver).toEqual([400, 'invalid_field']);
      expect(a.json.errors).toEqual([{ pointer: '/receiver', detail: `${CAPITAL_X} (base:usdc is on Base)` }]);
    }
  });

  it('refuses a batch row paying a listed address, naming the row, with the same sentence and code', async () => {
    const rows = [
      { receiver: clean, amount: '1' },
      { receiver: `0x${body.toLowerCase()}`, amount: '1' },
    ];
    const a = await post('/batches', { kind: 'transfers', wallet: 'ops', asset: 'base:usdc', rows, reason: 'run' });
    expect([a.status, a.json.code]).toEqual([403, 'screening_listed']);
    expect(a.json.errors).toEqual([{ pointer: '/rows/1/receiver', detail: `Row 2 receiver: ${LISTED}` }]);
    const capital = await post('/batches', {
      kind: 'transfers',
      wallet: 'ops',
      asset: 'base:usdc',
      rows: [{ receiver: `0X${body}`, amount: '1' }],
      reason: 'run',
    });
    expect([capital.status, capital.json.code]).toEqual([400, 'invalid_field']);
    expect(capital.json.errors).toEqual([
      { pointer: '/rows/0/receiver', detail: `Row 1 receiver: ${CAPITAL_X} (base:usdc is on Base)` },
    ]);
  });

  it('creates the same transfer to an address the list does not hold', async () => {
    const a = await post('/transfers', transfer({ receiver: clean }));
    expect(a.status).toBe(201);
  });
});
