/**
 * START's answer and a domain start rule's verdict, each as one word the agreement tests compare
 * (the address book's entries and the beneficiaries' cooling-off both mirror a rule in START).
 */
import type { RequestStore } from '../../src/store/requests.js';

/** What START answered: started, cancelled with its code, waiting (cooling), or refused. */
export const startAnswerOf = (r: Awaited<ReturnType<RequestStore['executions']['start']>>) =>
  r.token !== undefined
    ? 'start'
    : r.cancelled !== undefined
      ? `cancel: ${r.cancelled.code}`
      : r.approval === 'cooling'
        ? 'wait'
        : `refused: ${r.approval ?? r.from}`;

/** What the rule says START must answer. */
export const ruleAnswerOf = (e: { ok: true } | { ok: false; code: string } | { wait: number }) =>
  'wait' in e ? 'wait' : e.ok ? 'start' : `cancel: ${e.code}`;
