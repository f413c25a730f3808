/**
 * SCREENING_URL's client: a screening service in the shape of Chainalysis' free sanctions API
 * (`GET {url}/address/{address}` with the `X-API-Key` header, answering
 * `{ "identifications": [{ "category", "name", "description", "url" }] }`). At most 8 requests
 * are in flight at once, whatever asks; each is bounded in time and never throws: any failure
 * is `unanswered`, which the rule (domain/rules/second-opinion.ts) decides on.
 */
import { Agent, request } from 'undici';
import { z } from 'zod';
import type { ScreeningService } from '../app/ports.js';
import type { SecondOpinion } from '../domain/rules/second-opinion.js';

export const MAX_IN_FLIGHT = 8;
/** One request's limit when the caller gives no budget (a batch's rows). */
const REQUEST_TIMEOUT_MS = 5_000;
const MAX_BYTES = 256 * 1024;

// Only category and name are ever shown; description and url are read past.
const answerSchema = z.object({
  identifications: z.array(z.object({ category: z.string(), name: z.string() }).loose()),
});

export class ScreeningServiceClient implements ScreeningService {
  private readonly agent = new Agent({ connect: { timeout: REQUEST_TIMEOUT_MS } });
  private inFlight = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly options: { url: string; apiKey: string | undefined }) {}

  async ask(address: string, signal?: AbortSignal): Promise<SecondOpinion> {
    try {
      await this.turn(signal);
    } catch {
      return { kind: 'unanswered' };
    }
    // Each request's own limit runs from its turn: a long batch waiting in line is not cut short.
    const limit = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
    try {
      return await this.get(address, signal ? AbortSignal.any([signal, limit]) : limit);
    } catch {
      return { kind: 'unanswered' };
    } finally {
      this.release();
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  private async get(address: string, signal: AbortSignal): Promise<SecondOpinion> {
    const url = `${this.options.url}/address/${encodeURIComponent(address)}`;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.options.apiKey) headers['x-api-key'] = this.options.apiKey;
    const r = await request(url, { method: 'GET', headers, dispatcher: this.agent, signal });
    if (r.statusCode !== 200) {
      await r.body.dump();
      return { kind: 'unanswered' };
    }
    let text = '';
    for await (const chunk of r.body) {
      text += (chunk as Buffer).toString('utf8');
      if (text.length > MAX_BYTES) {
        r.body.destroy();
        return { kind: 'unanswered' };
      }
    }
    const parsed = answerSchema.safeParse(JSON.parse(text));
    if (!parsed.success) return { kind: 'unanswered' };
    return {
      kind: 'answered',
      identifications: parsed.data.identifications.map(({ category, name }) => ({ category, name })),
    };
  }

  /** Waits for one of the MAX_IN_FLIGHT places, or throws when `signal` aborts first. */
  private turn(signal: AbortSignal | undefined): Promise<void> {
    if (this.inFlight < MAX_IN_FLIGHT) {
      this.inFlight++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const go = () => {
        signal?.removeEventListener('abort', abort);
        resolve();
      };
      const abort = () => {
        const i = this.waiting.indexOf(go);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(new Error('aborted'));
      };
      if (signal?.aborted) return abort();
      signal?.addEventListener('abort', abort, { once: true });
      this.waiting.push(go);
    });
  }

  /** Hands the place to the next waiter, or frees it. */
  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.inFlight--;
  }
}
