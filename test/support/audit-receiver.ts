/**
 * A loopback audit webhook receiver that keeps every event's body, in order. It may be down
 * (every delivery refused with a 503 and counted) and, given the secret, checks each signature.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AuditEventBody, SIGNATURE_HEADER, TIMESTAMP_HEADER, verifySignature } from '../../src/audit/webhook.js';

export interface AuditReceiver {
  /** AUDIT_WEBHOOK_URL for it, once started. */
  url: string;
  received: AuditEventBody[];
  /** Each accepted delivery with whether its signature held (always false without a secret). */
  deliveries: { body: AuditEventBody; verified: boolean }[];
  /** False: a receiver that is down; each delivery is refused (503) and counted in `refused`. */
  up: boolean;
  refused: number;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** Made at once (its arrays can be named before it listens); `start()` opens the port. */
export function auditReceiver(o: { secret?: string; up?: boolean } = {}): AuditReceiver {
  const verified = (req: IncomingMessage, raw: string): boolean =>
    o.secret !== undefined &&
    verifySignature(
      o.secret,
      { timestamp: req.headers[TIMESTAMP_HEADER] as string, signature: req.headers[SIGNATURE_HEADER] as string },
      raw,
      Math.floor(Date.now() / 1000),
    );
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      if (!receiver.up) {
        receiver.refused += 1;
        res.writeHead(503).end();
        return;
      }
      const body = JSON.parse(raw) as AuditEventBody;
      receiver.received.push(body);
      receiver.deliveries.push({ body, verified: verified(req, raw) });
      res.writeHead(200).end();
    });
  });
  const receiver: AuditReceiver = {
    url: '',
    received: [],
    deliveries: [],
    up: o.up ?? true,
    refused: 0,
    async start() {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/audit`;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
  return receiver;
}

export async function startAuditReceiver(): Promise<AuditReceiver> {
  const receiver = auditReceiver();
  await receiver.start();
  return receiver;
}
