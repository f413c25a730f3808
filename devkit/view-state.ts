/**
 * Builds what Slack reports for interactive elements: `view.state.values` of a modal and the
 * `actions[0]` of a click, in the per-element shapes of
 * https://docs.slack.dev/reference/interaction-payloads/view-interactions-payload#view_submission.
 */
import type { JsonObject } from './fake-slack/types.js';

/** What a user typed or picked: text, option value(s), date, user id…, or a raw state value. */
export type UserInput = string | readonly string[] | null | JsonObject;

export interface FoundElement {
  blockId: string;
  element: JsonObject;
}

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every interactive element of the blocks, with its block's id. */
export function interactiveElements(blocks: readonly unknown[]): FoundElement[] {
  const found: FoundElement[] = [];
  for (const block of blocks) {
    if (!isObject(block)) continue;
    const blockId = typeof block.block_id === 'string' ? block.block_id : '';
    const candidates = [block.element, block.accessory, ...(Array.isArray(block.elements) ? block.elements : [])];
    for (const element of candidates) {
      if (isObject(element) && typeof element.action_id === 'string') found.push({ blockId, element });
    }
  }
  return found;
}

export function findElement(blocks: readonly unknown[], actionId: string, blockId?: string): FoundElement | undefined {
  return interactiveElements(blocks).find(
    (f) => f.element.action_id === actionId && (blockId === undefined || f.blockId === blockId),
  );
}

function allOptions(element: JsonObject): JsonObject[] {
  const direct = Array.isArray(element.options) ? element.options : [];
  const grouped = Array.isArray(element.option_groups)
    ? element.option_groups.flatMap((g: unknown) => (isObject(g) && Array.isArray(g.options) ? g.options : []))
    : [];
  return [...direct, ...grouped].filter(isObject);
}

/** The option object Slack reports for a picked value; external selects echo the value as text. */
export function optionFor(element: JsonObject, value: string): JsonObject {
  const option = allOptions(element).find((o) => o.value === value);
  return option ?? { text: { type: 'plain_text', text: value, emoji: true }, value };
}

const single = (input: UserInput | undefined): string | null => (typeof input === 'string' ? input : null);
const many = (input: UserInput | undefined): string[] =>
  typeof input === 'string' ? [input] : Array.isArray(input) ? [...input] : [];

/** The state value of one element given the user's input (undefined: left empty). */
export function stateValueFor(element: JsonObject, input: UserInput | undefined): JsonObject {
  if (isObject(input)) return input;
  const type = String(element.type);
  const one = single(input);
  switch (type) {
    case 'static_select':
    case 'external_select':
    case 'radio_buttons':
    case 'overflow':
      return { type, selected_option: one === null ? null : optionFor(element, one) };
    case 'multi_static_select':
    case 'multi_external_select':
    case 'checkboxes':
      return { type, selected_options: many(input).map((v) => optionFor(element, v)) };
    case 'datepicker':
      return { type, selected_date: one };
    case 'timepicker':
      return { type, selected_time: one };
    case 'users_select':
      return { type, selected_user: one };
    case 'multi_users_select':
      return { type, selected_users: many(input) };
    case 'conversations_select':
      return { type, selected_conversation: one };
    case 'channels_select':
      return { type, selected_channel: one };
    default:
      return { type, value: one };
  }
}

/** The `actions[0]` Slack sends for a click on a button (its value) or a pick in another element. */
export function actionFor(element: JsonObject, blockId: string, input: UserInput | undefined, actionTs: string) {
  const picked =
    element.type === 'button'
      ? { type: 'button', text: element.text, value: input ?? element.value }
      : stateValueFor(element, input);
  return { action_id: String(element.action_id), block_id: blockId, action_ts: actionTs, ...picked };
}

/**
 * `state.values` for a view: every input block's element (empty unless given), plus any other
 * element given a value. `values` is keyed by action_id; an unknown key throws, to catch typos.
 */
export function viewStateValues(
  blocks: readonly unknown[],
  values: Readonly<Record<string, UserInput>>,
): Record<string, Record<string, JsonObject>> {
  const elements = interactiveElements(blocks);
  for (const actionId of Object.keys(values)) {
    if (!elements.some((f) => f.element.action_id === actionId)) {
      const known = elements.map((f) => String(f.element.action_id)).join(', ');
      throw new Error(`the view has no element with action_id "${actionId}" (it has: ${known || 'none'})`);
    }
  }
  const state: Record<string, Record<string, JsonObject>> = {};
  for (const block of blocks) {
    if (!isObject(block)) continue;
    for (const { blockId, element } of interactiveElements([block])) {
      const actionId = String(element.action_id);
      const given = Object.hasOwn(values, actionId);
      if (block.type !== 'input' && !given) continue;
      const input = given ? values[actionId] : initialInput(element);
      state[blockId] = { ...state[blockId], [actionId]: stateValueFor(element, input) };
    }
  }
  return state;
}

/** What an element holds before the user touches it: Slack submits initial values as typed. */
export function initialInput(element: JsonObject): UserInput | undefined {
  if (typeof element.initial_value === 'string') return element.initial_value;
  if (isObject(element.initial_option) && typeof element.initial_option.value === 'string')
    return element.initial_option.value;
  if (Array.isArray(element.initial_options)) {
    return element.initial_options.filter(isObject).map((o) => String(o.value));
  }
  for (const key of ['initial_date', 'initial_time', 'initial_user', 'initial_conversation', 'initial_channel']) {
    if (typeof element[key] === 'string') return element[key] as string;
  }
  if (Array.isArray(element.initial_users)) return element.initial_users.map(String);
  return undefined;
}
