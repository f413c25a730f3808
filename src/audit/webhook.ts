/**
 * The audit webhook's message: one JSON body per state change, signed like Slack's
 * requests — HMAC-SHA256 over `v0:<unix seconds>:<body>` with AUDIT_WEBHOOK_SECRET, sent in
 * `x-rampart-signature: v0=<hex>` beside `x-rampart-request-timestamp`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { request } from 'undici';
import { VIEW_STATES, type ViewState } from '../domain/approval.js';
import { maskLongNumbers } from '../domain/personal-data.js';
import type { HistoryEntry, RequestRecord } from '../domain/request.js';
import type { AuditRow } from './batch-rows.js';

export const SIGNATURE_HEADER = 'x-rampart-signature';
export const TIMESTAMP_HEADER = 'x-rampart-request-timestamp';

export interface AuditEventBody {
  /** `<request id>:<history position>`: the same event always carries the same id. */
  event_id: string;
  request_id: string;
  kind: string;
  state: ViewState;
  event: string;
  at: string;
  by: string | null;
  detail: string | null;
  call_hash: string;
  outcome: Record<string, string> | null;
  /** The batch row (execution) the event is about: its id, destination, amount, state… */
  execution_id?: string;
  row?: AuditRow;
}

/** The state a history entry moved the request into, or undefined for votes and notes. */
export function stateOf(entry: HistoryEntry): ViewState | undefined {
  if (entry.event === 'requested') return 'pending';
  // A not-paid proposal leaves the payment unknown, but it is a step the trail must carry.
  if (entry.event === 'not-paid-proposed') return 'unknown';
  return (VIEW_STATES as readonly string[]).includes(entry.event) ? (entry.event as ViewState) : undefined;
}

export function eventBody(
  record: RequestRecord,
  entry: HistoryEntry,
  seq: number,
  state: ViewState,
  row?: AuditRow,
): string {
  const final = ['succeeded', 'failed', 'unknown'].includes(state);
  // A batch row's event carries the row's own proof, not the approval's.
  const own = row
    ? row.proof
      ? { [record.sealed.call.kind === 'transfer' ? 'hash' : 'reference']: row.proof }
      : {}
    : record.outcome;
  const outcome = final && own ? own : undefined;
  const body: AuditEventBody = {
    event_id: `${record.sealed.id}:${seq}`,
    request_id: record.sealed.id,
    kind: record.sealed.call.kind,
    state,
    event: entry.event,
    at: new Date(entry.at).toISOString(),
    by: entry.by ?? null,
    detail: entry.detail === undefined ? null : maskLongNumbers(entry.detail),
    call_hash: record.sealed.hash,
    outcome: outcome
      ? Object.fromEntries(
          Object.entries(outcome)
            .filter((e): e is [string, string] => typeof e[1] === 'string')
            .map(([k, v]) => [k, k === 'message' ? maskLongNumbers(v) : v]),
        )
      : null,
    // The row as it stood at this event (its proof once final).
    ...(row ? { execution_id: row.execution_id, row: { ...row, state, proof: final ? row.proof : undefined } } : {}),
  };
  return JSON.stringify(body);
}

export const signature = (secret: string, timestamp: number, body: string): string =>
  `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;

/** The receiver's side: the README shows the same check. */
export function verifySignature(
  secret: string,
  headers: { timestamp: string | undefined; signature: string | undefined },
  body: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): boolean {
  const ts = Number(headers.timestamp);
  if (!Number.isInteger(ts) || Math.abs(nowSeconds - ts) > toleranceSeconds || !headers.signature) return false;
  const wanted = Buffer.from(signature(secret, ts, body));
  const given = Buffer.from(headers.signature);
  return wanted.length === given.length && timingSafeEqual(wanted, given);
}

export class WebhookRefused extends Error {
  override readonly name = 'WebhookRefused';
}

/** One signed POST; throws unless the receiver answered 2xx. */
export async function postEvent(
  to: { url: string; secret: string; now: () => number },
  body: string,
  timeoutMs: number,
): Promise<void> {
  const timestamp = Math.floor(to.now() / 1000);
  const res = await request(to.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      [TIMESTAMP_HEADER]: String(timestamp),
      [SIGNATURE_HEADER]: signature(to.secret, timestamp, body),
    },
    body,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  await res.body.dump();
  if (res.statusCode < 200 || res.statusCode >= 300)
    throw new WebhookRefused(`the audit webhook answered HTTP ${res.statusCode}`);
}
