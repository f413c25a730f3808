/**
 * Two Solana addresses differing only in letter case are two destinations, through the doors
 * that ask "paid before?": a Slack transfer (the card's warning and STEP_UP_NEW_DESTINATION), and
 * an API key without --allow-new-destinations (a single request and a batch row). An EVM address
 * paid in one case is known in every other.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { newKey, transfer, useApi } from '../api/support.js';
import { blocksText } from '../support/harness.js';
import { postRequest } from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

/** Two Solana accounts whose addresses differ only in the case of one letter (both 32 bytes). */
const PAID = '7Zb8wEZfKJdjVSTk1w4JR429XWuocKPkgGiRdBrRD51r';
const CASE_VARIANT = '7Zb8WEZfKJdjVSTk1w4JR429XWuocKPkgGiRdBrRD51r';
const EVM = '0x99ED2e97162533BA814aF8092b93b9a3090DEdcF';
const NEVER_PAID = ':warning: *Rampart has never paid this address before.*';

const h = useHarness('destination-keys', {
  API_RATE: 'off',
  STEP_UP_NEW_DESTINATION: 'on',
  PUBLIC_URL: 'http://localhost:3999',
});
const api = useApi(h);
beforeAll(async () => {
  // What a succeeded payment records (app/execution-effects.ts recordSuccess).
  await h.rampart.deps.store.addPayee('solana', PAID);
  await h.rampart.deps.store.addPayee('base', EVM.toLowerCase());
});

const sealed = async (id: string) => (await h.rampart.deps.store.get(id))?.sealed;

describe('from Slack', () => {
  it('asks a passkey and warns for the case variant of a Solana address paid before, not for the address itself', async () => {
    const known = await postRequest(h, 'transfer', `5 solana:usdc to ${PAID} from ops for rent`);
    expect(blocksText(known.card)).not.toContain(NEVER_PAID);
    expect((await sealed(known.id))?.stepUp).toBeUndefined();

    const other = await postRequest(h, 'transfer', `5 solana:usdc to ${CASE_VARIANT} from ops for rent`);
    expect(blocksText(other.card)).toContain(NEVER_PAID);
    expect(await sealed(other.id)).toMatchObject({ stepUp: true, display: { newReceiver: true } });
  });

  it('counts an EVM address paid lower-cased as paid when typed with its checksum', async () => {
    const r = await postRequest(h, 'transfer', `5 base:usdc to ${EVM} from ops for rent`);
    expect(blocksText(r.card)).not.toContain(NEVER_PAID);
    expect((await sealed(r.id))?.stepUp).toBeUndefined();
  });
});

describe('through an API key without --allow-new-destinations', () => {
  let n = 0;
  const post = (token: string, body: unknown, path = '/transfers') =>
    api.call('POST', path, { token, idempotencyKey: `dk-${++n}`, body });

  it('pays the Solana address paid before and refuses its case variant', async () => {
    const { token } = await newKey(api);
    const solana = { asset: 'solana:usdc', amount: '3' };
    expect((await post(token, transfer({ ...solana, receiver: PAID }))).status).toBe(201);
    const refused = await post(token, transfer({ ...solana, receiver: CASE_VARIANT }));
    expect([refused.status, refused.json.code]).toEqual([403, 'new_destination_not_allowed']);
  });

  it('refuses a batch row paying the case variant', async () => {
    const { token } = await newKey(api);
    const batch = {
      kind: 'transfers',
      wallet: 'ops',
      asset: 'solana:usdc',
      reason: 'rent',
      rows: [
        { receiver: PAID, amount: '1' },
        { receiver: CASE_VARIANT, amount: '1' },
      ],
    };
    const refused = await post(token, batch, '/batches');
    expect([refused.status, refused.json.code]).toEqual([403, 'new_destination_not_allowed']);
    expect(String(refused.json.detail)).toContain('row 2 pays a new one');
  });

  it('pays an EVM address paid before in any case', async () => {
    const { token } = await newKey(api);
    expect((await post(token, transfer({ receiver: EVM }))).status).toBe(201);
    expect((await post(token, transfer({ receiver: `0x${EVM.slice(2).toUpperCase()}` }))).status).toBe(201);
  });
});
