/**
 * The sandbox fault knobs: latency, injected 5xx answers in three body forms, calls that act and
 * never answer, reset, and a close() that never hangs.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { eventually } from '../support/harness.js';

const KEY = 'faults-test-key';
const OPS = 'wal_ops_7f3a';
const TRANSFER = {
  wallet_id: OPS,
  amount: 1000,
  receiver: '0xf5c2Bd854a73594c22C6cA8156CBFd233962ca68',
  asset: 'base:usdc',
};

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await startSandbox({ apiKey: KEY });
});
afterEach(async () => {
  await sandbox.close();
});

const balances = (signal?: AbortSignal) =>
  fetch(`${sandbox.url}/balances?wallet_id=${OPS}`, { headers: { 'x-service-key': KEY }, signal: signal ?? null });
const transfer = (signal?: AbortSignal) =>
  fetch(`${sandbox.url}/transfer`, {
    method: 'POST',
    headers: { 'x-service-key': KEY, 'content-type': 'application/json' },
    body: JSON.stringify(TRANSFER),
    signal: signal ?? null,
  });

describe('failNext', () => {
  it('fails the next N calls to the path with a JSON 500 envelope, then answers normally', async () => {
    sandbox.faults.failNext('/balances', 2);
    for (let i = 0; i < 2; i++) {
      const res = await balances();
      expect(res.status).toBe(500);
      expect(await res.json()).toMatchObject({ success: false, status: 500 });
    }
    expect((await balances()).status).toBe(200);
  });

  it('can answer with an HTML page or an empty body and any status', async () => {
    sandbox.faults.failNext('balances', 1, { status: 502, body: 'html' });
    sandbox.faults.failNext('/balances', 1, { status: 503, body: 'empty' });
    const html = await balances();
    expect([html.status, html.headers.get('content-type')]).toEqual([502, 'text/html; charset=utf-8']);
    expect(await html.text()).toContain('<html>');
    const empty = await balances();
    expect([empty.status, await empty.text()]).toEqual([503, '']);
  });

  it('applies nothing: a failed transfer moves no money', async () => {
    sandbox.faults.failNext('/transfer', 1);
    expect((await transfer()).status).toBe(500);
    expect(sandbox.state.balanceOf(OPS, 'base:usdc')?.available).toBe(120_000.5);
    expect(sandbox.state.received).toHaveLength(1);
  });

  it('touches only the named path', async () => {
    sandbox.faults.failNext('/transfer', 1);
    expect((await balances()).status).toBe(200);
  });
});

describe('hangAfterApply', () => {
  it('applies the transfer and never answers, until close() destroys the socket', async () => {
    sandbox.faults.hangAfterApply('/transfer');
    const outcome = transfer().then(
      () => 'answered',
      () => 'connection closed',
    );
    // Wait for the money to move, not a fixed time; the outcome below proves no answer came.
    await eventually(() => sandbox.state.balanceOf(OPS, 'base:usdc')?.available === 119_000.5, 5_000, 'the apply');
    const started = Date.now();
    await sandbox.close();
    expect(Date.now() - started).toBeLessThan(1_000);
    await expect(outcome).resolves.toBe('connection closed');
  });

  it('hangs only the next `count` calls', async () => {
    sandbox.faults.hangAfterApply('/transfer', 1);
    const hung = transfer(AbortSignal.timeout(200)).catch((e: unknown) => e);
    expect(await hung).toMatchObject({ name: 'TimeoutError' });
    expect((await transfer()).status).toBe(200);
    expect(sandbox.state.balanceOf(OPS, 'base:usdc')?.available).toBe(118_000.5);
  });
});

describe('latency and reset', () => {
  it('latency delays every answer', async () => {
    sandbox.faults.latency(150);
    const started = Date.now();
    expect((await balances()).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('close() does not wait for a delayed answer', async () => {
    sandbox.faults.latency(60_000);
    const pending = balances().catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    await sandbox.close();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await pending).toBeInstanceOf(Error);
  });

  it('reset() clears latency, pending failures and hangs', async () => {
    sandbox.faults.latency(5_000);
    sandbox.faults.failNext('/balances', 3);
    sandbox.faults.hangAfterApply('/transfer');
    sandbox.faults.reset();
    expect((await balances()).status).toBe(200);
    expect((await transfer()).status).toBe(200);
  });

  it('close() twice is harmless', async () => {
    await sandbox.close();
    await expect(sandbox.close()).resolves.toBeUndefined();
  });
});
