/** Whose address a passkey-page attempt counts against (TRUST_PROXY). */
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientAddressOf } from '../../../src/adapters/web/client-address.js';

const req = (peer: string, forwardedFor?: string | string[]) =>
  ({
    socket: { remoteAddress: peer },
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
  }) as unknown as IncomingMessage;

describe('clientAddressOf', () => {
  it('knows no client address while no proxy is named', () => {
    expect(clientAddressOf([])(req('198.51.100.1', '203.0.113.7'))).toBeUndefined();
  });

  it('takes a peer that is not a named proxy as the client, whatever it forwards', () => {
    const of = clientAddressOf(['10.0.0.5']);
    expect(of(req('198.51.100.1', '203.0.113.7'))).toBe('198.51.100.1');
    expect(of(req('::ffff:198.51.100.1'))).toBe('198.51.100.1');
  });

  it('through named proxies, takes the right-most forwarded address that is not one', () => {
    const of = clientAddressOf(['10.0.0.0/8', 'fd00::/8']);
    expect(of(req('10.0.0.5', '192.0.2.1, 203.0.113.7, 10.1.1.1'))).toBe('203.0.113.7');
    expect(of(req('fd00::1', ['192.0.2.1', '2001:db8::7']))).toBe('2001:db8::7');
    // Only proxies in the chain: the left-most is the client; none at all: the proxy itself.
    expect(of(req('10.0.0.5', '10.2.2.2, 10.1.1.1'))).toBe('10.2.2.2');
    expect(of(req('10.0.0.5'))).toBe('10.0.0.5');
    // Unreadable where the client should be: the hop that sent it.
    expect(of(req('10.0.0.5', 'bogus, 10.1.1.1'))).toBe('10.1.1.1');
  });
});
