/** The card's mrkdwn as the passkey page's HTML: people's words stay text, links stay safe. Pure. */
import { describe, expect, it } from 'vitest';
import { esc, link, slackDate } from '../../../src/slack/blocks/common.js';
import { mrkdwnHtml } from '../../../src/web/mrkdwn-html.js';

const names = new Map([['U0REQUESTER', 'Ada <Obi>']]);

describe('mrkdwnHtml', () => {
  it('keeps what a person typed as text, whatever it holds', () => {
    const typed = '<script>alert(1)</script> & "quotes" <@U0APPROVER1> *not bold?*';
    const html = mrkdwnHtml(`*Reason:* ${esc(typed)}`, names);
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot; &lt;@U0APPROVER1&gt;');
  });

  it('names mentioned people (escaped), and shows an unknown one by id', () => {
    expect(mrkdwnHtml('by <@U0REQUESTER> and <@U0OTHER>', names)).toBe(
      'by <span class="person">Ada &lt;Obi&gt;</span> and <span class="person">U0OTHER</span>',
    );
  });

  it('makes http(s) links anchors with the card’s label, and anything else its label alone', () => {
    expect(mrkdwnHtml(link('https://basescan.org/address/0xAb_c', '0xAb_c'), names)).toBe(
      '<a href="https://basescan.org/address/0xAb_c" rel="noopener noreferrer" target="_blank">0xAb_c</a>',
    );
    expect(mrkdwnHtml('<javascript:alert(1)|click>', names)).toBe('click');
  });

  it('shows a date as its UTC fallback, and no emphasis inside ids or code', () => {
    const at = Date.UTC(2026, 10, 22, 9, 30);
    expect(mrkdwnHtml(`*Expires:* ${slackDate(at)}`, names)).toBe('<strong>Expires:</strong> 2026-11-22 09:30 UTC');
    expect(mrkdwnHtml('*From:* wal_ops_7f3a `base:usdc_x_` :warning:', names)).toBe(
      '<strong>From:</strong> wal_ops_7f3a <code>base:usdc_x_</code> ⚠️',
    );
  });
});
