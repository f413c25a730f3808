/** The Block Kit and mrkdwn rendering of the workbench, as pure functions. */
import { describe, expect, it } from 'vitest';
import { blockHtml, blocksHtml, type RenderContext } from '../../../devkit/workbench/render/blocks.js';
import { mrkdwnToHtml, plainToHtml } from '../../../devkit/workbench/render/mrkdwn.js';
import { requestModal } from '../../../src/adapters/slack/blocks/request-modal.js';

const ctx: RenderContext = {
  personName: (id) => ({ U0REQUESTER: 'riley', U0APPROVER1: 'amara' })[id],
  channelName: (id) => ({ C0GENERAL: 'treasury' })[id],
  people: [
    { id: 'U0REQUESTER', name: 'riley' },
    { id: 'U0APPROVER1', name: 'amara' },
  ],
  channels: [{ id: 'C0GENERAL', name: 'treasury' }],
};

const md = (text: string) => mrkdwnToHtml(text, ctx);
/** The card's actions block, `approval-R-1`, holding `elements`, as the workbench draws it. */
const approvalActions = (elements: unknown[]) =>
  blockHtml({ type: 'actions', block_id: 'approval-R-1', elements } as Parameters<typeof blockHtml>[0], ctx);
/** Every one of `parts` is in `html`; a miss names the part. */
const containsAll = (html: string, parts: string[]) => {
  for (const part of parts) expect(html, part).toContain(part);
};

describe('mrkdwn', () => {
  const RENDERED: [string, [string, string][]][] = [
    [
      'renders bold, italic, strike, inline code and line breaks',
      [
        [
          '*Amount:* _about_ ~old~ `base:usdc`\nnext',
          '<b>Amount:</b> <i>about</i> <s>old</s> <code class="mk-code">base:usdc</code><br>next',
        ],
      ],
    ],
    ['leaves underscores and asterisks inside words alone', [['wal_ops_7f3a and 2*3*4', 'wal_ops_7f3a and 2*3*4']]],
    [
      'renders code blocks verbatim, without formatting inside',
      [
        [
          'Table:\n```Asset  *Chain*\nUSDC   Base```\nend',
          'Table:<pre class="mk-pre">Asset  *Chain*\nUSDC   Base</pre>end',
        ],
      ],
    ],
    [
      'renders links with their label, bold around a link, and bare URLs',
      [
        [
          '*<https://basescan.org/tx/0xab|view the transaction>* at https://example.com/a_b',
          '<b><a class="mk-link" href="https://basescan.org/tx/0xab" target="_blank" rel="noopener noreferrer">view the transaction</a></b> at <a class="mk-link" href="https://example.com/a_b" target="_blank" rel="noopener noreferrer">https://example.com/a_b</a>',
        ],
      ],
    ],
    [
      'shows user mentions as @name, channels as #name, and a date for the page to draw in its own zone',
      [
        [
          '<@U0REQUESTER> in <#C0GENERAL> by <@U0NOBODY> <!date^1700000000^{time}|14:13 UTC> <!here>',
          '<span class="mk-mention">@riley</span> in <span class="mk-mention">#treasury</span> by <span class="mk-mention">@U0NOBODY</span> <time class="mk-date" datetime="2023-11-14T22:13:20.000Z" title="2023-11-14T22:13:20.000Z" data-seconds="1700000000" data-format="{time}">14:13 UTC</time> <span class="mk-mention">@here</span>',
        ],
      ],
    ],
    [
      "decodes Slack's escapes once and never lets text become markup",
      [
        [
          '`/lookup &lt;bank_code&gt;` a &amp; b &lt;script&gt;',
          '<code class="mk-code">/lookup &lt;bank_code&gt;</code> a &amp; b &lt;script&gt;',
        ],
        ['<javascript:alert(1)|click> "quoted"', 'click (javascript:alert(1)) &quot;quoted&quot;'],
      ],
    ],
    [
      'renders known emoji and keeps unknown ones visible; quotes become blockquotes',
      [
        [
          ':white_check_mark: done :not_an_emoji:',
          '<span class="mk-emoji" title=":white_check_mark:">✅</span> done :not_an_emoji:',
        ],
        ['&gt; quoted\nplain', '<blockquote class="mk-quote">quoted</blockquote>plain'],
      ],
    ],
  ];
  it.each(RENDERED)('%s', (_, pairs) => {
    for (const [text, html] of pairs) expect(md(text), text).toBe(html);
  });

  it('shows plain_text as typed', () => {
    expect(plainToHtml('a *b* <i>\n:warning:')).toBe('a *b* &lt;i&gt;<br>⚠️');
    expect(plainToHtml(':warning:', false)).toBe(':warning:');
  });
});

