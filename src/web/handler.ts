/**
 * The passkey pages as one request handler (issue 22), mounted at PUBLIC_URL's path: GET the
 * static pages and assets; POST begin/finish with the token in a JSON body (never in the URL).
 * Thin: read → app/ use case → rendered answer. Answers false for paths it does not own.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { beginEnrol, finishEnrol } from '../app/passkey-enrol.js';
import { relyingParty, type StepUpDeps } from '../app/step-up-deps.js';
import { beginStepUp, finishStepUp } from '../app/step-up-page.js';
import { type Asset, loadAssets } from './assets.js';
import { clientAddressOf } from './client-address.js';
import { secureHeaders } from './headers.js';
import { decidedHtml, enrolledHtml, passkeyDecidedHtml, resumedHtml } from './outcomes.js';
import { enrolHtml, invalidLinkHtml, limitedHtml, messageHtml, recordPageHtml, shellPage } from './pages.js';
import { passkeyDecisionHtml } from './passkey-pages.js';

export type WebHandler = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

const MAX_BODY = 64 * 1024;

class BadRequest extends Error {}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  if (!(req.headers['content-type'] ?? '').startsWith('application/json')) throw new BadRequest('not JSON');
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new BadRequest('too large');
    chunks.push(chunk);
  }
  const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new BadRequest('not an object');
  return value as Record<string, unknown>;
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  secureHeaders(res);
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

const json = (res: ServerResponse, status: number, value: unknown) =>
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value));

export function createWebHandler(deps: StepUpDeps): WebHandler {
  const rp = relyingParty(deps.config);
  const base = new URL(rp.base).pathname.replace(/\/+$/, '');
  let assets: Promise<Map<string, Asset>> | undefined;
  const addressOf = clientAddressOf(deps.config.stepUp.trustProxy);

  async function post(step: string, body: Record<string, unknown>, req: IncomingMessage) {
    const token = typeof body.token === 'string' ? body.token : '';
    const from = addressOf(req);
    switch (step) {
      case 'step-up/begin': {
        const b = await beginStepUp(deps, token, from);
        if (b.kind !== 'ready') return { html: refusalHtml(b.kind) };
        if ('subject' in b)
          return {
            html: recordPageHtml({
              purpose: b.purpose,
              record: b.subject.record,
              approver: b.approver,
              approvalHash: b.approvalHash,
              names: b.names,
              ...(b.subject.execution ? { executionId: b.subject.execution.id } : {}),
              ...(b.subject.row ? { row: b.subject.row } : {}),
            }),
            options: b.options,
          };
        return { html: passkeyDecisionHtml(b.purpose, b.passkey, b.user), options: b.options };
      }
      case 'step-up/finish': {
        const f = await finishStepUp(deps, token, body.response, from);
        switch (f.kind) {
          case 'decided':
            return { html: decidedHtml(f.outcome) };
          case 'resumed':
            return { html: resumedHtml(f.outcome) };
          case 'confirmed':
            return { html: messageHtml(f.outcome.text, f.outcome.ok ? 'ok' : 'refused') };
          case 'activated':
          case 'removed':
          case 'late':
            return { html: passkeyDecidedHtml(f) };
          case 'failed':
            return { html: failedHtml() };
          default:
            return { html: refusalHtml(f.kind) };
        }
      }
      case 'passkey/begin': {
        const b = await beginEnrol(deps, token, from);
        return b.kind === 'ready' ? { html: enrolHtml(b.user), options: b.options } : { html: refusalHtml(b.kind) };
      }
      case 'passkey/finish': {
        const f = await finishEnrol(deps, token, body.response, req.headers['user-agent'] ?? 'unknown browser', from);
        if (f.kind === 'enrolled') return { html: enrolledHtml(f.passkey) };
        return { html: f.kind === 'failed' ? failedHtml() : refusalHtml(f.kind) };
      }
      default:
        return undefined;
    }
  }

  return async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://rampart.invalid');
    if (url.pathname !== base && !url.pathname.startsWith(`${base}/`)) return false;
    const path = url.pathname.slice(base.length + 1);
    if (req.method === 'GET' && (path === 'step-up' || path === 'passkey')) {
      send(res, 200, 'text/html; charset=utf-8', shellPage(path, base));
      return true;
    }
    if (req.method === 'GET' && path.startsWith('assets/')) {
      assets ??= loadAssets();
      const asset = (await assets).get(path.slice('assets/'.length));
      if (!asset) return false;
      send(res, 200, asset.type, asset.body);
      return true;
    }
    if (req.method !== 'POST') return false;
    // Only the pages' own origin may post (a cross-site form or fetch is refused).
    if (req.headers.origin !== rp.origin) {
      json(res, 403, { html: messageHtml('This page must be opened from Rampart’s own address.', 'refused') });
      return true;
    }
    try {
      const answer = await post(path, await readJson(req), req);
      if (!answer) return false;
      json(res, 200, answer);
    } catch (err) {
      if (!(err instanceof BadRequest) && !(err instanceof SyntaxError)) {
        deps.log.error({ err }, 'passkey page failed');
        json(res, 500, {
          html: messageHtml('Rampart could not finish this; nothing was approved. Try again.', 'refused'),
        });
      } else json(res, 400, { html: invalidLinkHtml() });
    }
    return true;
  };
}

function refusalHtml(kind: 'invalid' | 'limited' | 'no-passkey'): string {
  if (kind === 'limited') return limitedHtml();
  if (kind === 'no-passkey')
    return messageHtml(
      'You have no passkey that can approve payments yet. Type /passkey in Slack to register one; a new passkey needs another approver’s approval and its cool-down first.',
      'refused',
    );
  return invalidLinkHtml();
}

const failedHtml = () =>
  messageHtml(
    'Your passkey could not be verified, so nothing was recorded. Click Approve in Slack to try again.',
    'refused',
  );
