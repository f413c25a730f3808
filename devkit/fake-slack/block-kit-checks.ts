/**
 * Checks for the parts blocks are made of: text objects, interactive elements, options and
 * confirm dialogs. Limits are Slack's documented ones
 * (https://docs.slack.dev/reference/block-kit/block-elements,
 * https://docs.slack.dev/reference/block-kit/composition-objects).
 */

/** Collects errors and the ids seen so far in one message or view (ids must be unique there). */
export interface CheckContext {
  errors: string[];
  blockIds: Set<string>;
  actionIds: Set<string>;
}

export const newCheckContext = (): CheckContext => ({ errors: [], blockIds: new Set(), actionIds: new Set() });

type Obj = Record<string, unknown>;

export const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Slack counts characters, not UTF-16 code units; counting code points avoids false alarms on emoji. */
export const charCount = (s: string): number => [...s].length;

export function checkString(ctx: CheckContext, path: string, value: unknown, max: number, required = false): void {
  if (value === undefined || value === null) {
    if (required) ctx.errors.push(`${path}: is required`);
    return;
  }
  if (typeof value !== 'string') {
    ctx.errors.push(`${path}: must be a string`);
    return;
  }
  const length = charCount(value);
  if (length > max) ctx.errors.push(`${path}: ${length} characters, the limit is ${max}`);
}

export function checkText(
  ctx: CheckContext,
  path: string,
  value: unknown,
  max: number,
  options: { required?: boolean; plainOnly?: boolean } = {},
): void {
  if (value === undefined || value === null) {
    if (options.required) ctx.errors.push(`${path}: is required`);
    return;
  }
  if (!isObject(value) || typeof value.text !== 'string') {
    ctx.errors.push(`${path}: must be a text object with a "text" string`);
    return;
  }
  if (value.type !== 'plain_text' && (options.plainOnly || value.type !== 'mrkdwn')) {
    ctx.errors.push(`${path}/type: must be ${options.plainOnly ? 'plain_text' : 'plain_text or mrkdwn'}`);
  }
  if (value.text.length === 0) ctx.errors.push(`${path}/text: must not be empty`);
  checkString(ctx, `${path}/text`, value.text, max);
}

export function checkId(ctx: CheckContext, kind: 'block_id' | 'action_id', path: string, value: unknown): void {
  if (value === undefined) return;
  checkString(ctx, path, value, 255);
  if (typeof value !== 'string') return;
  const seen = kind === 'block_id' ? ctx.blockIds : ctx.actionIds;
  if (seen.has(value)) ctx.errors.push(`${path}: duplicate ${kind} "${value}"`);
  seen.add(value);
}

export function checkArray(
  ctx: CheckContext,
  path: string,
  value: unknown,
  max: number,
  required = false,
): readonly unknown[] {
  if (value === undefined) {
    if (required) ctx.errors.push(`${path}: is required`);
    return [];
  }
  if (!Array.isArray(value)) {
    ctx.errors.push(`${path}: must be an array`);
    return [];
  }
  if (value.length > max) ctx.errors.push(`${path}: ${value.length} items, the limit is ${max}`);
  return value;
}

function checkConfirm(ctx: CheckContext, path: string, confirm: unknown): void {
  if (confirm === undefined) return;
  if (!isObject(confirm)) {
    ctx.errors.push(`${path}: must be an object`);
    return;
  }
  checkText(ctx, `${path}/title`, confirm.title, 100, { required: true, plainOnly: true });
  checkText(ctx, `${path}/text`, confirm.text, 300, { required: true });
  checkText(ctx, `${path}/confirm`, confirm.confirm, 30, { required: true, plainOnly: true });
  checkText(ctx, `${path}/deny`, confirm.deny, 30, { required: true, plainOnly: true });
}

export function checkOption(ctx: CheckContext, path: string, option: unknown): void {
  if (!isObject(option)) {
    ctx.errors.push(`${path}: must be an option object`);
    return;
  }
  checkText(ctx, `${path}/text`, option.text, 75, { required: true });
  checkString(ctx, `${path}/value`, option.value, 150);
  checkText(ctx, `${path}/description`, option.description, 75, { plainOnly: true });
  checkString(ctx, `${path}/url`, option.url, 3000);
}

// Maximum options per element type; select menus also take up to 100 option groups.
const MAX_OPTIONS: Record<string, number> = {
  static_select: 100,
  multi_static_select: 100,
  overflow: 5,
  radio_buttons: 10,
  checkboxes: 10,
};

function checkOptions(ctx: CheckContext, path: string, el: Obj, max: number): void {
  checkArray(ctx, `${path}/options`, el.options, max).forEach((o, i) => {
    checkOption(ctx, `${path}/options/${i}`, o);
  });
  checkArray(ctx, `${path}/option_groups`, el.option_groups, 100).forEach((g, i) => {
    const groupPath = `${path}/option_groups/${i}`;
    if (!isObject(g)) {
      ctx.errors.push(`${groupPath}: must be an object`);
      return;
    }
    checkText(ctx, `${groupPath}/label`, g.label, 75, { required: true, plainOnly: true });
    checkArray(ctx, `${groupPath}/options`, g.options, 100, true).forEach((o, j) => {
      checkOption(ctx, `${groupPath}/options/${j}`, o);
    });
  });
}

export function checkElement(ctx: CheckContext, path: string, el: unknown): void {
  if (!isObject(el) || typeof el.type !== 'string') {
    ctx.errors.push(`${path}: must be an element object with a "type"`);
    return;
  }
  checkId(ctx, 'action_id', `${path}/action_id`, el.action_id);
  checkConfirm(ctx, `${path}/confirm`, el.confirm);
  checkText(ctx, `${path}/placeholder`, el.placeholder, 150, { plainOnly: true });
  if (el.initial_option !== undefined) checkOption(ctx, `${path}/initial_option`, el.initial_option);
  const maxOptions = MAX_OPTIONS[el.type];
  if (maxOptions !== undefined) checkOptions(ctx, path, el, maxOptions);
  switch (el.type) {
    case 'button':
      checkText(ctx, `${path}/text`, el.text, 75, { required: true, plainOnly: true });
      checkString(ctx, `${path}/value`, el.value, 2000);
      checkString(ctx, `${path}/url`, el.url, 3000);
      checkString(ctx, `${path}/accessibility_label`, el.accessibility_label, 75);
      if (el.style !== undefined && el.style !== 'primary' && el.style !== 'danger') {
        ctx.errors.push(`${path}/style: must be "primary" or "danger"`);
      }
      break;
    case 'plain_text_input':
      for (const key of ['min_length', 'max_length'] as const) {
        const n = el[key];
        if (n !== undefined && (typeof n !== 'number' || n < 0 || n > 3000)) {
          ctx.errors.push(`${path}/${key}: must be a number from 0 to 3000`);
        }
      }
      break;
    case 'image':
      checkString(ctx, `${path}/alt_text`, el.alt_text, 2000, true);
      break;
    case 'file_input': {
      // https://docs.slack.dev/reference/block-kit/block-elements/file-input-element
      const max = el.max_files;
      if (max !== undefined && (typeof max !== 'number' || !Number.isInteger(max) || max < 1 || max > 10))
        ctx.errors.push(`${path}/max_files: must be a whole number from 1 to 10`);
      const types = el.filetypes;
      if (types !== undefined && (!Array.isArray(types) || types.some((t) => typeof t !== 'string')))
        ctx.errors.push(`${path}/filetypes: must be an array of file extensions`);
      break;
    }
  }
}
