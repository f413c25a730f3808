/**
 * On the sandbox, the workbench starts with two weeks of generated balance snapshots
 * (every 6 hours, one failed read as a gap), so App Home's 30-day charts have something to draw.
 * The figures follow the sandbox's balances with a gentle, deterministic drift that fades out,
 * and the last snapshot is the balance the sandbox holds now: the chart's last point and
 * "Balances now" agree.
 */
import type { Running } from '../../src/rampart.js';
import { BalanceHistory } from '../../src/store/balance-history.js';

const HOUR = 3_600_000;
const DAYS = 14;

export async function seedBalanceHistory(rampart: Running, now = Date.now()): Promise<number> {
  if (!rampart.sandbox) return 0;
  const { config } = rampart.deps;
  const history = new BalanceHistory(rampart.redis, config.redis.prefix);
  let written = 0;
  for (const [w, wallet] of config.wallets.entries()) {
    const balances = await rampart.deps.service.getBalances(wallet.id).catch(() => []);
    if (balances.length === 0) continue;
    const start = Math.floor((now - DAYS * 24 * HOUR) / (6 * HOUR)) * 6 * HOUR;
    for (let at = start, i = 0; at < now; at += 6 * HOUR, i += 1) {
      if (w === 0 && i === 21) {
        await history.record(wallet.id, { at, gap: true, why: 'the service did not answer in time' });
        continue;
      }
      const fade = Math.min(1, (now - at) / (2 * 24 * HOUR)); // no drift in the last two days' approach
      const drift = (k: number) =>
        1 + fade * (0.25 * Math.sin((i + 3 * k + w) / 5) + 0.1 * Math.cos((i * (k + 2)) / 7));
      const available = Object.fromEntries(
        balances.map((b, k) => [b.id, Math.round(b.available * drift(k) * 100) / 100]),
      );
      await history.record(wallet.id, { at, gap: false, available });
      written += 1;
    }
    const real = Object.fromEntries(balances.map((b) => [b.id, b.available]));
    await history.record(wallet.id, { at: now, gap: false, available: real });
    written += 1;
  }
  return written;
}
