/**
 * `/report` through signed Slack requests: privately by default, with Slack's chart
 * block and the numbers in text, naming an unknown outcome; `post` only in the report or approvals
 * channel and never in a Slack Connect channel, with the CSV and the chart PNG in its thread; a
 * workspace that refuses the chart block gets the chart as an uploaded PNG (image block,
 * slack_file); someone outside VIEWERS sees no figures.
 */
import { PNG } from 'pngjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { APPROVALS, blocksText, eventually, GENERAL, PEOPLE } from '../support/harness.js';
import { click, postRequest, RECEIVER, waitForState } from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

// One test makes the workspace refuse the chart block on purpose (the fallback is what it checks);
// the fake records that refusal as a violation, so the end-of-file Slack checks do not apply here.
const h = useHarness('report', { REPORT_CHANNEL: GENERAL, VELOCITY_LIMITS: 'ops:USDC=5000/24h' }, { healthy: false });
let unknownId: string;
let paidId: string;

type Block = { type: string; slack_file?: { id: string }; chart?: { series: { data: unknown[] }[] } };
const blocksOf = (m: { blocks?: unknown[] } | undefined) => (m?.blocks ?? []) as Block[];

beforeAll(async () => {
  const paid = await postRequest(h, 'transfer', `12.5 base:usdc to ${RECEIVER} from ops for report test`);
  await click(h, PEOPLE.approver1, paid.id, 'request_approve');
  await waitForState(h, paid.id, 'succeeded');
  paidId = paid.id;
  h.sandbox.faults.failNext('/transfer', 1);
  const unknown = await postRequest(h, 'transfer', `3 base:usdc to ${RECEIVER} from ops for report unknown`);
  await click(h, PEOPLE.approver1, unknown.id, 'request_approve');
  await waitForState(h, unknown.id, 'unknown');
  unknownId = unknown.id;
});

/** `/report text` typed in `channel`: the report it posts there, found by `heading`. */
async function postReport(user: string, text: string, channel: string, heading: string, what: string) {
  const before = h.fake.messages(channel).length;
  await h.driver.command(user, '/report', text, channel);
  return eventually(
    () =>
      h.fake
        .messages(channel)
        .slice(before)
        .find((m) => blocksText(m).includes(heading)),
    15_000,
    what,
  );
}

async function privateAnswer(user: string, text: string, channel = GENERAL) {
  const before = h.fake.ephemerals(user).length;
  const ack = await h.driver.command(user, '/report', text, channel);
  expect(ack.status).toBe(200);
  const acked = (ack.body as { text?: string } | undefined)?.text;
  if (acked) return { text: acked, blocks: [] as Block[] };
  const m = await eventually(() => h.fake.ephemerals(user)[before], 15_000, '/report answer');
  return { text: blocksText(m), blocks: blocksOf(m) };
}

describe('/report', () => {
  it('answers privately with the chart block, its summary line, the limit in words and the unknown outcome named', async () => {
    const { text, blocks } = await privateAnswer(PEOPLE.requester, '7d');
    const chart = blocks.find((b) => b.type === 'data_visualization');
    // 12.50 out is under 5 % of the 5,000 limit: no limit line, the limit in words instead.
    expect(chart?.chart?.series).toHaveLength(1);
    expect(text).toContain('ops USDC: 12.50 of 5,000.00 per 24 h');
    expect(chart?.chart?.series[0]?.data).toHaveLength(8); // seven days back to today, in UTC days
    expect(text).toContain('USDC out');
    expect(text).toContain('total 12.50');
    expect(text).toContain(unknownId);
    expect(text).toContain('/resolve');
    expect(text).toContain('transfer succeeded: 1');
    expect(h.fake.messages(GENERAL).filter((m) => blocksText(m).includes('Treasury report'))).toHaveLength(0);
  });

  it('answers a wrong word with one sentence and the usage', async () => {
    const { text } = await privateAnswer(PEOPLE.requester, '9d');
    expect(text).toContain('"9d" is not a report option');
    expect(text).toContain('Usage: `/report');
  });

  it('posts only in the report or approvals channel, with the CSV and chart PNG in its thread', async () => {
    const refused = await privateAnswer(PEOPLE.requester, '30d post', 'C0NOTINVITED');
    expect(refused.text).toContain('Reports are shared only in');
    const posted = await postReport(PEOPLE.requester, '30d post', GENERAL, 'last 30 days', 'posted report');
    expect(blocksOf(posted).some((b) => b.type === 'data_visualization')).toBe(true);
    const files = await eventually(
      () => h.fake.thread(GENERAL, posted.ts).find((m) => (m.files?.length ?? 0) >= 2),
      15_000,
      'files in the thread',
    );
    const stored = h.fake.files();
    const csv = stored.find((f) => f.id === files.files?.find((x) => String(x.name).endsWith('.csv'))?.id);
    const csvText = csv?.bytes?.toString('utf8') ?? '';
    expect(csvText.split('\n')[0]).toBe('id,kind,state,wallet,asset,amount,destination,at,approval_seconds,series_run');
    expect(csvText).toContain(`${paidId},transfer,succeeded,ops,USDC,12.5`);
    expect(csvText).toContain(`${unknownId},transfer,unknown`);
    const png = stored.find((f) => f.id === files.files?.find((x) => String(x.name).endsWith('.png'))?.id);
    const image = PNG.sync.read(png?.bytes ?? Buffer.alloc(0));
    expect([image.width, image.height]).toEqual([720, 360]);
  });

  it('never posts in a channel shared with another organisation', async () => {
    const general = h.fake.channel(GENERAL);
    if (!general) throw new Error('no general channel');
    general.is_ext_shared = true;
    try {
      const before = h.fake.messages(GENERAL).length;
      const { text } = await privateAnswer(PEOPLE.requester, 'post');
      expect(text).toContain('Slack Connect');
      expect(h.fake.messages(GENERAL).length).toBe(before);
    } finally {
      general.is_ext_shared = false;
    }
  });

  it('sends the chart as an uploaded PNG where the workspace refuses the chart block', async () => {
    h.fake.refuseBlockTypes('data_visualization');
    const posted = await postReport(
      PEOPLE.approver2,
      '7d post',
      APPROVALS,
      'Treasury report',
      'posted report with an image',
    );
    const image = blocksOf(posted).find((b) => b.type === 'image');
    expect(blocksOf(posted).some((b) => b.type === 'data_visualization')).toBe(false);
    const file = h.fake.files().find((f) => f.id === image?.slack_file?.id);
    const png = PNG.sync.read(file?.bytes ?? Buffer.alloc(0));
    expect([png.width, png.height]).toEqual([720, 360]);
    expect(file?.channels).toEqual([]); // uploaded, shared nowhere: shown only through the block
    expect(blocksText(posted)).toContain('USDC out'); // the numbers beside the picture
  });
});

describe('/report and VIEWERS', () => {
  const v = useHarness('report-viewers', { VIEWERS: `${PEOPLE.approver1},S0TREASURY` });

  it('shows no figures to someone outside VIEWERS, and the report to a member of a viewer group', async () => {
    const ask = async (user: string) => {
      const before = v.fake.ephemerals(user).length;
      await v.driver.command(user, '/report', '');
      return blocksText(await eventually(() => v.fake.ephemerals(user)[before], 15_000, 'answer'));
    };
    const outsider = await ask(PEOPLE.outsider);
    expect(outsider).toContain('shown only to the people in VIEWERS');
    expect(outsider).not.toContain('Treasury report');
    expect(await ask(PEOPLE.groupMember)).toContain('Treasury report');
  });
});
