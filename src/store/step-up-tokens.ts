/**
 * One-time links of the passkey pages: a random token (256 bits) handed to one
 * person; Redis keeps only its SHA-256, with what it is bound to, until it expires or is used.
 * Attempts are counted per token and per person; the use is one script with the signature
 * counter's compare-and-set, so two replays of one assertion cannot both count.
 */

import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { luaScript } from './lua-scripts.js';
import type { RedisClient } from './redis.js';
import { repliesOf } from './redis-errors.js';
import { evalScript } from './run-script.js';

export const tokenDataSchema = z.object({
  /**
   * approve: a payment's vote; enrol: register a passkey; enrol-approve: approve someone's new
   * passkey; remove: remove one of your own passkeys with another; resume: resume a paused batch;
   * confirm-not-paid: confirm an execution whose outcome is unknown as not paid.
   */
  purpose: z.enum(['approve', 'enrol', 'enrol-approve', 'remove', 'resume', 'confirm-not-paid']),
  user: z.string(),
  /**
   * The approval id (approve, resume), the execution id (confirm-not-paid), or
   * `<owner>/<credential id>` (enrol-approve, remove).
   */
  subject: z.string(),
  /** The full hash the passkey must commit to (approvals), '' otherwise. */
  subjectHash: z.string(),
  nonce: z.string(),
  expiresAt: z.number(),
  /** enrol: from the CLI, no approval and no cool-down. */
  bootstrap: z.boolean().optional(),
  /** approve: the approver confirmed the card's warnings before the passkey. */
  warningsChecked: z.boolean().optional(),
  /** confirm-not-paid: the id of the proposal the confirmer saw. */
  proposal: z.string().max(200).optional(),
});
export type TokenData = z.infer<typeof tokenDataSchema>;

export type Attempt =
  | { kind: 'ok'; data: TokenData }
  | { kind: 'invalid' }
  | { kind: 'token-limit'; data: TokenData }
  | { kind: 'user-limit'; data: TokenData };

export const ATTEMPTS_PER_TOKEN = 5;
/** How long a link message's response URL is kept (Slack accepts one for 30 minutes). */
export const LINK_MESSAGE_MS = 30 * 60_000;
export const ATTEMPTS_PER_USER_HOUR = 20;
/**
 * Per client address (only behind a named proxy, TRUST_PROXY): every attempt counts, a link that
 * does not exist too, so guessing links from one address stops here. Room for a few approvers
 * behind one office address, each using their own 20.
 */
export const ATTEMPTS_PER_ADDRESS_HOUR = 60;
const HOUR_MS = 3_600_000;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
/** 256 random bits, base64url: what the link carries in its fragment. */
export const newToken = (): string => randomBytes(32).toString('base64url');
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** One counted attempt on a token. */
const ATTEMPT_TOKEN = luaScript('step-up-attempt-token');

/** One counted attempt against a person or an address in a window. */
const ATTEMPT_USER = luaScript('step-up-attempt-count');

/** The token goes and the passkey counter moves only together. */
const CONSUME = luaScript('step-up-consume');

export type Consumed = 'ok' | 'gone' | 'no-passkey' | 'counter';

export class StepUpTokens {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {}

  private key = (token: string) => `${this.prefix}:stepup:token:${hashToken(token)}`;
  private userKey = (user: string) => `${this.prefix}:stepup:attempts:${user}`;
  /** Hashed: an address is personal data, and a key needs no colons from IPv6. */
  private addressKey = (address: string) => `${this.prefix}:stepup:from:${hashToken(address)}`;

  /** A new token bound to `data`; it lives until `data.expiresAt` (Redis expiry). */
  async issue(data: TokenData, now: number): Promise<string> {
    const token = newToken();
    const ttl = Math.max(1, data.expiresAt - now);
    repliesOf(
      await this.redis
        .multi()
        .hset(this.key(token), 'data', JSON.stringify(tokenDataSchema.parse(data)), 'attempts', '0')
        .pexpire(this.key(token), ttl)
        .exec(),
    );
    return token;
  }

  /** Counts one attempt on the token and on its holder; what the token is bound to when allowed. */
  async attempt(token: string, now: number): Promise<Attempt> {
    if (!TOKEN_SHAPE.test(token)) return { kind: 'invalid' };
    const [outcome, raw] = (await evalScript(
      this.redis,
      ATTEMPT_TOKEN,
      1,
      this.key(token),
      String(ATTEMPTS_PER_TOKEN),
    )) as ['ok' | 'invalid' | 'token-limit', string];
    if (outcome === 'invalid') return { kind: 'invalid' };
    const data = tokenDataSchema.parse(JSON.parse(raw));
    // Redis's expiry is the backstop; the stored deadline is the rule (clock of the web process).
    if (now >= data.expiresAt) return { kind: 'invalid' };
    if (outcome === 'token-limit') return { kind: 'token-limit', data };
    const n = (await evalScript(
      this.redis,
      ATTEMPT_USER,
      1,
      this.userKey(data.user),
      String(ATTEMPTS_PER_USER_HOUR),
      String(HOUR_MS),
    )) as number;
    return n === -1 ? { kind: 'user-limit', data } : { kind: 'ok', data };
  }

  /**
   * Counts one attempt from a client address (one key, one script: cluster-safe, shared by every
   * web process); false once the address is over its hourly limit.
   */
  async attemptFrom(address: string): Promise<boolean> {
    const n = (await evalScript(
      this.redis,
      ATTEMPT_USER,
      1,
      this.addressKey(address),
      String(ATTEMPTS_PER_ADDRESS_HOUR),
      String(HOUR_MS),
    )) as number;
    return n !== -1;
  }

  /** Uses the token together with the passkey's new signature counter (see CONSUME). */
  async consume(token: string, countersKey: string, credentialId: string, counter: number): Promise<Consumed> {
    return (await evalScript(
      this.redis,
      CONSUME,
      2,
      this.key(token),
      countersKey,
      credentialId,
      String(counter),
    )) as Consumed;
  }

  private messageKey = (user: string, purpose: string, subject: string) =>
    `${this.prefix}:stepup:message:${hashToken(`${user} ${purpose} ${subject}`)}`;

  /**
   * Where the private link message can be replaced once the link is used: the response URL of
   * its button's click. Slack accepts a response URL for 30 minutes (Slack's "Handling user
   * interaction": up to 5 times within 30 minutes), so it is kept no longer.
   */
  async keepMessage(user: string, purpose: string, subject: string, url: string): Promise<void> {
    await this.redis.set(this.messageKey(user, purpose, subject), url, 'PX', LINK_MESSAGE_MS);
  }

  /** The kept response URL, once: a second use finds none. */
  async takeMessage(user: string, purpose: string, subject: string): Promise<string | undefined> {
    return (await this.redis.getdel(this.messageKey(user, purpose, subject))) ?? undefined;
  }

  /** Uses a token that moves no counter (enrolment); true only for the one caller that got it. */
  async take(token: string): Promise<boolean> {
    if (!TOKEN_SHAPE.test(token)) return false;
    return (await this.redis.del(this.key(token))) === 1;
  }
}
