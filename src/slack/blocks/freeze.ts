/** Kill switch texts (issue 13): the banner on every open card and App Home, click refusals. Pure. */
import type { FreezeState } from '../../store/controls.js';
import { esc, slackDate } from './common.js';

export const freezeBannerText = (f: FreezeState): string =>
  `:octagonal_sign: *Frozen by <@${f.by}> at ${slackDate(f.at, '{time}')}: ${esc(f.reason)}* Nothing is approved or executed until an unfreeze is approved (\`/unfreeze\`).`;

export function frozenClickText(id: string, f: FreezeState | undefined): string {
  const who = f ? ` by <@${f.by}> at ${slackDate(f.at, '{time}')} (${esc(f.reason)})` : '';
  return `Rampart is frozen${who}, so ${id} cannot be approved now; nothing changed. It can be approved once an unfreeze is approved with /unfreeze.`;
}