describe('Block Kit', () => {
  it('renders a header, a section with fields and an accessory button, context and a divider', () => {
    const html = blocksHtml(
      [
        { type: 'header', block_id: 'h', text: { type: 'plain_text', text: 'Transfer R-1' } },
        {
          type: 'section',
          block_id: 's',
          text: { type: 'mrkdwn', text: '*Who*' },
          fields: [
            { type: 'mrkdwn', text: '*From:* ops' },
            { type: 'plain_text', text: 'To: 0x99' },
          ],
          accessory: { type: 'button', action_id: 'more', text: { type: 'plain_text', text: 'More' } },
        },
        { type: 'divider', block_id: 'd' },
        { type: 'context', block_id: 'c', elements: [{ type: 'mrkdwn', text: 'hash `abc`' }] },
      ],
      ctx,
    );
    containsAll(html, [
      'data-block-type="header"',
      '<div class="bk-field"><b>From:</b> ops</div>',
      'data-action-id="more" data-block-id="s" data-type="button"',
      '<hr>',
      '<code class="mk-code">abc</code>',
    ]);
    expect(html).not.toContain('bk-unsupported');
  });

  it('gives buttons their style and confirm dialog', () => {
    const html = approvalActions([
      {
        type: 'button',
        action_id: 'request_approve',
        style: 'primary',
        value: 'R-1',
        text: { type: 'plain_text', text: 'Approve' },
        confirm: {
          title: { type: 'plain_text', text: 'Approve this request?' },
          text: { type: 'mrkdwn', text: '*25* USDC' },
          confirm: { type: 'plain_text', text: 'Approve' },
          deny: { type: 'plain_text', text: 'Back' },
        },
      },
      { type: 'button', action_id: 'request_deny', style: 'danger', text: { type: 'plain_text', text: 'Deny' } },
    ]);
    expect(html).toContain('class="bk-button bk-primary"');
    expect(html).toContain('class="bk-button bk-danger"');
    const confirm = /data-confirm="([^"]*)"/
      .exec(html)?.[1]
      ?.replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>');
    expect(JSON.parse(confirm ?? 'null')).toEqual({
      title: 'Approve this request?',
      html: '<b>25</b> USDC',
      confirm: 'Approve',
      deny: 'Back',
      style: '',
    });
  });

  it('draws an overflow menu as a ⋯ button opening a list of its options, never a select as wide as them', () => {
    const html = approvalActions([
      {
        type: 'overflow',
        action_id: 'request_cancel',
        options: [{ text: { type: 'plain_text', text: 'Cancel my request (requester only)' }, value: 'R-1' }],
      },
    ]);
    expect(html).not.toContain('<select');
    expect(html).toContain(
      '<div class="bk-overflow" data-action-id="request_cancel" data-block-id="approval-R-1" data-type="overflow" data-dispatch>',
    );
    expect(html).toContain(
      '<button type="button" class="bk-overflow-button" aria-label="More actions" aria-haspopup="menu" aria-expanded="false">⋯</button>',
    );
    expect(html).toContain(
      '<ul class="bk-overflow-menu" role="menu" hidden><li role="none"><button type="button" role="menuitem" data-overflow-value="R-1">Cancel my request (requester only)</button></li></ul>',
    );
  });

  it("renders Rampart's transfer modal with every input it uses and an error slot per input", () => {
    const view = requestModal(
      { kind: 'transfer', channel: 'C0GENERAL' },
      [
        { alias: 'ops', id: 'wal_ops' },
        { alias: 'treasury', id: 'wal_t' },
      ],
      { amount: '25', asset: 'base:usdc', receiver: '0x99', reason: 'invoice 7', wallet: 'treasury' },
    );
    const html = blocksHtml(view.blocks, ctx);
    expect(html).not.toContain('bk-unsupported');
    expect(html).toContain('<option value="treasury" selected>treasury</option>');
    expect(html).toContain('value="25"');
    expect(html).toMatch(/<textarea[^>]*data-action-id="reason"[^>]*>invoice 7<\/textarea>/);
    expect(html).toContain('type="checkbox" name="entire/entire" value="entire"');
    for (const block of ['wallet', 'asset', 'amount', 'receiver', 'reason']) {
      expect(html).toContain(`data-error-for="${block}"`);
    }
    // Required unless marked optional: the page checks these before sending, as Slack does.
    expect(html).toContain('data-block-id="receiver" data-block-type="input" data-required');
    expect(html).toMatch(/data-block-id="amount" data-block-type="input">/);
  });

  it('renders the other inputs: number, date, radio buttons, external and user selects', () => {
    const input = (block_id: string, element: Record<string, unknown>) => ({
      type: 'input',
      block_id,
      label: { type: 'plain_text', text: block_id },
      element: { action_id: block_id, ...element },
    });
    const html = blocksHtml(
      [
        input('n', { type: 'number_input', is_decimal_allowed: true, initial_value: '1.5' }),
        input('d', { type: 'datepicker', initial_date: '2026-01-02' }),
        input('r', {
          type: 'radio_buttons',
          options: [{ text: { type: 'plain_text', text: 'A' }, value: 'a' }],
          initial_option: { text: { type: 'plain_text', text: 'A' }, value: 'a' },
        }),
        input('e', { type: 'external_select', min_query_length: 1 }),
        input('u', { type: 'users_select' }),
      ],
      ctx,
    );
    expect(html).not.toContain('bk-unsupported');
    expect(html).toContain('inputmode="decimal"');
    expect(html).toContain(
      'type="date" data-action-id="d" data-block-id="d" data-type="datepicker" data-input value="2026-01-02"',
    );
    containsAll(html, [
      'type="radio" name="r/r" value="a" checked',
      'data-type="external_select" data-input data-min-query-length="1"',
      '<option value="U0APPROVER1">@amara</option>',
    ]);
  });

  it('shows a visible placeholder naming what it cannot render, never nothing', () => {
    const html = blocksHtml(
      [
        { type: 'rich_text', block_id: 'x', elements: [] },
        { type: 'markdown', block_id: 'm', text: '**hi**' },
        { type: 'actions', block_id: 'a', elements: [{ type: 'workflow_button', action_id: 'w' }] },
      ],
      ctx,
    );
    containsAll(html, [
      'Not rendered by the workbench: <code>block &quot;rich_text&quot;</code>',
      '<code>block &quot;markdown&quot;</code>',
      '<pre class="bk-raw">**hi**</pre>',
      '<code>element &quot;workflow_button&quot;</code>',
    ]);
  });
});
