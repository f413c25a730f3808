import { request } from 'undici';
import { afterAll, beforeAll, it } from 'vitest';
import { eventually, type Harness, lastView, PEOPLE, startHarness } from '../support/harness.js';

let h: Harness;
let o: Harness;
beforeAll(async () => {
  h = await startHarness('explore');
  o = await startHarness('explore2', { SLACK_TEAM_ID: 'T0OTHER' });
});
afterAll(async () => {
  await h.close();
  await o.close();
});
const U = PEOPLE.requester;
async function keys(prefix: string) {
  return (await h.rampart.redis.keys(`${prefix}:*`)).sort();
}
it('explore', async () => {
  console.log(await keys(h.prefix));
  await new Promise((r) => setTimeout(r, 1500));
  console.log(await keys(h.prefix));
  const r1 = await h.driver.command(U, '/balance', 'ops', undefined, { signingSecret: 'nope' });
  const r2 = await h.driver.command(U, '/balance', 'ops', undefined, {
    timestampSeconds: Math.floor(Date.now() / 1000) - 301,
  });
  const r3 = await h.driver.command(U, '/balance', 'ops', undefined, { unsigned: true });
  console.log(r1, r2, r3);
  const r4 = await o.driver.command(U, '/balance', 'ops');
  console.log(
    r4,
    o.fake.calls.map((c) => c.method),
    o.sandbox.state.received.length,
  );
  const r5 = await o.driver.command(U, '/lookup', '');
  console.log(
    r5,
    o.fake.calls.map((c) => c.method),
    o.sandbox.state.received.length,
  );
  const hz = await request(`http://127.0.0.1:${h.rampart.port}/healthz`);
  console.log(hz.statusCode, hz.headers['content-type'], await hz.body.text());
  const web = await h.startAnother({ ROLE: 'web' });
  web.redis.disconnect();
  const hz2 = await request(`http://127.0.0.1:${web.port}/healthz`);
  console.log(hz2.statusCode, hz2.headers['content-type'], await hz2.body.text());
  console.log(h.logs.lines.filter((l) => /0123456789|test-signing|xoxb|test-service-key/.test(l)).slice(0, 5));
}, 30000);
