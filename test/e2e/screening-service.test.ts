/**
 * The optional second opinion, SCREENING_URL, against a real screening service on loopback in
 * the shape of Chainalysis' free sanctions API: an identification refuses naming only its
 * category and name, an empty answer passes, an answer is kept (a second submission asks
 * nothing), a 30-row batch is asked at most 8 at a time, and a slow or failing service refuses
 * unless SCREENING_ON_ERROR=allow.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addresses, submitBatchFile, transfersCsv } from '../support/batches.js';
import { postRequest, submitRequest } from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

/** What the service does for an address: identify it, be slow (ms), fail, or find nothing. */
type Behaviour = { identify: true } | { slowMs: number } | { status: number };
const behaviour = new Map<string, Behaviour>();
const asked: string[] = [];
const keysSeen = new Set<string>();
let inFlight = 0;
let maxInFlight = 0;
/** Held answers wait this long, so the batch's requests overlap (the bound is counted, not timed). */
let holdMs = 0;

let server: Server;
let url = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    const address = decodeURIComponent((req.url ?? '').replace(/^\/v1\/address\//, ''));
    asked.push(address);
    keysSeen.add(String(req.headers['x-api-key']));
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const b = behaviour.get(address);
    const answer = () => {
      inFlight--;
      if (res.destroyed) return;
      if (b && 'status' in b) {
        res.writeHead(b.status).end('{"message":"down"}');
        return;
      }
      const identifications =
        b && 'identify' in b
          ? [
              {
                category: 'sanctions',
                name: 'SANCTIONS: OFAC SDN Example Mixer 2026-11-20',
                description: 'A long description that must never reach a person',
                url: 'https://home.treasury.gov/example',
              },
            ]
          : [];
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ identifications }));
    };
    setTimeout(answer, b && 'slowMs' in b ? b.slowMs : holdMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const refusalOf = (body: unknown) => (body as { errors?: Record<string, string> }).errors?.receiver;
const UNANSWERED =
  'The screening service did not answer, so Rampart will not pay this address yet; try again in a few minutes or ask an admin.';

describe('SCREENING_URL', () => {
  const h = useHarness('screening-service', () => ({ SCREENING_URL: url, SCREENING_URL_KEY: 'key-123' }));

  it('refuses an address the service identifies, naming only its category and name', async () => {
    const [listed] = addresses(1, 41);
    behaviour.set(listed ?? '', { identify: true });
    const r = await submitRequest(h, 'transfer', `5 base:usdc to ${listed} from ops for identified`);
    expect(refusalOf(r.body)).toBe(
      'The screening service identifies this address (sanctions: SANCTIONS: OFAC SDN Example Mixer 2026-11-20), so Rampart will not pay it; check the destination with compliance.',
    );
    expect(keysSeen).toEqual(new Set(['key-123']));
  });

  it('passes an address with no identification, and keeps the answer: a second submission asks nothing', async () => {
    const [clean] = addresses(1, 42);
    const before = asked.length;
    await postRequest(h, 'transfer', `5 base:usdc to ${clean} from ops for clean once`);
    expect(asked.slice(before)).toEqual([clean]);
    await postRequest(h, 'transfer', `6 base:usdc to ${clean} from ops for clean twice`);
    expect(asked.slice(before)).toEqual([clean]);
  });

  it('asks a 30-row batch at most 8 at a time, every row once', async () => {
    const rows = addresses(30, 43);
    const before = asked.length;
    maxInFlight = 0;
    holdMs = 100;
    try {
      await submitBatchFile(h, transfersCsv(rows, Array(30).fill(1)));
    } finally {
      holdMs = 0;
    }
    expect([...asked.slice(before)].sort()).toEqual([...rows].sort());
    expect(maxInFlight).toBe(8);
  });

  it('refuses a batch row the service identifies, naming the row', async () => {
    const rows = addresses(3, 44);
    behaviour.set(rows[1] ?? '', { identify: true });
    await expect(submitBatchFile(h, transfersCsv(rows, [1, 1, 1]))).rejects.toThrow(
      'Row 3 receiver: The screening service identifies this address (sanctions: SANCTIONS: OFAC SDN Example Mixer 2026-11-20)',
    );
  });

  it('refuses when the service is slower than the form may wait, or failing; neither is kept', async () => {
    const [slow, down] = addresses(2, 45);
    behaviour.set(slow ?? '', { slowMs: 3_000 });
    behaviour.set(down ?? '', { status: 503 });
    for (const a of [slow, down]) {
      const r = await submitRequest(h, 'transfer', `5 base:usdc to ${a} from ops for no answer`);
      expect(refusalOf(r.body), a).toBe(UNANSWERED);
    }
    behaviour.delete(down ?? '');
    const before = asked.length;
    await postRequest(h, 'transfer', `5 base:usdc to ${down} from ops for answered now`);
    expect(asked.slice(before)).toEqual([down]);
  });
});

describe('SCREENING_ON_ERROR=allow', () => {
  const h = useHarness('screening-service-allow', () => ({ SCREENING_URL: url, SCREENING_ON_ERROR: 'allow' }));

  it('passes an address the service did not answer for, on the list check alone', async () => {
    const [a] = addresses(1, 46);
    behaviour.set(a ?? '', { status: 500 });
    const { id } = await postRequest(h, 'transfer', `5 base:usdc to ${a} from ops for allowed`);
    expect(id).toMatch(/^R-/);
  });
});
