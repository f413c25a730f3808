/**
 * The passkey pages as one request handler, mounted at PUBLIC_URL's path: GET the
 * static pages and assets; POST begin/finish with the token in a JSON body (never in the URL).
 * Thin: read → app/ use case → rendered answer. Answers false for paths it does not own.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RampartApp } from '../../app/index.js';
import type { Config } from '../../config.js';
import type { Logger } from '../../log.js';
import { readJson } from '../http/body.js';
import { PAGE_CSP, setSecurityHeaders } from '../http/headers.js';
import { type Asset, loadAssets } from './assets.js';
import { clientAddressOf } from './client-address.js';
import { decidedHtml, enrolledHtml, passkeyDecidedHtml, resumedHtml } from './outcomes.js';
import { enrolHtml, invalidLinkHtml, limitedHtml, messageHtml, recordPageHtml, shellPage } from './pages.js';
import { passkeyDecisionHtml } from './passkey-pages.js';

export type WebHandler = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

/** The pages' settings: PUBLIC_URL (their origin and path) and TRUST_PROXY. */
export type PageSettings = Pick<Config['stepUp'], 'publicUrl' | 'trustProxy'>;

/** A page's POST carries a token and a passkey's answer: a few kilobytes, a few levels deep. */
export const PAGE_BODY = { maxBytes: 64 * 1024, timeoutMs: 10_000, maxDepth: 20 };

function send(res: ServerResponse, status: number, type: string, body: string): void {
  // Set here too, so the pages carry their policy wherever they are mounted.
  setSecurityHeaders(res, PAGE_CSP);
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

const json = (res: ServerResponse, status: number, value: unknown) =>
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value));

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function createWebHandler(
  app: Pick<RampartApp, 'passkeys'>,
  settings: PageSettings,
  log: Pick<Logger, 'error'>,
): WebHandler {
  const pages = app.passkeys;
  if (!settings.publicUrl) throw new Error('PUBLIC_URL is not configured; the passkey pages are off');
  // The origin the browser must post from: from the configuration only, never the request.
  const origin = new URL(settings.publicUrl).origin;
  const base = new URL(settings.publicUrl).pathname.replace(/\/+$/, '');
  let assets: Promise<Map<string, Asset>> | undefined;
  const addressOf = clientAddressOf(settings.trustProxy);

  async function post(step: string, body: Record<string, unknown>, req: IncomingMessage) {
    const token = typeof body.token === 'string' ? body.token : '';
    const from = addressOf(req);
    switch (step) {
      case 'step-up/begin': {
        const b = await pages.beginStepUp(token, from);
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
        const f = await pages.finishStepUp(token, body.response, from);
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
        const b = await pages.beginEnrol(token, from);
        return b.kind === 'ready' ? { html: enrolHtml(b.user), options: b.options } : { html: refusalHtml(b.kind) };
      }
      case 'passkey/finish': {
        const f = await pages.finishEnrol(token, body.response, req.headers['user-agent'] ?? 'unknown browser', from);
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
    if (req.headers.origin !== origin) {
      json(res, 403, { html: messageHtml('This page must be opened from Rampart’s own address.', 'refused') });
      return true;
    }
    try {
      const body = await readJson(req, PAGE_BODY);
      if (!body.ok || !isObject(body.value)) {
        json(res, 400, { html: invalidLinkHtml() });
        return true;
      }
      const answer = await post(path, body.value, req);
      if (!answer) return false;
      json(res, 200, answer);
    } catch (err) {
      log.error({ err }, 'passkey page failed');
      json(res, 500, {
        html: messageHtml('Rampart could not finish this; nothing was approved. Try again.', 'refused'),
      });
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
