/**
 * With no SERVICE_BASE_URL outside production, Rampart runs on its in-process sandbox, and every
 * message it posts says so.
 */
import { expect, it } from 'vitest';
import { blocksText, eventually, PEOPLE } from '../support/harness.js';
import { postRequest, RECEIVER, threadReply, waitForState } from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

const h = useHarness('sandbox-mode', { SERVICE_BASE_URL: '' });
/** The requester's private answer that contains `text`. */
const privateAnswer = (text: string, what: string) =>
  eventually(() => h.fake.ephemerals(PEOPLE.requester).find((e) => blocksText(e).includes(text)), 10_000, what);

it('runs on the built-in sandbox and says so in answers, cards, replies and private notices', async () => {
  expect(h.rampart.sandbox).toBeDefined();
  await h.driver.command(PEOPLE.requester, '/balance', 'ops');
  const answer = await privateAnswer('Wallet ops', 'balance');
  expect(blocksText(answer)).toContain('Sandbox: no real money moves');
  await h.driver.command(PEOPLE.requester, '/balance', 'nope_wallet');
  const error = await privateAnswer('nope_wallet', 'error');
  expect(blocksText(error)).toContain('Sandbox');

  const { id, card } = await postRequest(h, 'transfer', `3 base:usdc to ${RECEIVER} from ops for sandbox run`);
  expect(blocksText(card)).toContain('Sandbox');
  await h.driver.click(PEOPLE.outsider, { action_id: 'request_approve', message: card });
  const refusal = await eventually(() => h.fake.ephemerals(PEOPLE.outsider).at(-1), 10_000, 'refusal');
  expect(refusal.text).toContain('Sandbox');
  await h.driver.click(PEOPLE.approver1, { action_id: 'request_approve', message: card });
  await waitForState(h, id, 'succeeded');
  const reply = await threadReply(h, id, 'succeeded', 10_000, 'reply');
  expect(reply.text).toContain('Sandbox');
  expect(h.sandbox.state.received.filter((r) => r.path === '/transfer')).toHaveLength(0); // the harness's own sandbox was not used
});
