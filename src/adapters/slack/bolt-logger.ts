/** Bolt logs through our pino logger (one stream, one redaction policy). */
import { type Logger as BoltLogger, LogLevel } from '@slack/bolt';
import type { Logger } from '../../log.js';

export function boltLogger(log: Logger): BoltLogger {
  const child = log.child({ component: 'bolt' });
  // A failed Redis command carries its arguments (a script's ARGV may hold a sealed request): never
  // printed; errors print their message only.
  const safe = (_key: string, v: unknown) =>
    v instanceof Error ? v.message : _key === 'args' && Array.isArray(v) ? `[${v.length} arguments]` : v;
  const text = (msgs: unknown[]) =>
    msgs.map((m) => (typeof m === 'string' ? m : m instanceof Error ? m.message : JSON.stringify(m, safe))).join(' ');
  let level = LogLevel.INFO;
  return {
    // Bolt's and the Web API client's debug lines print request bodies as plain text, which
    // pino cannot redact (modal inputs may hold a BVN or an account number): dropped.
    debug: () => {},
    info: (...m: unknown[]) => child.info(text(m)),
    warn: (...m: unknown[]) => child.warn(text(m)),
    error: (...m: unknown[]) => child.error(text(m)),
    setLevel: (l: LogLevel) => {
      level = l;
    },
    getLevel: () => level,
    setName: () => {},
  };
}
