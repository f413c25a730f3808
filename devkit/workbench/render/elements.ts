/**
 * Block Kit interactive elements as HTML controls. Each control carries what the page needs to
 * act like Slack: `data-action-id`, `data-block-id` and `data-type`; `data-input` marks a control
 * whose value belongs in `view.state`, `data-dispatch` one that sends block_actions when changed.
 * Element reference: https://docs.slack.dev/reference/block-kit/block-elements
 */
import { attrs, escapeHtml, isObject, type JsonObject, list, str, unsupported } from './html.js';
import { type Directory, textOf, textToHtml } from './mrkdwn.js';

export interface RenderContext extends Directory {
  people: readonly { id: string; name: string }[];
  channels: readonly { id: string; name: string }[];
}

export interface Placement {
  blockId: string;
  /** In an input block (value submitted with the view), or in actions/accessory (sent on change). */
  role: 'input' | 'action';
  /** An input block with dispatch_action: changes are also sent as block_actions. */
  dispatch?: boolean;
}

const baseAttrs = (el: JsonObject, place: Placement, input: boolean) => ({
  'data-action-id': str(el.action_id) ?? '',
  'data-block-id': place.blockId,
  'data-type': str(el.type) ?? '',
  'data-input': input,
  'data-dispatch': place.role === 'action' || place.dispatch === true,
});

function confirmJson(confirm: unknown, ctx: RenderContext): string | undefined {
  if (!isObject(confirm)) return undefined;
  return JSON.stringify({
    title: textOf(confirm.title),
    html: textToHtml(confirm.text, ctx),
    confirm: textOf(confirm.confirm) || 'Yes',
    deny: textOf(confirm.deny) || 'Cancel',
    style: str(confirm.style) ?? '',
  });
}

function button(el: JsonObject, place: Placement, ctx: RenderContext): string {
  const style = el.style === 'primary' || el.style === 'danger' ? ` bk-${el.style}` : '';
  const a = attrs({
    type: 'button',
    class: `bk-button${style}`,
    ...baseAttrs(el, place, false),
    'data-dispatch': true,
    'data-url': str(el.url),
    'data-confirm': confirmJson(el.confirm, ctx),
    'aria-label': str(el.accessibility_label),
  });
  return `<button${a}>${textToHtml(el.text, ctx)}${el.url ? ' <span class="bk-external-mark">↗</span>' : ''}</button>`;
}

interface Option {
  text: string;
  value: string;
}

const optionOf = (o: unknown): Option | undefined =>
  isObject(o) && typeof o.value === 'string' ? { text: textOf(o.text), value: o.value } : undefined;

const optionsOf = (v: unknown): Option[] => list(v).flatMap((o) => optionOf(o) ?? []);

function selectedValues(el: JsonObject): Set<string> {
  const values = new Set<string>();
  const one = optionOf(el.initial_option);
  if (one) values.add(one.value);
  for (const o of optionsOf(el.initial_options)) values.add(o.value);
  for (const key of ['initial_user', 'initial_conversation', 'initial_channel']) {
    const v = str(el[key]);
    if (v) values.add(v);
  }
  for (const key of ['initial_users', 'initial_conversations', 'initial_channels']) {
    for (const v of list(el[key])) if (typeof v === 'string') values.add(v);
  }
  return values;
}

const optionTag = (o: Option, selected: Set<string>): string =>
  `<option${attrs({ value: o.value, selected: selected.has(o.value) })}>${escapeHtml(o.text)}</option>`;

/** static/users/conversations/channels selects (single or multi) as a native <select>. */
function select(el: JsonObject, place: Placement, options: Option[], groups: { label: string; options: Option[] }[]) {
  const multi = String(el.type).startsWith('multi_');
  const selected = selectedValues(el);
  const placeholder = textOf(el.placeholder) || (multi ? '' : 'Select an item');
  const first = multi
    ? ''
    : `<option value=""${selected.size === 0 ? ' selected' : ''}>${escapeHtml(placeholder)}</option>`;
  const body =
    options.map((o) => optionTag(o, selected)).join('') +
    groups
      .map(
        (g) =>
          `<optgroup label="${escapeHtml(g.label)}">${g.options.map((o) => optionTag(o, selected)).join('')}</optgroup>`,
      )
      .join('');
  return `<select${attrs({ class: 'bk-select', ...baseAttrs(el, place, true), multiple: multi })}>${first}${body}</select>`;
}

