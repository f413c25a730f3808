/**
 * The warnings on a card , as card lines and as what the
 * approver confirms on Approve: repeats of earlier payments (a repeat of an UNKNOWN payment
 * first and in bold: it may have been paid), the same batch file again, new destinations, rows
 * repeating another row of the file. Pure; ages are counted from the request's own creation, so
 * a card says the same thing every time it is redrawn.
 */
import { type BatchFacts, rowList } from '../../../domain/batch-approval.js';
import { howLongBefore, type RepeatHit } from '../../../domain/repeats.js';
import type { SealedRequest } from '../../../domain/request.js';
import { esc } from './common.js';

/** Shown after the request id in an Approve button's value when the approver confirmed warnings. */
export const WARNINGS_CHECKED = 'warnings-checked';

/** Repeated rows named one per line on a batch card; the rest are counted. */
const ROW_LINES = 10;

const STATE_WORDS: Record<RepeatHit['state'], string> = {
  pending: 'pending',
  approved: 'approved, not yet run',
  executing: 'executing',
  succeeded: 'succeeded',
  unknown: 'outcome UNKNOWN',
};

const unknownLine = (who: string, of: string) =>
  `:rotating_light: *${who} repeats ${of}, whose outcome is UNKNOWN — check it first*`;

const plainLine = (who: string, h: RepeatHit, createdAt: number, self: string) =>
  `:warning: *Repeat:* ${who} repeats ${h.of} (${STATE_WORDS[h.state]}, requested ${howLongBefore(h.at, createdAt)} before ${self})`;

/** A transfer's or offramp's repeat lines: same asset, destination and amount, unknown first. */
export function requestRepeatLines(f: SealedRequest): string[] {
  return (f.display.repeats ?? []).map((h) =>
    h.state === 'unknown' ? unknownLine('This payment', h.of) : plainLine('this payment', h, f.createdAt, 'this one'),
  );
}

/** A batch card's warnings, most urgent first. */
/** `viaApi`: a new destination in a batch from the HTTP API is said in bold. */
export function batchWarningLines(b: BatchFacts, createdAt: number, viaApi = false): string[] {
  // Kept unknown first (app/repeats.ts): the first ROW_LINES are named, the rest counted.
  const repeats = b.repeats ?? [];
  const named = repeats.slice(0, ROW_LINES);
  const lines = named.filter((r) => r.state === 'unknown').map((r) => unknownLine(`row ${r.row}`, r.of));
  for (const s of b.sameFile ?? [])
    lines.push(
      `:warning: *Same file:* the same payments (kind, wallet, asset, destinations and amounts) were submitted as ${s.id}, ${howLongBefore(s.at, createdAt)} before this batch; it is ${esc(s.state)}`,
    );
  for (const r of named.filter((x) => x.state !== 'unknown'))
    lines.push(plainLine(`row ${r.row}`, r, createdAt, 'this batch'));
  const unnamed = (b.repeatedRows ?? repeats.length) - named.length;
  if (unnamed > 0) lines.push(`…and ${unnamed} more rows repeating an earlier payment`);
  for (const l of (b.lookalikes ?? []).slice(0, ROW_LINES))
    lines.push(
      `:warning: *Lookalike:* row ${l.row} pays \`${esc(l.address)}\`, which looks like ${esc(l.of)} \`${esc(l.ofAddress)}\` (same first 6 and last 4 characters)`,
    );
  const fresh = b.newDestinations ?? [];
  if (fresh.length > 0) {
    const what = b.kind === 'offramps' ? 'a beneficiary' : 'an address';
    lines.push(
      `:warning: ${viaApi ? '*new destination via API* · ' : ''}*New destinations:* ${fresh.length === b.rows && b.rows > 1 ? `all ${b.rows} rows pay` : `${rowList(fresh)} pay${fresh.length === 1 ? 's' : ''}`} ${what} Rampart has never paid`,
    );
  }
  for (const r of (b.repeatsInFile ?? []).slice(0, ROW_LINES))
    lines.push(`:warning: *Repeat:* row ${r.row} repeats row ${r.of} of this file (same destination and amount)`);
  const more = (b.repeatsInFile?.length ?? 0) - ROW_LINES;
  if (more > 0) lines.push(`…and ${more} more repeated rows`);
  return lines;
}

/**
 * What the approver confirms having checked ("I checked rows 3 and 7 (repeats) and row 12 (new
 * destination)"), or undefined when the card has no warning to confirm.
 */
export function checkedWarnings(f: SealedRequest): string | undefined {
  const b = f.display.batch;
  const entries = f.display.entryLookalikes ?? [];
  if (entries.length > 0)
    return `I checked ${entries
      .slice(0, 3)
      .map((l) => `entry ${l.row}: lookalike of ${l.of}`)
      .join(', ')}${entries.length > 3 ? ` and ${entries.length - 3} more` : ''}.`;
  if (!b) {
    const r = f.display.repeats ?? [];
    const alike = f.display.lookalike ? `I checked the receiver: lookalike of ${f.display.lookalike.of}.` : '';
    if (r.length === 0) return alike || undefined;
    if (alike) return `${alike} I checked ${r.map((h) => h.of).join(', ')}, which this payment repeats.`;
    return `I checked ${r.map((h) => h.of).join(', ')}, which this payment repeats${r.some((h) => h.state === 'unknown') ? ' (an outcome UNKNOWN among them)' : ''}.`;
  }
  const repeated = [...new Set([...(b.repeats ?? []), ...(b.repeatsInFile ?? [])].map((r) => r.row))].sort(
    (x, y) => x - y,
  );
  const parts: string[] = (b.lookalikes ?? []).slice(0, 3).map((l) => `row ${l.row}: lookalike of ${l.of}`);
  if (repeated.length > 0) parts.push(`${rowList(repeated, 6)} (repeats)`);
  const fresh = b.newDestinations ?? [];
  if (fresh.length > 0) parts.push(`${rowList(fresh, 6)} (new destination${fresh.length === 1 ? '' : 's'})`);
  if ((b.sameFile ?? []).length > 0) parts.push(`the earlier ${b.sameFile?.map((s) => s.id).join(', ')} (same file)`);
  if (parts.length === 0) return undefined;
  const last = parts.pop();
  return `I checked ${parts.length > 0 ? `${parts.join(', ')} and ${last}` : last}.`;
}
