/**
 * The live entries of many destination keys at once (store/address-book.ts liveNames), as the
 * address-book form and an import check them: a removed entry is not live, an unknown key has none.
 */
import { describe, expect, it } from 'vitest';
import { AddressBook } from '../../src/store/address-book.js';
import { useRedisPrefix } from '../support/redis-prefix.js';

const { redis, prefix } = useRedisPrefix('book-names');
const book = new AddressBook(redis, prefix);
const by = { addedBy: 'U0A', approvedBy: 'U0B', requestId: 'R-1' };
const LIVE = '0x52908400098527886e0f7030069857d2e4169ee7';
const GONE = '0x99ed2e97162533ba814af8092b93b9a3090dedcf';
const NEVER = '0x1111111111111111111111111111111111111111';

describe('liveNames', () => {
  it('names the live entry of each key, in order, and nothing for a removed or unknown one', async () => {
    const added = await book.add(
      [
        { name: 'Acme payroll', chain: 'base', address: LIVE, wallets: '*' },
        { name: 'Old supplier', chain: 'base', address: GONE, wallets: '*' },
      ],
      by,
      0,
    );
    if (!added.ok) throw new Error('not added');
    expect(await book.remove(added.ids[1] ?? '', 'U0B')).toBe(true);
    expect(await book.liveNames([`evm:${NEVER}`, `evm:${LIVE}`, `evm:${GONE}`])).toEqual([
      undefined,
      'Acme payroll',
      undefined,
    ]);
    expect(await book.liveNames([])).toEqual([]);
  });
});
