/**
 * Files as Slack keeps them: what a person picks in a `file_input`, `files.info`,
 * downloading `url_private` (only with the bot token: without it Slack redirects to its sign-in
 * page), and the external upload flow — `files.getUploadURLExternal` → POST the bytes to the
 * returned URL (raw, or multipart as @slack/web-api sends them) → `files.completeUploadExternal`,
 * which shares the file in a channel or thread.
 * https://docs.slack.dev/messaging/working-with-files#upload
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JsonObject } from './types.js';
import { type ApiResult, fail, type MethodHandler, str, type WebApiEnv } from './web-api-env.js';

export interface StoredFile {
  id: string;
  name: string;
  title: string;
  filetype: string;
  mimetype: string;
  user: string;
  created: number;
  /** undefined until the bytes are uploaded (external upload flow). */
  bytes: Buffer | undefined;
  /** Declared by files.getUploadURLExternal; the upload must match it. */
  length: number;
  completed: boolean;
  channels: string[];
}

const MIME: Record<string, string> = { csv: 'text/csv', txt: 'text/plain', png: 'image/png', pdf: 'application/pdf' };
const extension = (name: string): string => /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase() ?? 'binary';

export class FileStore {
  #files = new Map<string, StoredFile>();
  #sequence = 0;

  reset(): void {
    this.#files.clear();
  }

  newId(): string {
    this.#sequence += 1;
    return `F0FAKE${String(this.#sequence).padStart(5, '0')}`;
  }

  add(file: StoredFile): StoredFile {
    this.#files.set(file.id, file);
    return file;
  }

  get(id: string): StoredFile | undefined {
    return this.#files.get(id);
  }

  all(): StoredFile[] {
    return [...this.#files.values()];
  }
}

/** A file as the Web API and file_input payloads show it. */
export function fileJson(file: StoredFile, env: WebApiEnv, baseUrl: string): JsonObject {
  const { teamId, teamDomain } = env.settings;
  const path = `${teamId}-${file.id}/${encodeURIComponent(file.name)}`;
  return {
    id: file.id,
    created: Math.floor(file.created / 1000),
    timestamp: Math.floor(file.created / 1000),
    name: file.name,
    title: file.title,
    mimetype: file.mimetype,
    filetype: file.filetype,
    pretty_type: file.filetype.toUpperCase(),
    user: file.user,
    user_team: teamId,
    editable: false,
    size: file.bytes?.length ?? 0,
    mode: 'hosted',
    is_external: false,
    external_type: '',
    is_public: false,
    public_url_shared: false,
    display_as_bot: false,
    username: '',
    url_private: `${baseUrl}/files-pri/${path}`,
    url_private_download: `${baseUrl}/files-pri/${teamId}-${file.id}/download/${encodeURIComponent(file.name)}`,
    permalink: `https://${teamDomain}.slack.local/files/${file.user}/${file.id}/${encodeURIComponent(file.name)}`,
    channels: [...file.channels],
    groups: [],
    ims: [],
    comments_count: 0,
    has_rich_preview: false,
    file_access: 'visible',
  };
}

export function newFile(
  store: FileStore,
  user: string,
  name: string,
  bytes: Buffer | undefined,
  now: number,
  length = 0,
) {
  const filetype = extension(name);
  return store.add({
    id: store.newId(),
    name,
    title: name,
    filetype,
    mimetype: MIME[filetype] ?? 'application/octet-stream',
    user,
    created: now,
    bytes,
    length: bytes?.length ?? length,
    completed: bytes !== undefined,
    channels: [],
  });
}

/** The Web API side; `baseUrl` makes upload and download URLs point at this fake. */
export function fileMethods(files: FileStore, baseUrl: () => string): Record<string, MethodHandler> {
  const info: MethodHandler = (args, env) => {
    const file = files.get(str(args.file) ?? '');
    if (!file?.completed) return fail('file_not_found');
    return { ok: true, file: fileJson(file, env, baseUrl()), comments: [], response_metadata: { next_cursor: '' } };
  };
  const getUploadUrl: MethodHandler = (args, env) => {
    const filename = str(args.filename);
    const length = Number(args.length);
    if (!filename) return fail('invalid_arguments', { detail: 'filename is required' });
    if (!Number.isInteger(length) || length < 1) return fail('invalid_arguments', { detail: 'length is required' });
    const file = newFile(files, env.settings.botUserId, filename, undefined, env.settings.clock(), length);
    return { ok: true, upload_url: `${baseUrl()}/upload/v1/${file.id}`, file_id: file.id };
  };
  const complete: MethodHandler = (args, env): ApiResult => {
    // @slack/web-api sends `files` as a JSON string inside the form body.
    let given: unknown = args.files;
    if (typeof given === 'string') {
      try {
        given = JSON.parse(given);
      } catch {
        return fail('invalid_arguments', { detail: 'files must be a JSON array' });
      }
    }
    const list = Array.isArray(given) ? (given as unknown[]) : [];
    if (list.length === 0) return fail('invalid_arguments', { detail: 'files is required' });
    const found: StoredFile[] = [];
    for (const entry of list) {
      const id = typeof entry === 'object' && entry !== null ? str((entry as JsonObject).id) : undefined;
      const file = files.get(id ?? '');
      // Slack answers file_not_found for an id whose bytes never arrived.
      if (!file || file.bytes === undefined) return fail('file_not_found');
      const title = str((entry as JsonObject).title);
      if (title) file.title = title;
      found.push(file);
    }
    const channel = str(args.channel_id);
    const threadTs = str(args.thread_ts);
    if (threadTs && !channel) return fail('invalid_arguments', { detail: 'thread_ts needs channel_id' });
    if (channel) {
      const known = env.settings.channels.find((c) => c.id === channel);
      if (known?.is_member === false) return fail('not_in_channel');
      const parent = threadTs ? env.store.findMessage(channel, threadTs) : undefined;
      if (threadTs && !parent) return fail('thread_not_found');
      for (const f of found) f.channels.push(channel);
      // Slack shares the files as one message (by the bot), in the thread when asked.
      env.store.addMessage({
        ts: env.ids.messageTs(),
        channel,
        user: env.settings.botUserId,
        bot_id: env.settings.botId,
        text: str(args.initial_comment) ?? '',
        blocks: [],
        files: found.map((f) => fileJson(f, env, baseUrl())),
        ...(parent ? { thread_ts: parent.thread_ts ?? parent.ts } : {}),
      });
    }
    for (const f of found) f.completed = true;
    return { ok: true, files: found.map((f) => ({ id: f.id, title: f.title })) };
  };
  return {
    'files.info': info,
    'files.getUploadURLExternal': getUploadUrl,
    'files.completeUploadExternal': complete,
  };
}

async function readBytes(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks);
}

