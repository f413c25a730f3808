/**
 * Where the passkey pages live on Rampart's own server (issue 22): under PUBLIC_URL's path, on
 * the web role, only when step-up is configured. A path the pages do not know answers 404.
 */
import type { StepUpDeps } from '../app/step-up-deps.js';
import type { Handler, Method } from '../http/router.js';
import type { Metrics } from '../metrics/metrics.js';
import { createWebHandler } from './handler.js';

const PAGE_BODY_LIMIT = 64 * 1024;

export function webMounts(
  deps: Omit<StepUpDeps, 'onAttempt'>,
  metrics: Pick<Metrics, 'stepUpAttempt'>,
): { prefix: string; methods: readonly Method[]; handler: Handler; bodyLimit: number }[] {
  const { publicUrl } = deps.config.stepUp;
  if (!publicUrl) return [];
  const pages = createWebHandler({ ...deps, onAttempt: (a) => metrics.stepUpAttempt(a.purpose, a.outcome) });
  const path = new URL(publicUrl).pathname.replace(/\/*$/, '/');
  const handler: Handler = async (req, res) => {
    if (await pages(req, res)) return;
    res.statusCode = 404;
    res.setHeader('content-type', 'text/plain; charset=utf-8');
    res.end('Not found.');
  };
  return [{ prefix: path, methods: ['GET', 'POST'], handler, bodyLimit: PAGE_BODY_LIMIT }];
}
