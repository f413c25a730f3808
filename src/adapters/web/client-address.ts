/**
 * Whose attempt a request on the passkey pages is (per client address only
 * when TRUST_PROXY names the proxy). With no proxy named there is no client address to limit:
 * X-Forwarded-For is anyone's to write, and the peer may be a proxy every approver shares.
 */
import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';

export type ClientAddressOf = (req: IncomingMessage) => string | undefined;

/** `::ffff:10.0.0.1` (an IPv4 peer on a dual-stack socket) is 10.0.0.1. */
const plain = (address: string): string => {
  const a = address.trim().replace(/^\[|\]$/g, '');
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(a) ? a.slice(7) : a;
};

const family = (address: string): 'ipv4' | 'ipv6' => (isIP(address) === 6 ? 'ipv6' : 'ipv4');

/** TRUST_PROXY's entries (already validated by the config) as one matcher. */
function trusted(entries: readonly string[]): (address: string) => boolean {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', bits] = entry.split('/');
    if (bits === undefined) list.addAddress(address, family(address));
    else list.addSubnet(address, Number(bits), family(address));
  }
  return (address) => isIP(address) !== 0 && list.check(address, family(address));
}

/**
 * The client address: undefined when no proxy is named. A peer that is not a named proxy is the
 * client itself, whatever X-Forwarded-For it sends. Through a named proxy, the right-most
 * X-Forwarded-For address that is not itself a named proxy (proxies append, so that one was
 * written by a proxy we trust); an unreadable entry there stops the walk at the hop that sent it.
 */
export function clientAddressOf(trustProxy: readonly string[]): ClientAddressOf {
  if (trustProxy.length === 0) return () => undefined;
  const isProxy = trusted(trustProxy);
  return (req) => {
    let client = plain(req.socket.remoteAddress ?? '');
    if (client === '' || !isProxy(client)) return client || undefined;
    const header = req.headers['x-forwarded-for'];
    const hops = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',').map(plain).filter(Boolean);
    for (const hop of hops.reverse()) {
      if (isIP(hop) === 0) return client;
      client = hop;
      if (!isProxy(hop)) return client;
    }
    return client;
  };
}
