/**
 * No DM amplification: MAX_OPEN_PER_REQUESTER caps a person's own open requests; one
 * more is refused on the modal with one sentence, nothing stored; once one is final, a new one
 * is accepted. Others are not held back by that person's requests. Forms sent at the same moment
 * are counted in the create itself, so exactly the cap of them become requests.
 */
import { describe, expect, it } from 'vitest';
import { eventually, PEOPLE } from '../support/harness.js';
import { click, postRequest, RECEIVER, submitRequest, waitForState } from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

const h = useHarness('open-per-requester', { MAX_OPEN_PER_REQUESTER: '2' });

/** How many open (pending, approved or executing) requests `user` made, from the records. */
async function openOf(user: string): Promise<number> {
  const store = h.rampart.deps.store;
  const open = await Promise.all((await store.openIds()).map((id) => store.get(id)));
  return open.filter((r) => r?.sealed.requester === user).length;
}

const transfer = (n: number) => `${n} base:usdc to ${RECEIVER} from ops for cap test ${n}`;

describe('MAX_OPEN_PER_REQUESTER', () => {
  it('refuses a third open request at submission with one sentence, and accepts one again once a request is final', async () => {
    const first = await postRequest(h, 'transfer', transfer(1));
    await postRequest(h, 'transfer', transfer(2));
    const store = h.rampart.deps.store;
    expect(await openOf(PEOPLE.requester)).toBe(2);
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
    expect(await openOf(PEOPLE.requester)).toBe(1);
    await postRequest(h, 'transfer', transfer(5));
  });

  it('creates exactly the cap of 8 forms submitted at the same moment and refuses the rest with the sentence', async () => {
    const user = PEOPLE.groupMember;
    const views = [];
    for (let i = 0; i < 8; i++) {
      const seen = new Set(h.fake.views(user).map((v) => v.id));
      await h.driver.command(user, '/transfer', transfer(20 + i));
      views.push(await eventually(() => h.fake.views(user).find((v) => !seen.has(v.id)), 10_000, 'modal'));
    }
    const answers = await Promise.all(views.map((view) => h.driver.submitView(user, view, {})));
    const bodies = answers.map((a) => a.body as { response_action?: string; errors?: { reason?: string } });
    expect(bodies.filter((b) => b.response_action === 'clear')).toHaveLength(2);
    expect(bodies.filter((b) => b.response_action === 'errors').map((b) => b.errors?.reason)).toEqual(
      Array.from(
        { length: 6 },
        () =>
          'You already have 2 open requests (pending, approved or executing); wait until some finish, or cancel one, then submit again.',
      ),
    );
    for (const [i, b] of bodies.entries())
      if (b.response_action === 'errors') h.fake.closeView(user, views[i]?.id ?? '');
    expect(await openOf(user)).toBe(2);
  });
});
