/**
 * Block Kit blocks as HTML (https://docs.slack.dev/reference/block-kit/blocks). A block the
 * workbench cannot draw becomes a visible placeholder naming its type, never a silent gap.
 */
import { dataTableHtml, dataVisualizationHtml } from './charts.js';
import { elementHtml, imageHtml, type RenderContext } from './elements.js';
import { attrs, escapeHtml, isObject, type JsonObject, list, str, unsupported } from './html.js';
import { mrkdwnToHtml, textToHtml } from './mrkdwn.js';

export type { RenderContext } from './elements.js';

const wrap = (block: JsonObject, body: string, extraClass = ''): string =>
  `<div${attrs({
    class: `bk-block bk-${String(block.type)}${extraClass}`,
    'data-block-id': str(block.block_id) ?? '',
    'data-block-type': String(block.type),
    // Slack checks required inputs itself before sending a submission.
    'data-required': block.type === 'input' && block.optional !== true,
  })}>${body}</div>`;

function section(block: JsonObject, ctx: RenderContext): string {
  const blockId = str(block.block_id) ?? '';
  const text = block.text ? `<div class="bk-section-text">${textToHtml(block.text, ctx)}</div>` : '';
  const fields = list(block.fields);
  const grid =
    fields.length > 0
      ? `<div class="bk-fields">${fields.map((f) => `<div class="bk-field">${textToHtml(f, ctx)}</div>`).join('')}</div>`
      : '';
  const accessory = block.accessory
    ? `<div class="bk-accessory">${elementHtml(block.accessory, { blockId, role: 'action' }, ctx)}</div>`
    : '';
  return wrap(block, `<div class="bk-section-body">${text}${grid}</div>${accessory}`);
}

function context(block: JsonObject, ctx: RenderContext): string {
  const items = list(block.elements).map((el) =>
    isObject(el) && el.type === 'image'
      ? imageHtml({ ...el, type: 'image' })
      : `<span class="bk-context-item">${textToHtml(el, ctx)}</span>`,
  );
  return wrap(block, items.join(''));
}

function actions(block: JsonObject, ctx: RenderContext): string {
  const blockId = str(block.block_id) ?? '';
  return wrap(
    block,
    list(block.elements)
      .map((el) => elementHtml(el, { blockId, role: 'action' }, ctx))
      .join(''),
  );
}

function input(block: JsonObject, ctx: RenderContext): string {
  const blockId = str(block.block_id) ?? '';
  const optional = block.optional === true ? ' <span class="bk-optional">(optional)</span>' : '';
  const label = `<label class="bk-label">${textToHtml(block.label, ctx)}${optional}</label>`;
  const element = elementHtml(block.element, { blockId, role: 'input', dispatch: block.dispatch_action === true }, ctx);
  const hint = block.hint ? `<div class="bk-hint">${textToHtml(block.hint, ctx)}</div>` : '';
  const error = `<div class="bk-error" data-error-for="${escapeHtml(blockId)}" role="alert" hidden></div>`;
  return wrap(block, `${label}${element}${error}${hint}`);
}

function image(block: JsonObject, ctx: RenderContext): string {
  const title = block.title ? `<div class="bk-image-title">${textToHtml(block.title, ctx)}</div>` : '';
  return wrap(block, `${title}${imageHtml(block)}`);
}

export function blockHtml(block: unknown, ctx: RenderContext): string {
  if (!isObject(block)) return unsupported('block', '(not an object)');
  switch (block.type) {
    case 'header':
      return wrap(block, textToHtml(block.text, ctx));
    case 'section':
      return section(block, ctx);
    case 'divider':
      return wrap(block, '<hr>');
    case 'context':
      return context(block, ctx);
    case 'actions':
      return actions(block, ctx);
    case 'input':
      return input(block, ctx);
    case 'image':
      return image(block, ctx);
    case 'data_visualization': // Slack's chart block
      return wrap(block, dataVisualizationHtml(block));
    case 'data_table':
      return wrap(block, dataTableHtml(block));
    default: {
      const text = str(block.text);
      const raw = text === undefined ? '' : `<pre class="bk-raw">${escapeHtml(text)}</pre>`;
      return wrap(block, `${unsupported(`block "${String(block.type)}"`)}${raw}`, ' bk-unknown');
    }
  }
}

export const blocksHtml = (blocks: readonly unknown[], ctx: RenderContext): string =>
  blocks.map((b) => blockHtml(b, ctx)).join('');

/** A message: its blocks, or its `text` as mrkdwn when it has none (as Slack shows it). */
export function messageBodyHtml(message: { text: string; blocks: readonly unknown[] }, ctx: RenderContext): string {
  if (message.blocks.length > 0) return blocksHtml(message.blocks, ctx);
  return `<div class="bk-block bk-text-only">${mrkdwnToHtml(message.text, ctx)}</div>`;
}
