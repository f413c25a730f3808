/**
 * Slack's Block Kit limits for messages, modals and App Home views, as a pure function so the
 * fake server and unit tests share one definition. Sources:
 * https://docs.slack.dev/reference/block-kit/blocks, https://docs.slack.dev/reference/views/modal-views,
 * https://api.slack.com/changelog/2018-04-truncating-really-long-messages (message `text`).
 */
import {
  type CheckContext,
  charCount,
  checkArray,
  checkElement,
  checkId,
  checkString,
  checkText,
  isObject,
  newCheckContext,
} from './block-kit-checks.js';

export type BlockKitSurface = 'message' | 'modal' | 'home';

export const LIMITS = {
  messageBlocks: 50,
  viewBlocks: 100,
  /**
   * Slack truncates `text` past 40,000 characters and splits messages past 4,000; the fake treats
   * anything over 4,000 as a mistake because a split or cut message is not what the app meant.
   */
  messageText: 4000,
  sectionText: 3000,
  sectionFields: 10,
  // The docs say 2000 per field, not the 3000 of a section's text.
  sectionFieldText: 2000,
  headerText: 150,
  markdownText: 12000,
  modalTitle: 24,
  modalButton: 24,
  privateMetadata: 3000,
  callbackId: 255,
} as const;

function checkBlock(ctx: CheckContext, path: string, block: unknown): void {
  if (!isObject(block) || typeof block.type !== 'string') {
    ctx.errors.push(`${path}: must be a block object with a "type"`);
    return;
  }
  checkId(ctx, 'block_id', `${path}/block_id`, block.block_id);
  switch (block.type) {
    case 'section':
      if (block.text === undefined && block.fields === undefined) {
        ctx.errors.push(`${path}: a section needs "text" or "fields"`);
      }
      checkText(ctx, `${path}/text`, block.text, LIMITS.sectionText);
      checkArray(ctx, `${path}/fields`, block.fields, LIMITS.sectionFields).forEach((f, i) => {
        checkText(ctx, `${path}/fields/${i}`, f, LIMITS.sectionFieldText, { required: true });
      });
      if (block.accessory !== undefined) checkElement(ctx, `${path}/accessory`, block.accessory);
      break;
    case 'header':
      checkText(ctx, `${path}/text`, block.text, LIMITS.headerText, { required: true, plainOnly: true });
      break;
    case 'context':
      checkArray(ctx, `${path}/elements`, block.elements, 10, true).forEach((el, i) => {
        if (isObject(el) && el.type === 'image') checkElement(ctx, `${path}/elements/${i}`, el);
        else checkText(ctx, `${path}/elements/${i}`, el, 3000, { required: true });
      });
      break;
    case 'actions':
      checkArray(ctx, `${path}/elements`, block.elements, 25, true).forEach((el, i) => {
        checkElement(ctx, `${path}/elements/${i}`, el);
      });
      break;
    case 'input':
      checkText(ctx, `${path}/label`, block.label, 2000, { required: true, plainOnly: true });
      checkText(ctx, `${path}/hint`, block.hint, 2000, { plainOnly: true });
      checkElement(ctx, `${path}/element`, block.element);
      break;
    case 'image':
      checkString(ctx, `${path}/alt_text`, block.alt_text, 2000, true);
      if (block.image_url === undefined && !isObject(block.slack_file))
        ctx.errors.push(`${path}: an image block needs "image_url" or "slack_file"`);
      checkString(ctx, `${path}/image_url`, block.image_url, 3000);
      checkText(ctx, `${path}/title`, block.title, 2000, { plainOnly: true });
      break;
    case 'data_visualization': // Slack's chart block (title at most 50 characters)
      checkString(ctx, `${path}/title`, block.title, 50, true);
      if (!isObject(block.chart)) ctx.errors.push(`${path}/chart: is required`);
      break;
    case 'markdown':
      checkString(ctx, `${path}/text`, block.text, LIMITS.markdownText, true);
      break;
  }
}

function checkBlocks(ctx: CheckContext, blocks: unknown, max: number, required: boolean): readonly unknown[] {
  const list = checkArray(ctx, '/blocks', blocks, max, required);
  list.forEach((b, i) => {
    checkBlock(ctx, `/blocks/${i}`, b);
  });
  return list;
}

function checkMessage(ctx: CheckContext, payload: Record<string, unknown>): void {
  const { text, blocks, attachments } = payload;
  if (text !== undefined && typeof text !== 'string') ctx.errors.push('/text: must be a string');
  if (typeof text === 'string' && charCount(text) > LIMITS.messageText) {
    ctx.errors.push(`/text: ${charCount(text)} characters, the limit is ${LIMITS.messageText}`);
  }
  checkBlocks(ctx, blocks, LIMITS.messageBlocks, false);
  const hasBlocks = Array.isArray(blocks) && blocks.length > 0;
  if (!hasBlocks && attachments === undefined && (typeof text !== 'string' || text.length === 0)) {
    ctx.errors.push('/text: a message needs text, blocks or attachments');
  }
}

function checkView(ctx: CheckContext, kind: 'modal' | 'home', view: Record<string, unknown>): void {
  if (view.type !== kind) ctx.errors.push(`/type: must be "${kind}"`);
  const blocks = checkBlocks(ctx, view.blocks, LIMITS.viewBlocks, true);
  checkString(ctx, '/private_metadata', view.private_metadata, LIMITS.privateMetadata);
  checkString(ctx, '/callback_id', view.callback_id, LIMITS.callbackId);
  checkString(ctx, '/external_id', view.external_id, 255);
  if (kind === 'home') return;
  const opts = { plainOnly: true } as const;
  checkText(ctx, '/title', view.title, LIMITS.modalTitle, { ...opts, required: true });
  checkText(ctx, '/submit', view.submit, LIMITS.modalButton, opts);
  checkText(ctx, '/close', view.close, LIMITS.modalButton, opts);
  const hasInput = blocks.some((b) => isObject(b) && b.type === 'input');
  if (hasInput && view.submit === undefined) {
    ctx.errors.push('/submit: is required when the view has an input block');
  }
}

/**
 * Every way `payload` breaks Slack's limits for the given surface, as readable strings with
 * JSON-pointer paths (`/blocks/3/text/text: 3001 characters, the limit is 3000`); empty when valid.
 * For a message, `payload` holds `text` and `blocks`; for a view, it is the view object.
 */
export function checkBlockKitLimits(
  kind: BlockKitSurface,
  payload: unknown,
  /** Block types this workspace refuses (a workspace without the chart blocks). */
  refused: ReadonlySet<string> = new Set(),
): string[] {
  const ctx = newCheckContext();
  if (!isObject(payload)) return [`/: the ${kind} payload must be an object`];
  if (kind === 'message') checkMessage(ctx, payload);
  else checkView(ctx, kind, payload);
  const blocks = Array.isArray(payload.blocks) ? (payload.blocks as unknown[]) : [];
  blocks.forEach((b, i) => {
    if (isObject(b) && typeof b.type === 'string' && refused.has(b.type))
      ctx.errors.push(`/blocks/${i}: the block type "${b.type}" is not available in this workspace`);
  });
  return ctx.errors;
}
