/**
 * Issue 19, "DM amplification": MAX_OPEN_PER_REQUESTER caps a person's own open requests; one
 * more is refused on the modal with one sentence, nothing stored; once one is final, a new one
 * is accepted. Others are not held back by that person's requests.
 */
import { describe, expect, it } from 'vitest';
import { PEOPLE } from '../support/harness.js';
import { click, postRequest, RECEIVER, submitRequest, waitForState } from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

const h = useHarness('open-per-requester', { MAX_OPEN_PER_REQUESTER: '2' });

const transfer = (n: number) => `${n} base:usdc to ${RECEIVER} from ops for cap test ${n}`;

describe('MAX_OPEN_PER_REQUESTER', () => {
  it('refuses a third open request at submission with one sentence, and accepts one again once a request is final', async () => {
    const first = await postRequest(h, 'transfer', transfer(1));
    await postRequest(h, 'transfer', transfer(2));
    const store = h.rampart.deps.store;
    expect(await store.openCountOf(PEOPLE.requester)).toBe(2);
    const before = (await store.recentIds(100)).length;

    const refused = await submitRequest(h, 'transfer', transfer(3));
    expect(refused.body).toEqual({
      response_action: 'errors',
      errors: {
        reason:
          'You already have 2 open requests (pending, approved or executing); wait until some finish, or cancel one, then submit again.',
      },
    });
    expect((await store.recentIds(100)).length).toBe(before);

    // Another person is not held back by this one's requests.
    await postRequest(h, 'transfer', transfer(4), {}, PEOPLE.approver2);

    await click(h, PEOPLE.approver1, first.id, 'request_approve');
    await waitForState(h, first.id, 'succeeded');
    expect(await store.openCountOf(PEOPLE.requester)).toBe(1);
    await postRequest(h, 'transfer', transfer(5));
  });
});
