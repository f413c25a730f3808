/**
 * Slack stores blocks with every `block_id` and `action_id` filled in, generating the ones the app
 * left out, and sends those back in interaction payloads; the fake does the same.
 */
import type { IdSource } from './ids.js';
import type { JsonObject } from './types.js';

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

function fillElement(element: unknown, ids: IdSource): unknown {
  if (!isObject(element) || element.type === 'image' || typeof element.text === 'string') return element;
  return element.action_id === undefined ? { ...element, action_id: ids.shortId() } : element;
}

export function fillBlockIds(blocks: unknown, ids: IdSource): JsonObject[] {
  if (!Array.isArray(blocks)) return [];
  return blocks.filter(isObject).map((original) => {
    const block: JsonObject = structuredClone(original);
    if (block.block_id === undefined) block.block_id = ids.shortId();
    if (block.type === 'actions' && Array.isArray(block.elements)) {
      block.elements = block.elements.map((el) => fillElement(el, ids));
    }
    if (block.accessory !== undefined) block.accessory = fillElement(block.accessory, ids);
    if (block.type === 'input' && block.element !== undefined) block.element = fillElement(block.element, ids);
    return block;
  });
}
