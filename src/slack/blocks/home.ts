/** App Home: what waits for approval, recent requests, and where to start. Pure builder. */
import type { View } from '@slack/types';
import type { RequestRecord } from '../../domain/request.js';
import type { FreezeState } from '../../store/controls.js';
import { summaryLine } from './card-summary.js';
import { type Blocks, context, header, section, slackDate } from './common.js';
import { freezeBannerText } from './freeze.js';

// Issue 23 item 11: each row says what moves from where to where (the sealed amount included).
const line = (r: RequestRecord): string =>
  `*${r.frozen.id}* · ${summaryLine(r.frozen)} · ${r.state} · by <@${r.frozen.requester}> ${slackDate(r.frozen.createdAt)}`;

export function homeView(
  pending: RequestRecord[],
  recent: RequestRecord[],
  sandbox: boolean,
  freeze?: FreezeState,
): View {
  const waiting = new Set(pending.map((r) => r.frozen.id));
  const recentOnly = recent.filter((r) => !waiting.has(r.frozen.id));
  const blocks: Blocks = [
    header('Rampart'),
    ...(freeze ? [section(freezeBannerText(freeze))] : []), // issue 13
    section(
      'Balances `/balance` · rates `/rate` · bank lookup `/lookup` · payments `/transfer`, `/offramp` · setup `/identity`, `/beneficiary` · stop everything `/freeze`. Add `help` to any command for its usage.',
    ),
    { type: 'divider' },
    section(`*Waiting for approval* (${pending.length})`),
    section(pending.length ? pending.slice(0, 15).map(line).join('\n') : '_Nothing is waiting._'),
    { type: 'divider' },
    section('*Recent requests*'),
    // No row twice: what is waiting is listed above only.
    section(recentOnly.length ? recentOnly.slice(0, 15).map(line).join('\n') : '_No other requests yet._'),
  ];
  if (sandbox) blocks.push(context(':test_tube: Sandbox: no real money moves.'));
  return { type: 'home', blocks };
}
