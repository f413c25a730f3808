/**
 * Names of common passkey providers by AAGUID (the card names the
 * authenticator). Deliberately short: a few AAGUIDs and product names, facts each provider
 * publishes, cross-checked against the community list
 * github.com/passkeydeveloper/passkey-authenticator-aaguids (no code or data file is copied).
 * Anything else is "unknown authenticator": never a guessed name. Pure.
 */
const NAMES: Readonly<Record<string, string>> = {
  'fbfc3007-154e-4ecc-8c0b-6e020557d7bd': 'iCloud Keychain',
  'dd4ec289-e01d-41c9-bb89-70fa845d4bf2': 'iCloud Keychain (Managed)',
  'ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4': 'Google Password Manager',
  'adce0002-35bc-c60a-648b-0b25f1f05503': 'Chrome on Mac',
  '08987058-cadc-4b81-b6e1-30de50dcbe96': 'Windows Hello',
  '9ddd1817-af5a-4672-a2b9-3e3dd95000a9': 'Windows Hello',
  '6028b017-b1d4-4c02-b4b3-afcdafc96bb2': 'Windows Hello',
  'bada5566-a7aa-401f-bd96-45619a55120d': '1Password',
  'd548826e-79b4-db40-a3d8-11116f7e8349': 'Bitwarden',
  '531126d6-e717-415c-9320-3d9aa6981239': 'Dashlane',
};

/** The all-zero AAGUID is what an authenticator sends when it does not say what it is. */
export function authenticatorName(aaguid: string): string {
  return NAMES[aaguid.toLowerCase()] ?? 'unknown authenticator';
}
