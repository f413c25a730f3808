/**
 * The GET of SCREENING_LIST_URL (https only: config.ts refuses any other). OFAC's sdn.xml is
 * about 10 MB; a list larger than 64 MB is refused rather than held in memory.
 */
import { Agent, type Dispatcher, interceptors, request } from 'undici';

const MAX_BYTES = 64 * 1024 * 1024;
// treasury.gov's download address redirects to the Sanctions List Service: follow a few hops.
// Made on first use and closed at shutdown (closeScreeningFetch); a later fetch makes a new one.
let following: Dispatcher | undefined;
const agent = (): Dispatcher => (following ??= new Agent().compose(interceptors.redirect({ maxRedirections: 3 })));

/** Closes the fetch's connections (Rampart's shutdown, with the other HTTP agents). */
export async function closeScreeningFetch(): Promise<void> {
  const open = following;
  following = undefined;
  await open?.close();
}

export async function fetchScreeningList(url: string): Promise<Uint8Array> {
  const r = await request(url, { method: 'GET', dispatcher: agent(), headersTimeout: 30_000, bodyTimeout: 120_000 });
  if (r.statusCode !== 200) {
    await r.body.dump();
    throw new Error(`the list's server answered ${r.statusCode}`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of r.body) {
    size += (chunk as Buffer).length;
    if (size > MAX_BYTES) {
      r.body.destroy();
      throw new Error('the list is larger than 64 MB');
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
