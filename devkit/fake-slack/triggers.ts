/**
 * Trigger ids the fake handed out with an interaction. Slack lets an app exchange one once,
 * within 3 seconds (https://docs.slack.dev/interactivity/handling-user-interaction#modal_responses);
 * the error codes are the ones Slack answers with.
 */
import type { IdSource } from './ids.js';

export type TriggerUse =
  | { ok: true; user: string | undefined }
  | { ok: false; error: 'invalid_arguments' | 'exchanged_trigger_id' | 'expired_trigger_id' };

interface Issued {
  user: string | undefined;
  issuedAt: number;
  used: boolean;
}

export class TriggerRegistry {
  #issued = new Map<string, Issued>();
  readonly #ids: IdSource;
  readonly #clock: () => number;
  readonly #ttlMs: number;

  constructor(ids: IdSource, clock: () => number, ttlMs: number) {
    this.#ids = ids;
    this.#clock = clock;
    this.#ttlMs = ttlMs;
  }

  issue(user?: string): string {
    const id = this.#ids.triggerId();
    this.#issued.set(id, { user, issuedAt: this.#clock(), used: false });
    return id;
  }

  /** Exchanges a trigger id: valid once, and only while fresh. */
  use(triggerId: unknown): TriggerUse {
    const issued = typeof triggerId === 'string' ? this.#issued.get(triggerId) : undefined;
    if (!issued) return { ok: false, error: 'invalid_arguments' };
    if (issued.used) return { ok: false, error: 'exchanged_trigger_id' };
    if (this.#clock() - issued.issuedAt >= this.#ttlMs) return { ok: false, error: 'expired_trigger_id' };
    issued.used = true;
    return { ok: true, user: issued.user };
  }

  reset(): void {
    this.#issued.clear();
  }
}
