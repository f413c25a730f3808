/**
 * A card that cannot be posted (the bot is not in the approvals channel) leaves a request
 * nobody can approve: the requester is told once, the log says why, and Rampart keeps trying.
 */
import { expect, it } from 'vitest';
import { eventually, GENERAL, PEOPLE } from '../support/harness.js';
import { RECEIVER, submitRequest } from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

const h = useHarness('card-failure', { APPROVALS_CHANNEL: 'C0NOTINVITED' });

it('tells the requester, once, that the card cannot be posted and what an admin must do', async () => {
  const submit = await submitRequest(h, 'transfer', `5 base:usdc to ${RECEIVER} from ops for card failure`);
  expect(submit.body).toMatchObject({ response_action: 'clear' });
  const warning = await eventually(
    () => h.fake.ephemerals(PEOPLE.requester).find((e) => e.text.includes('cannot be posted')),
    10_000,
    'warning to the requester',
  );
  expect(warning.channel).toBe(GENERAL);
  expect(warning.text).toContain('not_in_channel');
  expect(h.logs.text).toContain('the approval card cannot be posted');
  await eventually(() => (h.fake.callsTo('chat.postMessage').length >= 2 ? true : undefined), 10_000, 'a retry');
  expect(h.fake.ephemerals(PEOPLE.requester).filter((e) => e.text.includes('cannot be posted'))).toHaveLength(1);
  const id = (await h.rampart.deps.store.recentIds(1))[0] ?? '';
  expect((await h.rampart.deps.store.get(id))?.state).toBe('pending');
});
