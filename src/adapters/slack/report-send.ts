/**
 * Sending a report: Slack's own chart block first; where the workspace refuses it
 * (`invalid_blocks`), the same charts as PNGs drawn in the process, uploaded through the files
 * API (files:write, no channel: nothing public) and shown by image blocks' `slack_file`. The
 * chart library is imported only here, on the first drawing (web processes that never draw keep
 * today's memory). A posted report gets the CSV of its rows, and the PNGs, in its thread.
 */
import type { WebClient } from '@slack/web-api';
import type { ReportView } from '../../app/report.js';
import type { ReportPoster } from '../../app/weekly-report.js';
import type { ChartSpec } from '../../charts/chart-spec.js';
import type { Logger } from '../../log.js';
import type { Blocks } from './blocks/common.js';
import { type ChartMode, reportBlocks, reportFallbackText } from './blocks/report.js';

export interface ReportSendDeps {
  client: WebClient;
  log: Logger;
}

export const isInvalidBlocks = (err: unknown): boolean =>
  (err as { data?: { error?: unknown } } | undefined)?.data?.error === 'invalid_blocks';

async function pngs(charts: readonly ChartSpec[]): Promise<Buffer[]> {
  const { renderPng } = await import('../../charts/render-png.js');
  const out: Buffer[] = [];
  for (const spec of charts) out.push(await renderPng(spec));
  return out;
}

/** Uploads each chart's PNG without sharing it anywhere; returns the file ids in chart order. */
async function uploadCharts(deps: ReportSendDeps, charts: readonly ChartSpec[], days: number): Promise<string[]> {
  const ids: string[] = [];
  const images = await pngs(charts);
  for (const [i, bytes] of images.entries()) {
    const r = await deps.client.filesUploadV2({
      file: bytes,
      filename: `report-${days}d-${i + 1}.png`,
      title: charts[i]?.title ?? 'chart',
    });
    const id = (r.files as { files?: { id?: string }[] }[] | undefined)?.[0]?.files?.[0]?.id;
    if (!id) throw new Error('Slack did not return the uploaded chart file');
    ids.push(id);
  }
  return ids;
}

/**
 * Sends the report through `send` (postMessage or postEphemeral) and returns what it returned;
 * on `invalid_blocks` sends it again with the charts as uploaded images.
 */
export async function sendReport<T>(
  deps: ReportSendDeps,
  view: ReportView,
  days: number,
  send: (text: string, blocks: Blocks) => Promise<T>,
  footer?: string,
): Promise<{ sent: T; mode: ChartMode['kind'] }> {
  const text = reportFallbackText(view, days);
  const build = (mode: ChartMode) => reportBlocks(view, days, mode, footer);
  try {
    return { sent: await send(text, build({ kind: 'native' })), mode: 'native' };
  } catch (err) {
    if (!isInvalidBlocks(err) || view.charts.length === 0) throw err;
    deps.log.info('chart block refused by the workspace; sending the charts as images');
    const fileIds = await uploadCharts(deps, view.charts, days);
    return { sent: await send(text, build({ kind: 'images', fileIds })), mode: 'images' };
  }
}

/** A posted report's thread: the CSV of its rows and the charts as PNG files. */
export async function uploadReportFiles(
  deps: ReportSendDeps,
  view: ReportView,
  days: number,
  channel: string,
  threadTs: string,
): Promise<void> {
  const images = view.charts.length ? await pngs(view.charts) : [];
  await deps.client.filesUploadV2({
    channel_id: channel,
    thread_ts: threadTs,
    initial_comment: 'The rows of this report (CSV) and its charts (PNG).',
    file_uploads: [
      { file: Buffer.from(view.csv, 'utf8'), filename: `rampart-report-${days}d.csv`, title: 'Report rows (CSV)' },
      ...images.map((file, i) => ({
        file,
        filename: `rampart-report-${days}d-${i + 1}.png`,
        title: view.charts[i]?.title ?? 'chart',
      })),
    ],
  });
}

/**
 * Slack answered and posted nothing (an error answer such as channel_not_found, or a rate limit):
 * the weekly report may be tried again. Anything else (no answer, a time-out, HTTP 5xx) may have
 * posted it (never posted twice).
 */
const slackRefused = (err: unknown): string | undefined => {
  const e = err as { code?: unknown; data?: { error?: unknown } } | undefined;
  if (e?.code === 'slack_webapi_rate_limited_error') return 'rate limited';
  if (e?.code === 'slack_webapi_platform_error') return String(e.data?.error ?? 'an error');
  return undefined;
};

/** The workers' report port (app/weekly-report.ts): the report's message, then its files in the thread. */
export function slackReportPoster(deps: ReportSendDeps): ReportPoster {
  return {
    async postReport(channel, view, days) {
      try {
        const { sent } = await sendReport(deps, view, days, (text, blocks) =>
          deps.client.chat.postMessage({ channel, text, blocks }),
        );
        return { ts: sent.ts ?? '' };
      } catch (err) {
        const refused = slackRefused(err);
        if (refused === undefined) throw err;
        return { refused };
      }
    },
    async attachFiles(channel, ts, view, days) {
      if (ts) await uploadReportFiles(deps, view, days, channel, ts);
    },
  };
}
