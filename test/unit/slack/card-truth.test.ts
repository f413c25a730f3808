/**
 * Approvers see the truth on the card (DESIGN invariant 7): a holder name is
 * called verified only when the service's lookup returned it; a typed one says who typed it;
 * a cross-border destination shows country, bank codes and the account masked in the middle.
 * And service-supplied URLs cannot inject into mrkdwn links.
 */
import { describe, expect, it } from 'vitest';
import { beneficiaryOptionGroups } from '../../../src/adapters/slack/blocks/beneficiary-options.js';
import { requestCardBlocks } from '../../../src/adapters/slack/blocks/card.js';
import { outcomeReply } from '../../../src/adapters/slack/blocks/card-replies.js';
import { code, link, linkTarget } from '../../../src/adapters/slack/blocks/common.js';
import { crossBorderDestination, maskMiddle } from '../../../src/domain/destination.js';
import type { ServiceCall } from '../../../src/domain/request.js';
import { readableTexts } from '../../support/block-texts.js';
import { buildRecord, buildSealedRequest } from '../../support/factories.js';

const IBAN = 'GB33BUKB20201555555555';
const details = {
  bank_name: 'Barclays',
  account_name: 'Adaeze Okafor',
  iban: IBAN,
  swift_code: 'BUKBGB22',
  sort_code: '202015',
  bank_address: {
    house_no: 12,
    street: 'High Street',
    city: 'London',
    state: 'London',
    postal_code: 'E1 6AN',
    country: 'gb',
  },
};
const crossBorderCall: ServiceCall = {
  kind: 'beneficiary',
  body: { currency: 'ngn', identity_id: 'idn_1', details },
};

function crossBorderCard(): string {
  const sealed = buildSealedRequest('beneficiary', {
    call: crossBorderCall,
    display: {
      identityLabel: 'Adaeze Okafor (idn_1)',
      beneficiaryLabel: 'Barclays ••••5555 · Adaeze Okafor',
      holderName: 'Adaeze Okafor',
      holderSource: 'typed',
      destination: crossBorderDestination(details),
      bankName: 'Barclays',
      accountMasked: '••••5555',
    },
  });
  return readableTexts(requestCardBlocks({ ...buildRecord('pending', 'beneficiary'), sealed })).join('\n');
}

describe('the holder name on a beneficiary card', () => {
  it('says a typed cross-border holder name is as typed by the requester, never verified', () => {
    const card = crossBorderCard();
    expect(card).toContain('*Holder:* Adaeze Okafor _(typed by <@U0REQUESTER>, not verified)_');
    expect(card).not.toMatch(/verified by (the )?bank lookup/);
  });

  it('calls a name verified only when the bank lookup returned it', () => {
    const card = readableTexts(requestCardBlocks(buildRecord('pending', 'beneficiary'))).join('\n');
    expect(card).toContain('*Holder:* ADA OBI _(verified by bank lookup)_');
  });

  it('shows country, SWIFT/BIC, routing code and the IBAN masked in the middle, never whole', () => {
    const card = crossBorderCard();
    expect(card).toContain(
      '*Country:* GB  ·  *SWIFT/BIC:* `BUKBGB22`  ·  *Sort code:* `202015`  ·  *IBAN:* `GB33••••5555`',
    );
    expect(card).not.toContain(IBAN);
    expect(card).not.toContain('20201555');
  });

  it('labels payees in the offramp picker by who vouched for the holder', () => {
    const entry = {
      id: 'ben_1',
      label: 'Barclays ••••5555 · Adaeze Okafor',
      identityId: 'idn_1',
      identityName: 'Adaeze Okafor',
      bankName: 'Barclays',
      accountMasked: '••••5555',
      holderName: 'Adaeze Okafor',
      createdBy: 'U0REQUESTER',
      approvedBy: 'U0APPROVER1',
      createdAt: 0,
      requestId: 'R-1',
    };
    const texts = (source?: 'lookup' | 'typed') =>
      JSON.stringify(beneficiaryOptionGroups([{ ...entry, ...(source ? { holderSource: source } : {}) }], ''));
    expect(texts('typed')).toContain('as typed by the requester');
    expect(texts('typed')).not.toContain('bank lookup');
    expect(texts()).not.toContain('bank lookup');
    expect(texts('lookup')).toContain('(bank lookup)');
  });
});

describe('masking a destination account', () => {
  it.each([
    [IBAN, 4, 'GB33••••5555'],
    ['12345678', 2, '••••5678'],
    ['123456789012', 2, '12••••9012'],
    ['DE89 3704 0044 0532 0130 00', 4, 'DE89••••3000'],
    ['123', 2, '••••'],
  ])('%s shows only its ends: %s', (value, head, masked) => {
    expect(maskMiddle(value, head)).toBe(masked);
  });
});

describe('links built from service-supplied URLs', () => {
  it('escapes &, < and > and neutralises | so nothing can pose as the label', () => {
    expect(link('https://x.io/tx/a|<!channel>&b', 'view')).toBe('<https://x.io/tx/a%7C%3C!channel%3E&amp;b|view>');
    expect(link('https://x.io/?q=a|b&c=<d>', 'x')).toBe('<https://x.io/?q=a%7Cb&amp;c=%3Cd%3E|x>');
  });

  it('never links anything but http(s): the label is shown as text', () => {
    for (const url of ['javascript:alert(1)', 'slack://open', 'not a url', 'mailto:a@b.c'])
      expect(link(url, 'open <it>')).toBe('open &lt;it&gt;');
    expect(linkTarget('ftp://x.io')).toBeUndefined();
  });

  it('keeps an outcome reply from the service inside its link and its code span', () => {
    const record = buildRecord('succeeded', 'transfer', {
      outcome: { link: 'https://basescan.org/tx/0x1|<!here> click', hash: '0xab`<!here>`cd0123456789' },
    });
    const reply = outcomeReply(record);
    expect(reply).not.toContain('<!here>');
    expect(reply).toContain('<https://basescan.org/tx/0x1%7C%3C!here%3E%20click|');
    expect(code('a`b<c')).toBe("`a'b&lt;c`");
  });
});
