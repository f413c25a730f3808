/** The workbench's HTTP API and start-up rules, without a browser. */
import { spawnSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeSlack } from '../../devkit/index.js';
import { startWorkbench, WorkbenchRefusedError } from '../../devkit/workbench/index.js';
import { uploadCsvToThread } from '../../src/adapters/slack/files.js';
import { slackClientOptions } from '../../src/adapters/slack/web-api/client-options.js';
import { eventually } from '../support/harness.js';
import { launchChromium, startTestWorkbench, type TestWorkbench, thisMachine } from './support.js';

let wb: TestWorkbench;
beforeAll(async () => {
  wb = await startTestWorkbench('server');
});
afterAll(async () => {
  await wb?.close();
});

async function post(path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(new URL(path, wb.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

async function state(user: string) {
  const res = await fetch(new URL(`/api/state?user=${user}`, wb.url));
  expect(res.status).toBe(200);
  return (await res.json()) as {
    channels: { id: string; messages: { ephemeral: boolean; html: string }[] }[];
    dm: { id: string; name: string; messages: { text: string; html: string }[] };
    modal: { id: string; title: string } | null;
    people: { id: string; role: string }[];
  };
}

describe('starting', () => {
  it('refuses NODE_ENV=production before starting anything', async () => {
    await expect(startWorkbench({ env: { NODE_ENV: 'production' } })).rejects.toBeInstanceOf(WorkbenchRefusedError);
  });

  it('npm run dev refuses production with one line and exit code 1', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'devkit/dev.ts'], {
      env: { ...process.env, NODE_ENV: 'production' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      'The workbench (npm run dev) is a development tool and does not run with NODE_ENV=production; use npm start.',
    ]);
  }, 30_000);

  it('fails the browser tests with one sentence, never a skip, when there is no browser', async () => {
    await expect(launchChromium(thisMachine({ CHROME_PATH: '/nonexistent/chromium' }))).rejects.toThrow(
      'CHROME_PATH is /nonexistent/chromium, which does not exist: set it to a Chrome or Chromium binary, or unset it to use a system one.',
    );
    const bare = { ...thisMachine({}), platform: 'darwin', arch: 'arm64', exists: () => false };
    await expect(launchChromium(bare)).rejects.toThrow(
      'No Chrome or Chromium for the browser tests on darwin-arm64: install Google Chrome (https://www.google.com/chrome/) or Chromium (brew install --cask chromium), or set CHROME_PATH to a Chrome or Chromium binary.',
    );
  });

  it('listens on 127.0.0.1 only and seeds the four people with their roles in this run', async () => {
    expect(new URL(wb.url).hostname).toBe('127.0.0.1');
    const s = await state('U0REQUESTER');
    expect(s.people.map((p) => [p.id, p.role])).toEqual([
      ['U0REQUESTER', 'requester'],
      ['U0APPROVER1', 'approver'],
      ['U0APPROVER2', 'approver'],
      ['U0OUTSIDER', 'not an approver'],
    ]);
    expect(s.channels.map((c) => c.id)).toEqual(['C0GENERAL', 'C0APPROVALS']);
  });

  it('serves the page and its script from the package, with a CSP that allows no other script source', async () => {
    const page = await fetch(wb.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await page.text()).toContain('<script type="module" src="/app.js"></script>');
    const script = await fetch(new URL('/app.js', wb.url));
    expect(script.headers.get('content-type')).toContain('text/javascript');
  });
});

describe('the API', () => {
  it('refuses another Host (DNS rebinding) and bodies that are not JSON (cross-site forms)', async () => {
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = httpRequest(new URL('/api/state?user=U0REQUESTER', wb.url), { headers: { host: 'evil.example' } });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(421);
    const form = await fetch(new URL('/api/command', wb.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'user=U0REQUESTER&channel=C0GENERAL&text=/rate',
    });
    expect(form.status).toBe(415);
  });

  it('says plainly when the composer holds no command or one Rampart does not have', async () => {
    const plain = await post('/api/command', { user: 'U0REQUESTER', channel: 'C0GENERAL', text: 'hello' });
    expect(plain.status).toBe(400);
    expect(plain.json.error).toContain('Only slash commands reach Rampart');
    const unknown = await post('/api/command', { user: 'U0REQUESTER', channel: 'C0GENERAL', text: '/nope x' });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error).toContain('/nope is not a valid command');
    const nobody = await post('/api/command', { user: 'U0NOBODY', channel: 'C0GENERAL', text: '/rate' });
    expect(nobody.status).toBe(400);
  });

  it('takes a picked CSV as Slack does and shows a file shared in a thread, to open or save', async () => {
    const csv = 'receiver,amount\n0x99ED2e97162533BA814aF8092b93b9a3090DEdcF,250\n';
    const picked = await post('/api/pick-file', {
      user: 'U0REQUESTER',
      name: 'payouts.csv',
      content: Buffer.from(csv).toString('base64'),
    });
    expect(picked.status).toBe(200);
    expect(picked.json).toMatchObject({ type: 'file_input', files: [{ name: 'payouts.csv', size: csv.length }] });
    const client = new WebClient(wb.config.slack.botToken, slackClientOptions(wb.fake.apiUrl));
    const card = await client.chat.postMessage({ channel: 'C0APPROVALS', text: 'B-1' });
    const id = await uploadCsvToThread(client, {
      channel: 'C0APPROVALS',
      threadTs: card.ts ?? '',
      filename: 'B-1-rows.csv',
      content: csv,
    });
    const channel = (await state('U0REQUESTER')).channels.find((c) => c.id === 'C0APPROVALS') as unknown as {
      messages: { replies: { html: string }[] }[];
    };
    const reply = channel.messages.flatMap((m) => m.replies).find((r) => r.html.includes('B-1-rows.csv'));
    expect(reply?.html).toContain(`href="/api/file?id=${id}"`);
    const file = await fetch(new URL(`/api/file?id=${id}`, wb.url));
    expect(await file.text()).toBe(csv);
  });

  it('lists direct messages under "Rampart (messages)" for the person they were sent to, and no one else', async () => {
    // As Rampart sends a reminder or an outcome: chat.postMessage with the person's user id as the channel.
    const client = new WebClient(wb.config.slack.botToken, slackClientOptions(wb.fake.apiUrl));
    await client.chat.postMessage({ channel: 'U0OUTSIDER', text: 'Reminder: R-1001 waits for <@U0OUTSIDER>' });
    const mine = (await state('U0OUTSIDER')).dm;
    expect(mine).toMatchObject({ id: 'U0OUTSIDER', name: 'Rampart (messages)' });
    expect(mine.messages.map((m) => m.text)).toEqual(['Reminder: R-1001 waits for <@U0OUTSIDER>']);
    expect(mine.messages[0]?.html).toContain('<span class="mk-mention">@olu</span>');
    expect((await state('U0APPROVER2')).dm.messages).toEqual([]);
  });

  it('shows an ephemeral answer only in the state of the person who asked', async () => {
    const sent = await post('/api/command', { user: 'U0OUTSIDER', channel: 'C0GENERAL', text: '/rate help' });
    expect(sent.status).toBe(200);
    expect(sent.json.status).toBe(200);
    const mine = await eventually(async () => {
      const general = (await state('U0OUTSIDER')).channels.find((c) => c.id === 'C0GENERAL');
      return general?.messages.find((m) => m.ephemeral && m.html.includes('/rate'));
    });
    expect(mine.html).toContain('<code class="mk-code">');
    const theirs = (await state('U0REQUESTER')).channels.find((c) => c.id === 'C0GENERAL');
    expect(theirs?.messages.filter((m) => m.ephemeral)).toEqual([]);
  });

  it('tells the page when something changed (Server-Sent Events)', async () => {
    const controller = new AbortController();
    const res = await fetch(new URL('/api/events', wb.url), { signal: controller.signal });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const reader = res.body?.getReader();
    if (!reader) throw new Error('no event stream');
    let seen = '';
    const changed = (async () => {
      while (!seen.includes('data:')) {
        const chunk = await reader.read();
        if (chunk.done) break;
        seen += new TextDecoder().decode(chunk.value);
      }
    })();
    await post('/api/command', { user: 'U0REQUESTER', channel: 'C0GENERAL', text: '/balance help' });
    await changed;
    controller.abort();
    expect(seen).toMatch(/data: \d+/);
  });

  it('opens a modal for the person who typed the command and closes it with ×', async () => {
    await post('/api/command', { user: 'U0APPROVER2', channel: 'C0GENERAL', text: '/transfer 1 base:usdc' });
    const modal = await eventually(async () => (await state('U0APPROVER2')).modal ?? undefined);
    expect(modal.title).toBe('New transfer');
    expect((await state('U0REQUESTER')).modal).toBeNull();
    const closed = await post('/api/close', { user: 'U0APPROVER2', viewId: modal.id, all: true });
    expect(closed.status).toBe(200);
    expect((await state('U0APPROVER2')).modal).toBeNull();
  });

  it('answers a click on a message that is gone with a sentence, not a crash', async () => {
    const click = await post('/api/click', {
      user: 'U0REQUESTER',
      actionId: 'request_approve',
      blockId: 'x',
      channel: 'C0APPROVALS',
      ts: '1.000001',
    });
    expect(click.status).toBe(400);
    expect(click.json.error).toContain('That message is gone');
  });
});

describe('FakeSlack.onChange', () => {
  it('calls listeners after each Web API call until they unsubscribe', async () => {
    const fake = await startFakeSlack({ botToken: 'xoxb-t', channels: [{ id: 'C1', name: 'one' }] });
    let changes = 0;
    const unsubscribe = fake.onChange(() => {
      changes += 1;
    });
    const postMessage = () =>
      fetch(`${fake.apiUrl}chat.postMessage`, {
        method: 'POST',
        headers: { authorization: 'Bearer xoxb-t', 'content-type': 'application/json' },
        body: JSON.stringify({ channel: 'C1', text: 'hi' }),
      });
    await postMessage();
    expect(changes).toBe(1);
    unsubscribe();
    await postMessage();
    expect(changes).toBe(1);
    await fake.close();
  });
});
