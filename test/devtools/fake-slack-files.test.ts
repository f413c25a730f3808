/**
 * Files in the fake Slack and Rampart's file adapter (src/adapters/slack/files.ts) against it,
 * over real HTTP: a picked CSV downloaded with the bot token, refusals as one sentence, and a
 * CSV uploaded into a thread through the external upload flow.
 */
import { WebClient } from '@slack/web-api';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSlack, startFakeSlack } from '../../devkit/index.js';
import {
  DOWNLOAD_PROBLEMS,
  downloadSubmittedFile,
  type FileDeps,
  uploadCsvToThread,
} from '../../src/adapters/slack/files.js';
import { slackClientOptions } from '../../src/adapters/slack/web-api/client-options.js';
import { createLogger } from '../../src/log.js';

const TOKEN = 'xoxb-files-test';
const CSV = 'receiver,amount\n0x99ED2e97162533BA814aF8092b93b9a3090DEdcF,250\n';
const LIMITS = { maxBytes: 1_048_576, timeoutMs: 2_000, types: ['csv'] } as const;
let fake: FakeSlack;
let client: WebClient;
let deps: FileDeps;

const idOf = (value: Record<string, unknown>): string => {
  const files = value.files as { id: string }[];
  return files[0]?.id ?? '';
};

beforeAll(async () => {
  fake = await startFakeSlack({ botToken: TOKEN, channels: [{ id: 'C0APPROVALS', name: 'approvals' }] });
  client = new WebClient(TOKEN, slackClientOptions(fake.apiUrl));
  deps = { client, botToken: TOKEN, apiUrl: fake.apiUrl, log: createLogger({ level: 'silent' }) };
});
afterEach(() => fake.reset());
afterAll(async () => {
  await fake.close();
});

describe('fake Slack files', () => {
  it('a picked file is reported as file_input reports it, and served only with the bot token', async () => {
    const value = fake.pickFile('U0REQUESTER', 'payouts.csv', new TextEncoder().encode(CSV));
    expect(value).toMatchObject({
      type: 'file_input',
      files: [{ name: 'payouts.csv', filetype: 'csv', mimetype: 'text/csv', size: CSV.length, user: 'U0REQUESTER' }],
    });
    const url = (value.files as { url_private_download: string }[])[0]?.url_private_download ?? '';
    const without = await request(url);
    await without.body.dump();
    expect(without.statusCode).toBe(302);
    const withToken = await request(url, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(await withToken.body.text()).toBe(CSV);
    const info = await client.files.info({ file: idOf(value) });
    expect(info.file?.name).toBe('payouts.csv');
    await expect(client.files.info({ file: 'F0NOPE' })).rejects.toMatchObject({ data: { error: 'file_not_found' } });
  });
});

describe('downloadSubmittedFile', () => {
  it('downloads a picked CSV with the bot token', async () => {
    const id = idOf(fake.pickFile('U1', 'payouts.csv', new TextEncoder().encode(CSV)));
    const got = await downloadSubmittedFile(deps, id, LIMITS);
    expect(got.ok && new TextDecoder().decode(got.bytes)).toBe(CSV);
    expect(fake.callsTo('file_download').map((c) => c.args.authorised)).toEqual([true]);
  });

  it('says so in one sentence when Slack does not hand over the file (no valid token: the sign-in page)', async () => {
    const id = idOf(fake.pickFile('U1', 'payouts.csv', new TextEncoder().encode(CSV)));
    expect(await downloadSubmittedFile({ ...deps, botToken: 'xoxb-wrong' }, id, LIMITS)).toEqual({
      ok: false,
      problem: DOWNLOAD_PROBLEMS.failed,
    });
  });

  it('gives up after its time limit with one sentence, while Slack is still holding the answer', async () => {
    const id = idOf(fake.pickFile('U1', 'payouts.csv', new TextEncoder().encode(CSV)));
    fake.delayFileDownloads(3_000);
    const started = Date.now();
    expect(await downloadSubmittedFile(deps, id, { ...LIMITS, timeoutMs: 300 })).toEqual({
      ok: false,
      problem: DOWNLOAD_PROBLEMS.timedOut,
    });
    expect(Date.now() - started).toBeLessThan(2_500);
  });

  it('refuses a file that is not a .csv, or over 1 MB, without downloading it', async () => {
    const png = idOf(fake.pickFile('U1', 'photo.png', Uint8Array.from([0x89, 0x50, 0x4e, 0x47])));
    expect(await downloadSubmittedFile(deps, png, LIMITS)).toEqual({
      ok: false,
      problem: 'photo.png is not a .csv file; upload the file saved as CSV (UTF-8).',
    });
    const big = idOf(fake.pickFile('U1', 'big.csv', new Uint8Array(2 * 1_048_576).fill(0x41)));
    expect(await downloadSubmittedFile(deps, big, LIMITS)).toEqual({
      ok: false,
      problem: 'The file is 2.0 MB; a batch file may be at most 1 MB, so split it.',
    });
    expect(fake.callsTo('file_download')).toEqual([]);
  });

  it('never sends the bot token to a host that is not Slack (no SLACK_API_URL: only files.slack.com)', async () => {
    const id = idOf(fake.pickFile('U1', 'payouts.csv', new TextEncoder().encode(CSV)));
    expect(await downloadSubmittedFile({ ...deps, apiUrl: undefined }, id, LIMITS)).toEqual({
      ok: false,
      problem: DOWNLOAD_PROBLEMS.failed,
    });
    expect(fake.callsTo('file_download')).toEqual([]);
  });

  it('a file Slack no longer has is named as such', async () => {
    expect(await downloadSubmittedFile(deps, 'F0GONE', LIMITS)).toEqual({
      ok: false,
      problem: DOWNLOAD_PROBLEMS.missing,
    });
  });
});

describe('uploadCsvToThread', () => {
  it('uploads through getUploadURLExternal → POST → completeUploadExternal and the thread shows the file', async () => {
    const card = await client.chat.postMessage({ channel: 'C0APPROVALS', text: 'B-1 waits for approval' });
    const content = 'row,destination,amount\r\n2,ben_1,10\r\n';
    const id = await uploadCsvToThread(client, {
      channel: 'C0APPROVALS',
      threadTs: card.ts ?? '',
      filename: 'B-1-rows.csv',
      content,
      comment: 'The 1 row of B-1',
    });
    expect(fake.callsTo('files.getUploadURLExternal')).toHaveLength(1);
    expect(fake.callsTo('files.completeUploadExternal')[0]?.args).toMatchObject({
      channel_id: 'C0APPROVALS',
      thread_ts: card.ts,
    });
    const stored = fake.files().find((f) => f.id === id);
    expect(stored?.bytes?.toString('utf8')).toBe(content);
    const thread = fake.thread('C0APPROVALS', card.ts ?? '');
    expect(thread).toHaveLength(1);
    expect(thread[0]).toMatchObject({ text: 'The 1 row of B-1', files: [{ id, name: 'B-1-rows.csv' }] });
  });
});
