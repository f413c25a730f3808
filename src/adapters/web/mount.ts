/**
 * Where the passkey pages live on Rampart's own server: under PUBLIC_URL's path, on
 * the web role, only when step-up is configured, with the pages' own CSP. A path the pages do
 * not know answers 404.
 */
import type { RampartApp } from '../../app/index.js';
import type { Logger } from '../../log.js';
import { PAGE_CSP } from '../http/headers.js';
import type { Handler } from '../http/router.js';
import type { Mount } from '../http/serve.js';
import { createWebHandler, PAGE_BODY, type PageSettings } from './handler.js';

export function webMounts(
  app: Pick<RampartApp, 'passkeys'>,
  settings: PageSettings,
  log: Pick<Logger, 'error'>,
): Mount[] {
  if (!settings.publicUrl) return [];
  const pages = createWebHandler(app, settings, log);
  const path = new URL(settings.publicUrl).pathname.replace(/\/*$/, '/');
  const handler: Handler = async (req, res) => {
    if (await pages(req, res)) return;
    res.statusCode = 404;
    res.setHeader('content-type', 'text/plain; charset=utf-8');
    res.end('Not found.');
  };
  return [{ prefix: path, methods: ['GET', 'POST'], handler, bodyLimit: PAGE_BODY.maxBytes, csp: PAGE_CSP }];
}
