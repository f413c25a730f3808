/** App Home: what waits for approval, recent requests, and where to start. Pure builder. */
import type { View } from '@slack/types';
import type { RequestRecord } from '../../domain/request.js';
import type { FreezeState } from '../../store/controls.js';
import { type Blocks, context, esc, header, section, slackDate } from './common.js';
import { freezeBannerText } from './freeze.js';

const line = (r: RequestRecord): string => {
  const f = r.frozen;
  const what =
    f.call.kind === 'beneficiary'
      ? `new beneficiary ${esc(f.display.beneficiaryLabel ?? '')}`
      : f.call.kind === 'register-beneficiary'
        ? `${f.call.body.beneficiaries.length} existing beneficiaries (as stated)`
        : `${f.call.kind} ${esc(f.display.amountText ?? '')} ${esc(f.display.assetCode ?? '')}`;
  return `*${f.id}* · ${what} · ${r.state} · by <@${f.requester}> ${slackDate(f.createdAt, '{date_short} {time}')}`;
};

export function homeView(
  pending: RequestRecord[],
  recent: RequestRecord[],
  sandbox: boolean,
  freeze?: FreezeState,
): View {
  const blocks: Blocks = [
    header('Rampart'),
    ...(freeze ? [section(freezeBannerText(freeze))] : []), // issue 13
    section(
      'Balances `/balance` · rates `/rate` · bank lookup `/lookup` · payments `/transfer`, `/offramp` · setup `/identity`, `/beneficiary`. Add `help` to any command for its usage.',
    ),
    { type: 'divider' },
    section(`*Waiting for approval* (${pending.length})`),
    section(pending.length ? pending.slice(0, 15).map(line).join('\n') : '_Nothing is waiting._'),
    { type: 'divider' },
    section('*Recent requests*'),
    section(recent.length ? recent.slice(0, 15).map(line).join('\n') : '_No requests yet._'),
  ];
  if (sandbox) blocks.push(context(':test_tube: Sandbox: no real money moves.'));
  return { type: 'home', blocks };
}
