/**
 * What is already promised, as the card says it: "Committed: B-1003 still needs 650,000.00 cNGN
 * (running) · available after this and open commitments: -13,000,000.00 cNGN". Pure.
 */
import { formatAmount } from '../domain/amount.js';
import type { CardCommitments } from '../domain/commitments.js';

const fmt = (units: bigint, decimals: number) => formatAmount({ units, decimals });

/** The card's line, or undefined when nothing else is promised from this balance. */
export function committedLine(c: CardCommitments | undefined): string | undefined {
  if (!c || c.items.length === 0) return undefined;
  const { code } = c;
  const each = c.items.map((i) => `${i.id} still needs ${fmt(i.units, c.decimals)} ${code} (${i.status})`).join(' · ');
  const after =
    c.availableAfter === undefined
      ? ''
      : ` · available after this and open commitments: ${fmt(c.availableAfter, c.decimals)} ${code}`;
  return `Committed: ${each}${after}`;
}

/**
 * The Approve confirmation's warning when the wallet cannot pay this and what is promised: the
 * approval is not refused for it (the balance may be topped up before the turn comes).
 */
export function overCommittedWarning(c: CardCommitments | undefined, compact = false): string | undefined {
  if (!c || c.availableAfter === undefined || c.availableAfter >= 0n || c.items.length === 0) return undefined;
  const ids = c.items.length > 2 ? `${c.items.length} commitments` : c.items.map((i) => i.id).join(', ');
  const by = `Short by ${fmt(-c.availableAfter, c.decimals)} ${c.code} with ${ids}`;
  return compact ? `${by}.` : `${by} (allowed; a payment may fail for funds).`;
}
