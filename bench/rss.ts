/**
 * Peak RSS: Rampart beside bare Bolt + BullMQ (bench/rss-floor.ts), each in its own
 * process started fresh, under the same load — part 1's signed `/rate` commands, answered through
 * the response URL — then the kernel's high-water mark of the process (VmHWM, Linux /proc). Both
 * run compiled by tsc under plain node, so neither carries tsx; the sandbox and the fake Slack
 * stay in this process. Each round measures the floor, then Rampart, one right after the other.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { request } from 'undici';
import { startFakeSlack } from '../devkit/index.js';
import { loadConfig } from '../src/config.js';
import { startSandbox } from '../src/sandbox/index.js';
import { ackClient, rateCommandBody } from './ack-latency.js';
import { type GoalResult, judge } from './goals.js';
import { APPROVALS, BOT_TOKEN, deleteKeys, GENERAL, PEOPLE, SERVICE_KEY, SIGNING_SECRET } from './world.js';

const BUILD = join(import.meta.dirname, '..', 'test-artifacts', 'bench-build');
const MiB = 1024 * 1024;

export interface RssRound {
  rampartMiB: number;
  floorMiB: number;
  ratio: number;
}
export interface RssReport {
  n: number;
  concurrency: number;
  rounds: RssRound[];
}

function run(cmd: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${args.join(' ')} exited with ${code}`))));
  });
}

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const address = s.address();
      s.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });

/** The kernel's peak resident set of `pid`, in bytes (Linux). */
function peakRss(pid: number): number {
  const m = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m?.[1]) throw new Error(`no VmHWM for process ${pid}`);
  return Number(m[1]) * 1024;
}

async function listening(child: ChildProcess, port: number, stderr: () => string): Promise<void> {
  const deadline = performance.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode} before listening: ${stderr()}`);
    try {
      const res = await request(`http://127.0.0.1:${port}/slack/events`);
      await res.body.dump();
      return;
    } catch {
      if (performance.now() > deadline) throw new Error(`not listening after 60 s: ${stderr()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

export async function measureRss(
  redisUrl: string,
  options: { n: number; concurrency: number; rounds: number },
  progress: (text: string) => void,
): Promise<{ report: RssReport; goal: GoalResult }> {
  progress('part 7 (peak RSS): compiling Rampart and the floor with tsc');
  // typescript's package.json exports no bin path; its own file sits beside it.
  const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
  await run(process.execPath, [tsc, '-p', join(import.meta.dirname, 'tsconfig.rss.json')]);
  // The Lua scripts sit beside the compiled store, as `npm run build` puts them (dist/store/lua).
  cpSync(join(import.meta.dirname, '..', 'src', 'store', 'lua'), join(BUILD, 'src', 'store', 'lua'), {
    recursive: true,
  });
  const prefix = `bench-rss-${process.pid}`;
  const sandbox = await startSandbox({ port: 0, host: '127.0.0.1', apiKey: SERVICE_KEY });
  const fake = await startFakeSlack({
    botToken: BOT_TOKEN,
    people: Object.values(PEOPLE).map((id) => ({ id, name: id.toLowerCase(), real_name: id, tz: 'Africa/Lagos' })),
    channels: [
      { id: APPROVALS, name: 'treasury-approvals' },
      { id: GENERAL, name: 'treasury' },
    ],
  });
  const env = {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'development',
    LOG_LEVEL: 'silent',
    REDIS_URL: redisUrl,
    REDIS_PREFIX: prefix,
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: fake.apiUrl,
    SERVICE_BASE_URL: sandbox.url,
    SERVICE_API_KEY: SERVICE_KEY,
    APPROVALS_CHANNEL: APPROVALS,
    APPROVERS: `${PEOPLE.approver},${PEOPLE.other}`,
  };
  /** Starts `script`, sends the load, waits for every answer, and returns the peak RSS. */
  const peakUnderLoad = async (script: string): Promise<number> => {
    const port = await freePort();
    const child = spawn(process.execPath, [join(BUILD, script)], {
      env: { ...env, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    // Listened for at once: a child that dies while starting must not leave the wait below hanging.
    const exited = new Promise((r) => child.once('exit', r));
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-2000);
    });
    const client = ackClient(
      { url: `http://127.0.0.1:${port}/slack/events`, secret: SIGNING_SECRET },
      options.concurrency,
      () => rateCommandBody(fake, ''),
    );
    try {
      await listening(child, port, () => stderr);
      const before = fake.callsTo('response_url').length;
      const result = await client.run(options.n);
      if (result.errors > 0) throw new Error(`${script}: ${result.errors} errors, first: ${result.firstError}`);
      const deadline = performance.now() + 60_000;
      while (fake.callsTo('response_url').length < before + options.n) {
        if (performance.now() > deadline) throw new Error(`${script}: not every answer arrived within 60 s`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return peakRss(child.pid ?? -1);
    } finally {
      await client.close();
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    }
  };
  const rounds: RssRound[] = [];
  try {
    for (let round = 1; round <= options.rounds; round++) {
      progress(`part 7, round ${round}/${options.rounds}: ${options.n} /rate to bare Bolt + BullMQ, then to Rampart`);
      const floor = await peakUnderLoad('bench/rss-floor.js');
      const rampart = await peakUnderLoad('src/main.js');
      rounds.push({ rampartMiB: rampart / MiB, floorMiB: floor / MiB, ratio: rampart / floor });
    }
  } finally {
    await fake.close();
    await sandbox.close();
    await deleteKeys(loadConfig({ NODE_ENV: 'development', REDIS_URL: redisUrl, REDIS_PREFIX: prefix }).redis);
  }
  const report = { n: options.n, concurrency: options.concurrency, rounds };
  return {
    report,
    goal: judge(
      'rss',
      rounds.map((r) => r.ratio),
    ),
  };
}

export function rssLines(r: RssReport): string[] {
  return [
    `Part 7: peak RSS (VmHWM), MiB, each process fresh under ${r.n} /rate with ${r.concurrency} in flight`,
    ...r.rounds.map(
      (x, i) =>
        `  round ${i + 1}: Rampart ${x.rampartMiB.toFixed(1)}, bare Bolt + BullMQ ${x.floorMiB.toFixed(1)}, ratio ${x.ratio.toFixed(2)}×`,
    ),
  ];
}