/** The bytes of an upload: the body itself, or the one file part of a multipart form. */
async function uploadedBytes(req: IncomingMessage, raw: Buffer): Promise<Buffer | undefined> {
  const type = req.headers['content-type'] ?? '';
  if (!type.startsWith('multipart/form-data')) return raw;
  const form = await new Response(raw, { headers: { 'content-type': type } }).formData();
  for (const value of form.values()) if (typeof value !== 'string') return Buffer.from(await value.arrayBuffer());
  return undefined;
}

const UPLOAD = /^\/upload\/v1\/([A-Z0-9]+)$/;
const DOWNLOAD = /^\/files-pri\/[A-Z0-9]+-([A-Z0-9]+)\/(?:download\/)?[^/]+$/;

/**
 * The non-API routes: upload URLs and private file URLs. Returns false when the request is not
 * one of them (the caller routes it on). `record` notes each as a call, for tests to read.
 */
export async function handleFileRoute(
  req: IncomingMessage,
  res: ServerResponse,
  files: FileStore,
  botToken: string,
  record: (method: string, status: number, args: JsonObject) => void,
  /** Milliseconds to hold each download before answering (a slow Slack, for time-out tests). */
  downloadDelayMs = 0,
): Promise<boolean> {
  const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
  const upload = UPLOAD.exec(path);
  if (upload && req.method === 'POST') {
    const file = files.get(upload[1] ?? '');
    const bytes = await uploadedBytes(req, await readBytes(req));
    const ok = file !== undefined && bytes !== undefined && file.bytes === undefined;
    if (ok) file.bytes = bytes;
    record('file_upload', ok ? 200 : 404, { file: upload[1], bytes: bytes?.length ?? 0 });
    res.writeHead(ok ? 200 : 404, { 'content-type': 'text/plain' });
    res.end(ok ? `OK - ${bytes.length}` : 'Not Found');
    return true;
  }
  const download = DOWNLOAD.exec(path);
  if (download && req.method === 'GET') {
    const file = files.get(download[1] ?? '');
    const authorised = req.headers.authorization === `Bearer ${botToken}`;
    record('file_download', !authorised ? 302 : file?.bytes ? 200 : 404, { file: download[1], authorised });
    if (downloadDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, downloadDelayMs));
    if (res.destroyed) return true;
    if (!authorised) {
      // Slack sends a request without the token to its sign-in page, an HTML answer, not the file.
      res.writeHead(302, { location: `/signin?redir=${encodeURIComponent(path)}` });
      res.end();
    } else if (!file?.bytes) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('Not Found');
    } else {
      res.writeHead(200, { 'content-type': file.mimetype, 'content-length': String(file.bytes.length) });
      res.end(file.bytes);
    }
    return true;
  }
  if (path === '/signin' && req.method === 'GET') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!DOCTYPE html><html><body>Sign in to Fake Slack</body></html>');
    return true;
  }
  return false;
}
