/**
 * Times every Slack acknowledgement at the HTTP receiver: from the request's first byte to the
 * response's last (with processBeforeResponse off, the response is the ack). Bolt's middleware
 * cannot wrap ack(), so the receiver's request listener is wrapped instead.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Metrics } from './metrics.js';

const FORM_TYPES: Record<string, string> = {
  block_actions: 'action',
  block_suggestion: 'options',
  view_submission: 'view_submission',
  view_closed: 'view_closed',
  shortcut: 'shortcut',
  message_action: 'shortcut',
};

const COMMAND = /(?:^|&)command(?:=|&|$)/;
const PAYLOAD = /(?:^|&)payload=/;
// `payload={"type":"` as Slack form-encodes it; the type's own letters need no encoding.
const TYPE_FIRST = /^%7B%22type%22%3A%22([a-z_]+)%22/;

/** The label: command, action, view_submission, options, event, … — never a name or an id. */
export function ackKind(rawBody: Buffer | undefined): string {
  if (!rawBody) return 'other';
  const text = rawBody.toString('utf8');
  if (text.startsWith('{')) return text.includes('"type":"url_verification"') ? 'url_verification' : 'event';
  if (COMMAND.test(text)) return 'command';
  // Slack sends the payload's type first, so it is read from the encoded text without
  // decoding or parsing the whole payload again (Bolt already did); anything else is parsed.
  const at = PAYLOAD.exec(text);
  if (!at) return 'other';
  const quick = TYPE_FIRST.exec(text.slice(at.index + at[0].length, at.index + at[0].length + 64));
  if (quick?.[1] !== undefined) return FORM_TYPES[quick[1]] ?? 'other';
  return parsedKind(text);
}

function parsedKind(text: string): string {
  const form = new URLSearchParams(text);
  if (form.has('command')) return 'command';
  const payload = form.get('payload');
  if (payload === null) return 'other';
  try {
    const type = (JSON.parse(payload) as { type?: unknown }).type;
    return typeof type === 'string' ? (FORM_TYPES[type] ?? 'other') : 'other';
  } catch {
    return 'other';
  }
}

export function timeAcks(receiver: { requestListener: RequestListener }, metrics: Metrics, path: string): void {
  const original = receiver.requestListener;
  receiver.requestListener = (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'POST' && req.url?.split('?')[0] === path) {
      const started = process.hrtime.bigint();
      res.once('finish', () => {
        if (res.statusCode >= 400) return; // refused (bad signature, …): not an ack
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        metrics.slackAck(ackKind((req as { rawBody?: Buffer }).rawBody), seconds);
      });
    }
    original(req, res);
  };
}
