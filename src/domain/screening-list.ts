/**
 * A sanctions list read into destination keys (domain/destination-key.ts), with its identity:
 * name, publication date, SHA-256 of the bytes, count and the families it holds. Two formats:
 * OFAC's SDN XML (sdn.xml) and a plain list (one address a line, or CSV address,chain,source).
 * Pure.
 *
 * OFAC lists a digital-currency address as an `<id>` of an `<sdnEntry>` whose `<idType>` is
 * "Digital Currency Address - <ticker>" (https://ofac.treasury.gov/faqs/562). Every such address
 * is taken, whatever the ticker: an EVM address listed for ETH is the same account on every EVM
 * chain, so it is stored once, lower-cased, under the `evm` family and screened on all of them.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { solanaAddressProblem } from './address.js';

export interface ScreeningList {
  /** The list's own identity name, e.g. "OFAC SDN". */
  name: string;
  /** Publication date, YYYY-MM-DD. */
  published: string;
  /** SHA-256 of the bytes as loaded, hex. */
  sha256: string;
  /** Destination keys, each once. */
  keys: string[];
  /** Addresses per family (evm, solana, xbt…): a family with none is "not screened". */
  families: Record<string, number>;
}

export type ListRead = { ok: true; list: ScreeningList } | { ok: false; problem: string };

const EVM = /^0x[0-9a-fA-F]{40}$/i;
const TICKER_ID = /^Digital Currency Address - ([A-Za-z0-9.]+)$/;

/** The destination key a listed address is screened under; undefined for one no chain can hold. */
export function listedKey(ticker: string, address: string): string | undefined {
  const a = address.trim();
  const t = ticker.trim().toLowerCase();
  // A checksum typo in the list still names the account: taken, never dropped.
  if (EVM.test(a)) return `evm:${a.toLowerCase()}`;
  if (t === 'sol' || t === 'solana') return solanaAddressProblem(a) === undefined ? `solana:${a}` : undefined;
  if (t === '' || a === '' || /\s/.test(a)) return undefined;
  // Other tickers (XBT, TRX, XMR…) are kept as listed: no chain Rampart pays on holds them today.
  return `${t}:${a}`;
}

const family = (key: string): string => key.slice(0, key.indexOf(':'));

function finish(name: string, published: string, bytes: Uint8Array, keys: Iterable<string>): ScreeningList {
  const unique = [...new Set(keys)];
  const families: Record<string, number> = {};
  for (const k of unique) families[family(k)] = (families[family(k)] ?? 0) + 1;
  return { name, published, sha256: bytesToHex(sha256(bytes)), keys: unique, families };
}

const text = (xml: string, tag: string): string | undefined =>
  new RegExp(`<${tag}>\\s*([^<]*?)\\s*</${tag}>`).exec(xml)?.[1];

/** OFAC writes the date as MM/DD/YYYY. */
function isoDate(us: string | undefined): string | undefined {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(us?.trim() ?? '');
  if (!m) return undefined;
  return `${m[3]}-${m[1]?.padStart(2, '0')}-${m[2]?.padStart(2, '0')}`;
}

/** OFAC's sdn.xml: every "Digital Currency Address - <ticker>" id of every entry. */
export function readSdnXml(bytes: Uint8Array): ListRead {
  const xml = new TextDecoder().decode(bytes);
  if (!/<sdnList[\s>]/.test(xml))
    return { ok: false, problem: 'This is not an OFAC SDN XML file (no <sdnList>); load sdn.xml or a plain list.' };
  const published = isoDate(text(xml, 'Publish_Date'));
  if (!published)
    return {
      ok: false,
      problem: 'The SDN file has no publication date (<Publish_Date>MM/DD/YYYY); load the file as OFAC publishes it.',
    };
  const keys: string[] = [];
  for (const id of xml.matchAll(/<id>([\s\S]*?)<\/id>/g)) {
    const type = text(id[1] ?? '', 'idType');
    const ticker = type ? TICKER_ID.exec(type)?.[1] : undefined;
    const address = text(id[1] ?? '', 'idNumber');
    if (!ticker || !address) continue;
    const key = listedKey(ticker, address);
    if (key) keys.push(key);
  }
  return { ok: true, list: finish('OFAC SDN', published, bytes, keys) };
}

const CHAIN_NAMES: Record<string, string> = { solana: 'sol', sol: 'sol' };

/**
 * A plain list: one address a line, or CSV `address,chain,source`. `# name: …` and
 * `# published: YYYY-MM-DD` lines name it (default: "Custom list" published `today`). An EVM
 * address needs no chain; any other address needs one (solana, or the ticker it is listed for).
 */
export function readPlainList(bytes: Uint8Array, today: string): ListRead {
  const lines = new TextDecoder().decode(bytes).split(/\r?\n/);
  let name = 'Custom list';
  let published = today;
  const keys: string[] = [];
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '') continue;
    if (line.startsWith('#')) {
      const m = /^#\s*(name|published)\s*:\s*(.+)$/i.exec(line);
      if (m?.[1]?.toLowerCase() === 'name') name = m[2]?.trim() ?? name;
      if (m?.[1]?.toLowerCase() === 'published') {
        if (!/^\d{4}-\d{2}-\d{2}$/.test(m[2]?.trim() ?? ''))
          return {
            ok: false,
            problem: `Line ${i + 1}: write the publication date as YYYY-MM-DD, e.g. "# published: 2026-11-27".`,
          };
        published = m[2]?.trim() ?? published;
      }
      continue;
    }
    const [address = '', chain = ''] = line.split(',').map((c) => c.trim());
    // A CSV header row names its columns.
    if (keys.length === 0 && address.toLowerCase() === 'address') continue;
    const key = listedKey(CHAIN_NAMES[chain.toLowerCase()] ?? chain, address);
    if (!key)
      return {
        ok: false,
        problem: EVM.test(address)
          ? `Line ${i + 1}: "${address}" is not a valid EVM address; correct it or remove the line.`
          : `Line ${i + 1}: "${address}" is not an EVM address, so it needs its chain: write "${address},solana" (or its ticker).`,
      };
    keys.push(key);
  }
  return { ok: true, list: finish(name, published, bytes, keys) };
}

/** Either format, told apart by its first non-blank character. */
export const readScreeningList = (bytes: Uint8Array, today: string): ListRead =>
  /^\s*</.test(new TextDecoder().decode(bytes.subarray(0, 512))) ? readSdnXml(bytes) : readPlainList(bytes, today);