function staticSelect(el: JsonObject, place: Placement): string {
  const groups = list(el.option_groups).flatMap((g) =>
    isObject(g) ? [{ label: textOf(g.label), options: optionsOf(g.options) }] : [],
  );
  return select(el, place, optionsOf(el.options), groups);
}

/** A text box that asks Rampart for options (block_suggestion) as the person types. */
function externalSelect(el: JsonObject, place: Placement): string {
  const initial = isObject(el.initial_option) ? el.initial_option : undefined;
  const a = attrs({
    class: 'bk-external',
    ...baseAttrs(el, place, true),
    'data-min-query-length': typeof el.min_query_length === 'number' ? el.min_query_length : 3,
    'data-selected': initial ? JSON.stringify(initial) : undefined,
  });
  const input = attrs({
    type: 'text',
    class: 'bk-text bk-external-query',
    placeholder: textOf(el.placeholder) || 'Type to search',
    value: initial ? textOf(initial.text) : undefined,
    autocomplete: 'off',
  });
  return `<div${a}><input${input}><ul class="bk-suggestions" hidden></ul></div>`;
}

/**
 * Slack draws an overflow menu as a small ⋯ button that opens a list of actions; a native
 * <select> would be as wide as its longest option and wrap a phone's action row.
 */
function overflow(el: JsonObject, place: Placement, ctx: RenderContext): string {
  const items = list(el.options)
    .filter(isObject)
    .flatMap((o) => {
      const value = str(o.value);
      if (value === undefined) return [];
      const a = attrs({ type: 'button', role: 'menuitem', 'data-overflow-value': value, 'data-url': str(o.url) });
      return [`<li role="none"><button${a}>${escapeHtml(textOf(o.text))}</button></li>`];
    })
    .join('');
  const box = attrs({
    class: 'bk-overflow',
    ...baseAttrs(el, place, false),
    'data-confirm': confirmJson(el.confirm, ctx),
  });
  const toggle = attrs({
    type: 'button',
    class: 'bk-overflow-button',
    'aria-label': 'More actions',
    'aria-haspopup': 'menu',
    'aria-expanded': 'false',
  });
  return `<div${box}><button${toggle}>⋯</button><ul class="bk-overflow-menu" role="menu" hidden>${items}</ul></div>`;
}

function choices(el: JsonObject, place: Placement, ctx: RenderContext, kind: 'checkbox' | 'radio'): string {
  const selected = selectedValues(el);
  const name = `${place.blockId}/${str(el.action_id) ?? ''}`;
  const items = list(el.options)
    .filter(isObject)
    .map((o) => {
      const value = str(o.value) ?? '';
      const description = o.description
        ? `<div class="bk-choice-description">${textToHtml(o.description, ctx)}</div>`
        : '';
      const input = attrs({ type: kind, name, value, checked: selected.has(value) });
      return `<label class="bk-choice"><input${input}><span>${textToHtml(o.text, ctx)}${description}</span></label>`;
    })
    .join('');
  return `<div${attrs({ class: `bk-choices bk-${kind}es`, ...baseAttrs(el, place, true), role: kind === 'radio' ? 'radiogroup' : 'group' })}>${items}</div>`;
}

