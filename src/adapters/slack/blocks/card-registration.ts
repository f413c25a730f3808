/**
 * Card lines for beneficiaries registered as they already exist at the service: what
 * was checked with the service (the identities) apart from what is only stated (everything
 * else), within one section's 3,000 characters. Pure.
 */

import { bvnText } from '../../../domain/personal-data.js';
import type { RequestDisplay, SealedRequest, StatedBeneficiary } from '../../../domain/request.js';
import { plural, pluralWord } from '../../../domain/words.js';
import { esc } from './common.js';

/** Room for the rows inside a 3,000-character section, beside the other lines. */
const ROWS_BUDGET = 2_000;

const row = (b: StatedBeneficiary): string =>
  `• \`${esc(b.beneficiary_id)}\` · ${esc(b.label)} · ${esc(b.bank_name)} ••••${esc(b.account_last4)} · identity \`${esc(b.identity_id)}\``;

export function registrationLines(sealed: SealedRequest): string[] {
  const { call, display, requester, id } = sealed;
  if (call.kind !== 'register-beneficiary') return [];
  const rows = call.body.beneficiaries;
  const lines = [
    `*Registers ${plural(rows.length, 'beneficiary', 'beneficiaries')} that already exist at the service* as payout destinations${display.importFile ? ` (from \`${esc(display.importFile)}\`)` : ''}. Nothing is sent to the service.`,
  ];
  let used = 0;
  let shown = 0;
  for (const b of rows) {
    const text = row(b);
    if (used + text.length > ROWS_BUDGET) break;
    lines.push(text);
    used += text.length + 1;
    shown += 1;
  }
  if (shown < rows.length)
    lines.push(`…and ${rows.length - shown} more: \`rampart requests show ${id}\` lists every row.`);
  const checked = display.identitiesChecked ?? [];
  const active = checked.filter((i) => i.active).length;
  lines.push(
    `:white_check_mark: *Checked with the service:* ${checked.length === 1 ? `identity \`${esc(checked[0]?.id ?? '')}\` (${bvnText(checked[0]?.bvnLast4)})` : `all ${checked.length} identities`} ${pluralWord(checked.length, 'exists', 'exist')} and ${active === checked.length ? pluralWord(checked.length, 'is', 'are') : 'were not all'} active (GET /identity, when submitted).`,
    `:warning: *As stated by <@${requester}>, not checked:* the beneficiary ids, labels, banks and account digits. The service has no way to read a beneficiary back (interface 2.0.0), so Rampart could not check them. Approve only if you know them to be right.`,
  );
  return lines;
}

/** The marking every offramp card to such a beneficiary carries. */
export const statedPayeeLine = (display: RequestDisplay): string | undefined =>
  display.beneficiaryStatedBy
    ? `:warning: *Registered as an existing beneficiary:* ${display.beneficiaryBank ? `${esc(display.beneficiaryBank)}, ` : ''}account digits and label are as stated by <@${display.beneficiaryStatedBy}>, not checked with the service.`
    : undefined;
