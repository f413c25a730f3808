/**
 * SLACK_TEAM_ID guards each request by the team its own payload names. This
 * Rampart's bot token belongs to the fake's workspace T0FAKE0001 and SLACK_TEAM_ID says the
 * same, so a guard on the token's team (auth.test) would wave everything through; requests
 * signed correctly but naming another team must still be refused before any listener runs.
 * Also: each request gets its own context.userId (the cached authorize result is not shared).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SlackDriver } from '../../devkit/index.js';
import { NOT_INSTALLED } from '../../src/adapters/slack/workspace-guard.js';
import { APPROVALS, eventually, GENERAL, lastView, PEOPLE, SIGNING_SECRET } from '../support/harness.js';
import { postRequest, quiescent, RECEIVER } from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

const OUR_TEAM = 'T0FAKE0001';
const h = useHarness('workspace-guard', { SLACK_TEAM_ID: OUR_TEAM });
let evil: SlackDriver;

beforeAll(async () => {
  expect(h.fake.settings.teamId).toBe(OUR_TEAM);
  evil = new SlackDriver({
    url: `http://127.0.0.1:${h.rampart.port}/slack/events`,
    signingSecret: SIGNING_SECRET,
    fake: h.fake,
    teamId: 'T0ELSEWHERE',
    defaultChannelId: GENERAL,
  });
});
afterAll(async () => {
  expect(Math.max(...evil.ackTimes)).toBeLessThan(3000);
});

/** What a served request would leave behind. */
function traces() {
  return {
    service: h.sandbox.state.received.length,
    cards: h.fake.messages(APPROVALS).length,
    views: Object.values(PEOPLE).map((p) => h.fake.views(p).length),
    ephemerals: Object.values(PEOPLE).map((p) => h.fake.ephemerals(p).length),
    responseUrls: h.fake.callsTo('response_url').length,
  };
}

/** Rampart idle first, so what a refused request could leave is all that can change. */
async function quietTraces() {
  await quiescent(h);
  return traces();
}

describe('a signed request whose payload names another team', () => {
  it('a command is refused with one ephemeral sentence; no modal, no service call', async () => {
    const before = await quietTraces();
    for (const [command, text] of [
      ['/balance', 'ops'],
      ['/transfer', `25 base:usdc to ${RECEIVER} from ops for invoice 7`],
    ] as const) {
      const res = await evil.command(PEOPLE.requester, command, text);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ response_type: 'ephemeral', text: NOT_INSTALLED });
    }
    await quiescent(h);
    // The ephemeral refusal itself is the only thing the person sees.
    expect({ ...traces(), ephemerals: before.ephemerals }).toEqual(before);
    expect(h.logs.text).toContain('refused a request from another workspace');
  });

  it('an Approve click on a real card is acknowledged and does nothing: no vote, no execution', async () => {
    const { id, card } = await postRequest(h, 'transfer', `11 base:usdc to ${RECEIVER} from ops for guard test`);
    const before = await quietTraces();
    const res = await evil.click(PEOPLE.approver1, { action_id: 'request_approve', message: card });
    expect(res.status).toBe(200);
    expect(res.body).toBe('');
    await quiescent(h);
    expect(traces()).toEqual(before);
    const record = await h.rampart.deps.store.get(id);
    expect(record?.state).toBe('pending');
    expect(record?.votes).toEqual([]);
  });

  it('a view submission gets the sentence on the form; no request, no card', async () => {
    await h.driver.command(PEOPLE.requester, '/transfer', `12 base:usdc to ${RECEIVER} from ops for guard form`);
    const form = await eventually(
      () =>
        lastView(h.fake, PEOPLE.requester)?.callback_id === 'transfer_modal'
          ? lastView(h.fake, PEOPLE.requester)
          : undefined,
      5000,
      'transfer modal',
    );
    const before = await quietTraces();
    const keysBefore = (await h.rampart.redis.keys(`${h.prefix}:req:*`)).length;
    const res = await evil.submitView(PEOPLE.requester, form, {});
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ response_action: 'errors', errors: { wallet: NOT_INSTALLED } });
    await quiescent(h);
    expect(traces()).toEqual(before);
    expect((await h.rampart.redis.keys(`${h.prefix}:req:*`)).length).toBe(keysBefore);
    h.fake.closeView(PEOPLE.requester, form.id);
  });

  it('an options request is acknowledged empty: no identity is listed', async () => {
    await h.rampart.deps.registry.addIdentity({
      id: 'idn_guard_1',
      name: 'Guarded Person',
      type: 'BVN',
      bvnLast4: '4455',
      createdBy: PEOPLE.approver1,
      createdAt: Date.now(),
    });
    await h.driver.command(PEOPLE.requester, '/beneficiary', 'new');
    const form = await eventually(
      () => h.fake.views(PEOPLE.requester).find((v) => v.callback_id === 'beneficiary_ng'),
      5000,
      'beneficiary form',
    );
    // The control: from our own workspace the identity is offered.
    const ours = await h.driver.suggest(PEOPLE.requester, form, 'identity', 'identity', 'guard');
    expect(JSON.stringify(ours.body)).toContain('idn_guard_1');
    const theirs = await evil.suggest(PEOPLE.requester, form, 'identity', 'identity', 'guard');
    expect(theirs.status).toBe(200);
    expect(JSON.stringify(theirs.body)).not.toContain('idn_guard_1');
    expect(JSON.stringify(theirs.body)).not.toContain('Guarded');
    h.fake.closeView(PEOPLE.requester, form.id);
  });
});

describe('context per request', () => {
  it('gives each of two people in turn their own context.userId', async () => {
    const seen: { user: string | undefined; body: string | undefined }[] = [];
    // Rampart's routes answer every command they know in one middleware; one they do
    // not know goes on to middleware added later, such as this observer, after the same authorize.
    h.rampart.slack?.app.use(async (args) => {
      const { context, body } = args;
      const b = body as { user_id?: string; user?: { id?: string } };
      seen.push({ user: context.userId, body: b.user_id ?? b.user?.id });
      await (args as { ack?: () => Promise<void> }).ack?.();
    });
    for (const person of [PEOPLE.requester, PEOPLE.approver2, PEOPLE.requester, PEOPLE.outsider]) {
      await h.driver.command(person, '/observe', '');
    }
    expect(seen.map((s) => s.user)).toEqual([PEOPLE.requester, PEOPLE.approver2, PEOPLE.requester, PEOPLE.outsider]);
    expect(seen.every((s) => s.user === s.body)).toBe(true);
  });
});
