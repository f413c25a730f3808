/**
 * /report [7d|30d] [post]: read the words, ack, then build the report from stored
 * records and answer privately; `post` shares it — only in REPORT_CHANNEL or the approvals
 * channel, never in a channel shared with another organisation (Slack Connect) — with the CSV
 * of its rows and the chart PNGs in its thread.
 */
import type { WebClient } from '@slack/web-api';
import { REPORT_SPANS, type ReportSpan } from '../../../app/report.js';
import { esc } from '../blocks/common.js';
import { isHelp } from '../blocks/usage.js';
import type { Deps } from '../deps.js';
import { isInvalidBlocks, sendReport, uploadReportFiles } from '../report-send.js';
import type { CommandHandler, Routes } from '../routes.js';
import { canView, NOT_A_VIEWER } from '../viewers.js';

export const REPORT_USAGE =
  'Usage: `/report [7d|30d] [post]` shows the treasury report of the last 7 (default) or 30 days, privately; `post` shares it in this channel when it is the report or approvals channel. Example: `/report 30d post`';

export function parseReportWords(text: string): { span: ReportSpan; post: boolean } | string {
  const words = text.trim().toLowerCase().split(/\s+/).filter(Boolean);
  let span: ReportSpan = '7d';
  let post = false;
  for (const w of words) {
    if (w in REPORT_SPANS) span = w as ReportSpan;
    else if (w === 'post') post = true;
    else return `"${esc(w)}" is not a report option: give 7d or 30d, and post to share it. ${REPORT_USAGE}`;
  }
  return { span, post };
}

/** Where `post` may share: one sentence when not here. */
async function postProblem(deps: Deps, client: WebClient, channel: string): Promise<string | undefined> {
  const allowed = [deps.config.reports.channel, deps.config.approvalsChannel].filter((c): c is string => !!c);
  if (!allowed.includes(channel))
    return `Reports are shared only in ${allowed.map((c) => `<#${c}>`).join(' or ')}; type \`/report … post\` there, or leave out \`post\` to see it privately.`;
  const info = await client.conversations.info({ channel });
  const c = info.channel as { is_ext_shared?: boolean; is_pending_ext_shared?: boolean } | undefined;
  if (c?.is_ext_shared || c?.is_pending_ext_shared)
    return 'This channel is shared with another organisation (Slack Connect), so Rampart does not post treasury figures here; leave out `post` to see it privately.';
  return undefined;
}

/** /report: a sentence for a word it does not know, else the report privately or shared. */
export const reportCommand =
  (deps: Deps): CommandHandler =>
  async ({ command, ack, client, respond }) => {
    const text = command.text ?? '';
    const parsed = isHelp(text) ? REPORT_USAGE : parseReportWords(text);
    if (typeof parsed === 'string') {
      await ack({ response_type: 'ephemeral', text: parsed });
      return;
    }
    await ack();
    // Sentences go through the response URL: it works in any channel, the bot a member or not.
    const privately = (answer: string) =>
      respond({ response_type: 'ephemeral', text: answer }).catch((err: unknown) =>
        deps.log.warn({ err }, 'could not answer /report'),
      );
    try {
      if (!(await canView(deps, client, command.user_id))) return void (await privately(NOT_A_VIEWER));
      const problem = parsed.post ? await postProblem(deps, client, command.channel_id) : undefined;
      if (problem) return void (await privately(problem));
      const days = REPORT_SPANS[parsed.span];
      const view = await deps.app.reports.report(days);
      const send = { client, log: deps.log };
      if (!parsed.post) {
        // postEphemeral names a refused block (invalid_blocks); where the bot may not post
        // (not in the channel), the response URL carries the same answer.
        await sendReport(
          send,
          view,
          days,
          (t, blocks) =>
            client.chat
              .postEphemeral({ channel: command.channel_id, user: command.user_id, text: t, blocks })
              .catch(async (err: unknown) => {
                if (isInvalidBlocks(err)) throw err;
                await respond({ response_type: 'ephemeral', text: t, blocks });
              }),
          'Add `post` to share it here with the CSV of its rows; `rampart report --since 30d --format csv` gives the rows too.',
        );
        return;
      }
      const { sent } = await sendReport(
        send,
        view,
        days,
        (t, blocks) => client.chat.postMessage({ channel: command.channel_id, text: t, blocks }),
        `Shared by <@${command.user_id}>.`,
      );
      if (sent.ts) await uploadReportFiles(send, view, days, command.channel_id, sent.ts);
    } catch (err) {
      deps.log.error({ err }, '/report failed');
      await privately('Rampart could not build the report just now; try again in a minute.');
    }
  };

export function registerReportCommand(app: Routes, deps: Deps): void {
  app.command('/report', reportCommand(deps));
}
