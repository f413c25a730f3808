/**
 * A software WebAuthn authenticator (ES256, user verified) for tests that need a real assertion
 * without a browser: an ECDSA P-256 key from node:crypto, the COSE public key Rampart stores,
 * and assertions exactly as the WebAuthn Level 3 spec lays them out (authenticator data: RP ID
 * hash, flags UP|UV, counter; the signature over authenticatorData ‖ SHA-256(clientDataJSON)).
 */
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import type { Passkey } from '../../src/domain/passkey.js';

const b64url = (b: Uint8Array): string => Buffer.from(b).toString('base64url');
const sha256 = (b: Uint8Array | string): Buffer => createHash('sha256').update(b).digest();

export interface SoftAssertion {
  id: string;
  rawId: string;
  type: 'public-key';
  response: { authenticatorData: string; clientDataJSON: string; signature: string };
  clientExtensionResults: Record<string, never>;
}

export class SoftAuthenticator {
  readonly credentialId = b64url(randomBytes(16));
  /** The COSE_Key (EC2, ES256) as Rampart stores it, base64url. */
  readonly publicKey: string;
  private readonly privateKey: KeyObject;
  private counter = 0;

  constructor(
    private readonly rpId: string,
    private readonly origin: string,
  ) {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = privateKey;
    const jwk = publicKey.export({ format: 'jwk' });
    const x = Buffer.from(jwk.x ?? '', 'base64url');
    const y = Buffer.from(jwk.y ?? '', 'base64url');
    // CBOR map(5) {1: 2 (EC2), 3: -7 (ES256), -1: 1 (P-256), -2: x, -3: y} (RFC 9053).
    const cose = Buffer.concat([
      Buffer.from([0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20]),
      x,
      Buffer.from([0x22, 0x58, 0x20]),
      y,
    ]);
    this.publicKey = b64url(cose);
  }

  /** The passkey record of `user` holding this key, active and usable now. */
  passkeyOf(user: string): Passkey {
    return {
      id: this.credentialId,
      user,
      publicKey: this.publicKey,
      aaguid: '00000000-0000-0000-0000-000000000000',
      browser: 'software authenticator',
      createdAt: 1,
      status: 'active',
      usableFrom: 0,
      approvedBy: 'cli',
    };
  }

  /** An assertion over `challenge`, as a browser posts it back. */
  assert(challenge: Uint8Array): SoftAssertion {
    this.counter += 1;
    const count = Buffer.alloc(4);
    count.writeUInt32BE(this.counter);
    const authenticatorData = Buffer.concat([sha256(this.rpId), Buffer.from([0x05]), count]);
    const clientDataJSON = Buffer.from(
      JSON.stringify({ type: 'webauthn.get', challenge: b64url(challenge), origin: this.origin, crossOrigin: false }),
    );
    const signature = sign('sha256', Buffer.concat([authenticatorData, sha256(clientDataJSON)]), this.privateKey);
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: 'public-key',
      response: {
        authenticatorData: b64url(authenticatorData),
        clientDataJSON: b64url(clientDataJSON),
        signature: b64url(signature),
      },
      clientExtensionResults: {},
    };
  }
}
