/**
 * GET /metrics. Once METRICS_TOKEN is set it is asked of every caller, loopback included
 * — behind a same-host TLS proxy every request arrives from
 * 127.0.0.1, so trusting loopback made /metrics public. Unset, /metrics is open to whoever can
 * reach PORT (development, or a port only Prometheus can reach).
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Logger } from '../../log.js';
import type { Metrics } from '../../metrics/metrics.js';
import type { Handler } from './router.js';
import { plain } from './server.js';

export function mayScrape(req: IncomingMessage, token: string | undefined): boolean {
  if (token === undefined) return true;
  const given = Buffer.from(req.headers.authorization ?? '');
  const wanted = Buffer.from(`Bearer ${token}`);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

export function metricsRoute(metrics: Metrics, token: string | undefined, log: Logger): Handler {
  return async (req, res) => {
    if (!mayScrape(req, token)) {
      res.setHeader('www-authenticate', 'Bearer');
      plain(res, 401, 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.');
      return;
    }
    let text: string;
    try {
      text = await metrics.render();
    } catch (err) {
      log.error({ err }, 'metrics could not be collected');
      plain(res, 503, 'Metrics could not be collected; see the log.');
      return;
    }
    res.writeHead(200, { 'content-type': metrics.registry.contentType });
    res.end(text);
  };
}
