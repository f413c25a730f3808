/**
 * The real ServiceClient against a real sandbox over HTTP: identity, beneficiary, offramp and
 * user creation, with their ties (spec 4.11) and refusals.
 */
import { describe, expect, it } from 'vitest';
import { ServiceClient } from '../../src/service/client.js';
import { API_KEY, IDENTITY, OPS, refused, TREASURY, useSandboxClient } from './sandbox-client.js';

const ctx = useSandboxClient();

describe('identity, beneficiary and offramp', () => {
  async function beneficiary(): Promise<string> {
    const identity = await ctx.client.createIdentity(IDENTITY);
    const created = await ctx.client.createBeneficiary({
      currency: 'ngn',
      identity_id: identity.id,
      details: { bank_code: '058', account_number: '0123456789' },
    });
    return created.id;
  }

  it('createIdentity returns an id and a null link; getIdentity returns it with type bvn', async () => {
    const created = await ctx.client.createIdentity(IDENTITY);
    expect(created).toEqual({ id: expect.any(String), link: null });
    await expect(ctx.client.getIdentity(created.id)).resolves.toEqual({
      is_active: true,
      id: created.id,
      type: 'bvn',
      details: { bvn: '22334455667' },
    });
    expect(ctx.sandbox.state.received[1]?.query).toEqual({ identity_id: created.id });
  });

  it('getIdentity of an unknown id fails with 404', async () => {
    await expect(ctx.client.getIdentity('idn_nope')).rejects.toMatchObject(refused(404, 'identity idn_nope not found'));
  });

  it('createBeneficiary needs an identity made by createIdentity', async () => {
    const request = { currency: 'ngn', identity_id: 'idn_nope', details: { iban: 'DE89370400440532013000' } };
    await expect(ctx.client.createBeneficiary(request)).rejects.toMatchObject(
      refused(404, 'identity idn_nope not found'),
    );
  });

  it('offramp to a created beneficiary debits the wallet and returns an OFR reference', async () => {
    const beneficiaryId = await beneficiary();
    const result = await ctx.client.offramp({
      wallet_id: OPS,
      amount: 1_000_000,
      beneficiary_id: beneficiaryId,
      asset: 'bsc:cngn',
    });
    expect(result.reference).toMatch(/^OFR-/);
    expect(ctx.sandbox.state.balanceOf(OPS, 'bsc:cngn')).toEqual({
      balance: 14_000_000,
      available: 13_000_000,
      debt: 250_000,
    });
  });

  it('offramp refuses an unknown beneficiary (404), an asset not held (400) and a wallet with offramp off (403)', async () => {
    const beneficiaryId = await beneficiary();
    const request = { wallet_id: OPS, amount: 5, beneficiary_id: beneficiaryId, asset: 'bsc:cngn' as const };
    await expect(ctx.client.offramp({ ...request, beneficiary_id: 'ben_nope' })).rejects.toMatchObject(
      refused(404, 'beneficiary ben_nope not found'),
    );
    await expect(ctx.client.offramp({ ...request, asset: 'arbitrum:usdc' })).rejects.toMatchObject(
      refused(400, 'asset: this wallet holds no arbitrum:usdc'),
    );
    const treasury = ctx.sandbox.state.wallets.get(TREASURY);
    if (treasury) treasury.offramp = false;
    await expect(ctx.client.offramp({ ...request, wallet_id: TREASURY, asset: 'base:cngn' })).rejects.toMatchObject(
      refused(403, 'offramps are disabled for this wallet'),
    );
  });
});

describe('createUser', () => {
  it('uses the Bearer token and returns a numeric code and a key', async () => {
    const body = { email: 'ops@example.com', password: 'correct horse', name: 'Ops Team' };
    const user = await ctx.client.createUser(body);
    expect(Number.isInteger(user.code)).toBe(true);
    expect(user.key).toMatch(/^\S{16,}$/);
    expect(ctx.sandbox.state.received[0]?.body).toEqual(body);
  });

  it('a wrong Bearer token is refused with 401', async () => {
    const stranger = new ServiceClient({ baseUrl: ctx.sandbox.url, apiKey: API_KEY, bearerToken: 'wrong' });
    await expect(stranger.createUser({ email: 'a@example.com', password: 'x', name: 'A' })).rejects.toMatchObject(
      refused(401, 'invalid bearer token'),
    );
    await stranger.close();
  });
});
