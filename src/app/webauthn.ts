/**
 * @simplewebauthn/server (with its X.509 and ASN.1 dependencies, ~70 modules), loaded on the first
 * passkey page or check rather than at start: most processes never verify a passkey,
 * and start-up memory stays small. Node keeps the
 * module after the first call.
 */
export const webauthn = () => import('@simplewebauthn/server');
