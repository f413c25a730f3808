import { expect, it } from 'vitest';
import { RequestStore } from '../../src/store/requests.js';
import { buildFreshRequest } from '../support/factories.js';
import { useRedisPrefix } from '../support/redis-prefix.js';

const { redis, prefix } = useRedisPrefix('transitions');
const store = new RequestStore(redis, prefix);

it('refuses any transition the domain state machine does not allow, before touching Redis', async () => {
  const id = await store.nextId();
  await store.create(buildFreshRequest(id));
  await expect(store.transition(id, ['pending'], 'executing', { event: 'executing' })).rejects.toThrow(/not allowed/);
  await expect(store.transition(id, ['succeeded'], 'approved', { event: 'approved' })).rejects.toThrow(/not allowed/);
  // Cancelling an approved execution must give its velocity reservation back: cancelQueued does it.
  await expect(store.transition(id, ['approved'], 'cancelled', { event: 'cancelled' })).rejects.toThrow(/not allowed/);
  expect((await store.get(id))?.state).toBe('pending');
  expect((await store.history(id)).map((e) => e.event)).toEqual(['requested']);
});
