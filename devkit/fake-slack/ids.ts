/** Identifier formats that look like Slack's, unique within one fake. */
import { randomBytes } from 'node:crypto';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

function randomId(prefix: string, length: number): string {
  const bytes = randomBytes(length);
  let id = prefix;
  for (const b of bytes) id += ALPHANUMERIC[b % ALPHANUMERIC.length];
  return id;
}

export class IdSource {
  #sequence = 0;
  readonly #clock: () => number;

  constructor(clock: () => number) {
    this.#clock = clock;
  }

  /** A message ts such as `1712345678.000042`: the clock's seconds plus a counter, so unique. */
  messageTs(): string {
    this.#sequence += 1;
    return `${Math.floor(this.#clock() / 1000)}.${String(this.#sequence).padStart(6, '0')}`;
  }

  /** Slack fills in a block_id or action_id the app left out with a short random one. */
  shortId(): string {
    return randomBytes(3).toString('base64url');
  }

  viewId(): string {
    return randomId('V', 10);
  }

  /** Slack view hashes look like `1712345678.AbCdEf12`. */
  viewHash(): string {
    return `${Math.floor(this.#clock() / 1000)}.${randomBytes(6).toString('base64url')}`;
  }

  /** Trigger ids look like `12345.98765.abcd…`. */
  triggerId(): string {
    this.#sequence += 1;
    return `${this.#sequence}${Math.floor(this.#clock() / 1000) % 100000}.${randomBytes(3).readUIntBE(0, 3)}.${randomBytes(16).toString('hex')}`;
  }

  responseUrlId(): string {
    return randomBytes(12).toString('hex');
  }
}
