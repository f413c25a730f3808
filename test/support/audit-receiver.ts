/** A loopback audit webhook receiver that takes every event (200) and keeps its body, in order. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuditEventBody } from '../../src/audit/webhook.js';

export interface AuditReceiver {
  /** AUDIT_WEBHOOK_URL for it. */
  url: string;
  received: AuditEventBody[];
  close(): Promise<void>;
}

export async function startAuditReceiver(): Promise<AuditReceiver> {
  const received: AuditEventBody[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      received.push(JSON.parse(raw) as AuditEventBody);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/audit`,
    received,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
