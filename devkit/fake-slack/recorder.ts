/** Every call the app made, every Block Kit violation and every refused call, with polling helpers. */
import type { RecordedCall } from './types.js';

export class CallRecorder {
  readonly calls: RecordedCall[] = [];
  readonly #onRecord: (call: RecordedCall) => void;
  /** Block Kit limit violations, readable; tests assert this stays empty. */
  readonly violations: string[] = [];
  /** Every call Slack would have refused (unknown method, bad auth, expired trigger, …). */
  readonly problems: string[] = [];

  /** `onRecord` runs after each call is recorded (the fake's change notification). */
  constructor(onRecord: (call: RecordedCall) => void = () => {}) {
    this.#onRecord = onRecord;
  }

  record(call: RecordedCall): void {
    this.calls.push(call);
    const { response } = call;
    if (response.ok === false && call.status !== 429) {
      const detail = Array.isArray(response.errors) ? `: ${response.errors.join('; ')}` : '';
      this.problems.push(`${call.method} → ${String(response.error)}${detail}`);
    }
    this.#onRecord(call);
  }

  callsTo(method: string): RecordedCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  /**
   * Polls the recorded calls until `predicate` returns something other than undefined, null or
   * false, and resolves with it; rejects after `timeoutMs` of wall time.
   */
  waitFor<T>(
    predicate: (calls: readonly RecordedCall[]) => T | undefined | null | false,
    timeoutMs = 5000,
  ): Promise<T> {
    const started = Date.now();
    return new Promise<T>((resolve, reject) => {
      const tick = (): void => {
        let value: T | undefined | null | false;
        try {
          value = predicate(this.calls);
        } catch (err) {
          reject(err);
          return;
        }
        if (value !== undefined && value !== null && value !== false) {
          resolve(value);
          return;
        }
        if (Date.now() - started >= timeoutMs) {
          const seen = this.calls.map((c) => c.method).join(', ') || 'none';
          reject(new Error(`fake Slack: condition not met within ${timeoutMs} ms; calls so far: ${seen}`));
          return;
        }
        setTimeout(tick, 10);
      };
      tick();
    });
  }

  reset(): void {
    this.calls.length = 0;
    this.violations.length = 0;
    this.problems.length = 0;
  }
}
