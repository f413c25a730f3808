/**
 * Files in Slack: the CSV a person picked in a `file_input`, downloaded with the bot
 * token (files:read), bounded in size and time; and a CSV uploaded to a thread (files:write,
 * the external upload flow). A download that fails or is too slow is one sentence for the file
 * field, never silence and never a stack trace.
 */
import type { WebClient } from '@slack/web-api';
import { request } from 'undici';
import type { Logger } from '../../log.js';

export interface FileDeps {
  client: WebClient;
  botToken: string;
  /** SLACK_API_URL when set (a fake Slack): its origin is where files are served too. */
  apiUrl: string | undefined;
  log: Logger;
}

export interface DownloadLimits {
  maxBytes: number;
  timeoutMs: number;
  /** File extensions accepted, lower case without the dot. */
  types: readonly string[];
}

export type Downloaded = { ok: true; name: string; bytes: Uint8Array } | { ok: false; problem: string };

const SLACK_FILES_ORIGIN = 'https://files.slack.com';

const AGAIN = 'upload it again in a moment';
export const DOWNLOAD_PROBLEMS = {
  timedOut: `Slack took too long to hand Rampart the file; ${AGAIN}.`,
  failed: `Rampart could not download the file from Slack; ${AGAIN}, and if this repeats ask an admin to check the app's files:read scope.`,
  missing: 'Slack no longer has this file; pick the file again.',
} as const;

/** The bot token goes only to Slack's file host, or to the configured SLACK_API_URL's origin (a fake Slack). */
function trustedUrl(url: string | undefined, apiUrl: string | undefined): string | undefined {
  if (!url || !URL.canParse(url)) return undefined;
  const origin = new URL(url).origin;
  const allowed = [SLACK_FILES_ORIGIN, ...(apiUrl && URL.canParse(apiUrl) ? [new URL(apiUrl).origin] : [])];
  return allowed.includes(origin) ? url : undefined;
}

const megabytes = (n: number) => (n / 1_048_576).toFixed(1);

interface FileFacts {
  name?: string;
  filetype?: string;
  size?: number;
  url_private?: string;
  url_private_download?: string;
}

async function fetchBytes(
  url: string,
  deps: FileDeps,
  limits: DownloadLimits,
  signal: AbortSignal,
): Promise<Downloaded> {
  const res = await request(url, {
    headers: { authorization: `Bearer ${deps.botToken}` },
    signal,
    headersTimeout: limits.timeoutMs,
    bodyTimeout: limits.timeoutMs,
  });
  const type = String(res.headers['content-type'] ?? '');
  // Without a valid token Slack redirects to its sign-in page (an HTML answer), never the file.
  if (res.statusCode !== 200 || type.startsWith('text/html')) {
    await res.body.dump();
    deps.log.warn({ status: res.statusCode, contentType: type }, 'Slack did not hand over a submitted file');
    return { ok: false, problem: DOWNLOAD_PROBLEMS.failed };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += (chunk as Buffer).length;
    if (size > limits.maxBytes) {
      res.body.destroy();
      return {
        ok: false,
        problem: `The file is over ${megabytes(limits.maxBytes)} MB; a batch file may be at most 1 MB, so split it.`,
      };
    }
    chunks.push(chunk as Buffer);
  }
  return { ok: true, name: '', bytes: new Uint8Array(Buffer.concat(chunks)) };
}

/** files.info, then the private URL with the bot token; all within `limits.timeoutMs`. */
export async function downloadSubmittedFile(
  deps: FileDeps,
  fileId: string,
  limits: DownloadLimits,
): Promise<Downloaded> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  try {
    const info = await Promise.race([
      deps.client.files.info({ file: fileId }),
      new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true })),
    ]);
    const file = (info.file ?? {}) as FileFacts;
    const name = file.name ?? 'the file';
    const type = (file.filetype ?? /\.([^.]+)$/.exec(name)?.[1] ?? '').toLowerCase();
    if (!limits.types.includes(type) || !name.toLowerCase().endsWith(`.${limits.types[0]}`))
      return { ok: false, problem: `${name} is not a .${limits.types[0]} file; upload the file saved as CSV (UTF-8).` };
    if ((file.size ?? 0) > limits.maxBytes)
      return {
        ok: false,
        problem: `The file is ${megabytes(file.size ?? 0)} MB; a batch file may be at most 1 MB, so split it.`,
      };
    const url = trustedUrl(file.url_private_download ?? file.url_private, deps.apiUrl);
    if (!url) {
      deps.log.warn({ fileId }, 'a submitted file is not on a Slack file host; not downloaded');
      return { ok: false, problem: DOWNLOAD_PROBLEMS.failed };
    }
    const got = await fetchBytes(url, deps, limits, signal);
    return got.ok ? { ...got, name } : got;
  } catch (err) {
    const code = (err as { data?: { error?: unknown } }).data?.error;
    if (code === 'file_not_found' || code === 'file_deleted') return { ok: false, problem: DOWNLOAD_PROBLEMS.missing };
    const code2 = (err as { code?: unknown }).code;
    const timedOut =
      signal.aborted ||
      (err as { name?: unknown }).name === 'TimeoutError' ||
      code2 === 'UND_ERR_HEADERS_TIMEOUT' ||
      code2 === 'UND_ERR_BODY_TIMEOUT';
    deps.log.warn({ err, fileId, timedOut }, 'a submitted file could not be downloaded');
    return { ok: false, problem: timedOut ? DOWNLOAD_PROBLEMS.timedOut : DOWNLOAD_PROBLEMS.failed };
  }
}

export interface CsvUpload {
  channel: string;
  /** The parent message's ts: the file is posted in its thread. */
  threadTs: string;
  filename: string;
  content: string;
  title?: string;
  comment?: string;
}

/** Uploads a CSV into a thread (getUploadURLExternal → upload → completeUploadExternal); returns its id. */
export async function uploadCsvToThread(client: WebClient, upload: CsvUpload): Promise<string | undefined> {
  const result = await client.filesUploadV2({
    channel_id: upload.channel,
    thread_ts: upload.threadTs,
    file: Buffer.from(upload.content, 'utf8'),
    filename: upload.filename,
    title: upload.title ?? upload.filename,
    ...(upload.comment ? { initial_comment: upload.comment } : {}),
  });
  const completed = (result.files as { files?: { id?: string }[] }[] | undefined)?.[0]?.files?.[0];
  return completed?.id;
}