function textInput(el: JsonObject, place: Placement): string {
  const type = String(el.type);
  const common = {
    class: 'bk-text',
    ...baseAttrs(el, place, true),
    placeholder: textOf(el.placeholder) || undefined,
    minlength: typeof el.min_length === 'number' ? el.min_length : undefined,
    maxlength: typeof el.max_length === 'number' ? el.max_length : undefined,
    autofocus: el.focus_on_load === true,
  };
  const initial = str(el.initial_value);
  if (type === 'plain_text_input' && el.multiline === true) {
    return `<textarea${attrs({ ...common, rows: 3 })}>${escapeHtml(initial ?? '')}</textarea>`;
  }
  const htmlType = { email_text_input: 'email', url_text_input: 'url', number_input: 'text' }[type] ?? 'text';
  const extra =
    type === 'number_input'
      ? {
          inputmode: el.is_decimal_allowed === true ? 'decimal' : 'numeric',
          'data-min': str(el.min_value),
          'data-max': str(el.max_value),
        }
      : {};
  return `<input${attrs({ ...common, type: htmlType, value: initial, ...extra })}>`;
}

function picker(el: JsonObject, place: Placement, htmlType: string, initial: string | undefined): string {
  return `<input${attrs({ class: 'bk-text bk-picker', type: htmlType, ...baseAttrs(el, place, true), value: initial })}>`;
}

function dateTimeInitial(el: JsonObject): string | undefined {
  if (typeof el.initial_date_time !== 'number') return undefined;
  return new Date(el.initial_date_time * 1000).toISOString().slice(0, 16);
}

export function elementHtml(element: unknown, place: Placement, ctx: RenderContext): string {
  if (!isObject(element)) return unsupported('element', '(not an object)');
  const el = element;
  switch (el.type) {
    case 'button':
      return button(el, place, ctx);
    case 'static_select':
    case 'multi_static_select':
      return staticSelect(el, place);
    case 'external_select':
      return externalSelect(el, place);
    case 'users_select':
    case 'multi_users_select':
      return select(
        el,
        place,
        ctx.people.map((p) => ({ text: `@${p.name}`, value: p.id })),
        [],
      );
    case 'conversations_select':
    case 'multi_conversations_select':
    case 'channels_select':
    case 'multi_channels_select':
      return select(
        el,
        place,
        ctx.channels.map((c) => ({ text: `#${c.name}`, value: c.id })),
        [],
      );
    case 'overflow':
      return overflow(el, place, ctx);
    case 'checkboxes':
      return choices(el, place, ctx, 'checkbox');
    case 'radio_buttons':
      return choices(el, place, ctx, 'radio');
    case 'plain_text_input':
    case 'email_text_input':
    case 'url_text_input':
    case 'number_input':
      return textInput(el, place);
    case 'file_input': {
      // The page uploads the picked file to the fake Slack, which answers with the
      // value Slack puts in view_submission; it waits in data-picked until the form is sent.
      const types = list(el.filetypes).filter((t): t is string => typeof t === 'string');
      return `<input${attrs({
        class: 'bk-file',
        type: 'file',
        ...baseAttrs(el, place, true),
        'data-dispatch': false,
        accept: types.length > 0 ? types.map((t) => `.${t}`).join(',') : undefined,
      })}>`;
    }
    case 'datepicker':
      return picker(el, place, 'date', str(el.initial_date));
    case 'timepicker':
      return picker(el, place, 'time', str(el.initial_time));
    case 'datetimepicker':
      return picker(el, place, 'datetime-local', dateTimeInitial(el));
    case 'image':
      return imageHtml(el);
    case 'mrkdwn':
    case 'plain_text':
      return textToHtml(el, ctx);
    default:
      return unsupported(`element "${String(el.type)}"`);
  }
}

export function imageHtml(el: JsonObject): string {
  const alt = str(el.alt_text) ?? '';
  // An uploaded file (slack_file), served by the workbench from the fake's files.
  const fileId = isObject(el.slack_file) ? str(el.slack_file.id) : undefined;
  if (fileId)
    return `<img${attrs({ class: 'bk-image', src: `/api/file?id=${encodeURIComponent(fileId)}&inline=1`, alt, title: alt })}>`;
  const url = str(el.image_url) ?? '';
  if (!/^https?:/i.test(url)) return unsupported('image', `(${alt || 'no image_url'})`);
  return `<img${attrs({ class: 'bk-image', src: url, alt, title: alt, loading: 'lazy', referrerpolicy: 'no-referrer' })}>`;
}
