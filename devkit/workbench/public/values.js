// The values of Block Kit controls on the page, in the shapes Slack reports them, and the checks
// the Slack client makes before it sends a submission.
import { $ } from './ui.js';

/**
 * What the person entered, by block/action: an updated view keeps it, and so does a view that
 * comes back when the one pushed over it closes (Slack keeps both).
 * @param {ParentNode} root
 */
export function typedValues(root) {
  /** @type {Map<string, unknown>} */
  const map = new Map();
  for (const el of root.querySelectorAll('[data-input]')) {
    map.set(`${el.getAttribute('data-block-id')}/${el.getAttribute('data-action-id')}`, controlValue(el));
  }
  return map;
}

/** Puts a value from controlValue() back into its control. @param {Element} el @param {unknown} value */
export function setControlValue(el, value) {
  const type = el.getAttribute('data-type') ?? '';
  const control = /** @type {any} */ (el);
  if (type === 'file_input') {
    const files = /** @type {any} */ (value)?.files;
    if (Array.isArray(files) && files.length > 0) el.setAttribute('data-picked', JSON.stringify(files));
  } else if (type === 'checkboxes' || type === 'radio_buttons') {
    const picked = Array.isArray(value) ? value : [value];
    for (const box of el.querySelectorAll('input')) box.checked = picked.includes(box.value);
  } else if (type === 'external_select') {
    const option = /** @type {any} */ (value)?.selected_option;
    if (option) el.setAttribute('data-selected', JSON.stringify(option));
    else el.removeAttribute('data-selected');
    $('.bk-external-query', el).value = option?.text?.text ?? '';
  } else if (control.multiple && Array.isArray(value)) {
    for (const o of control.options) o.selected = value.includes(o.value);
  } else if (typeof value === 'string' || value === null) {
    control.value = value ?? '';
  }
}

/** @param {ParentNode} root @param {Map<string, unknown>} values */
export function restoreValues(root, values) {
  for (const el of root.querySelectorAll('[data-input]')) {
    const key = `${el.getAttribute('data-block-id')}/${el.getAttribute('data-action-id')}`;
    if (values.has(key)) setControlValue(el, values.get(key));
  }
}

/** What Slack would report for one control, in the shape the driver takes. @param {Element} el */
export function controlValue(el) {
  const type = el.getAttribute('data-type') ?? '';
  const control = /** @type {any} */ (el);
  switch (type) {
    case 'checkboxes':
      return [...el.querySelectorAll('input:checked')].map((i) => /** @type {HTMLInputElement} */ (i).value);
    case 'radio_buttons': {
      const checked = /** @type {HTMLInputElement | null} */ (el.querySelector('input:checked'));
      return checked ? checked.value : null;
    }
    case 'external_select': {
      const selected = el.getAttribute('data-selected');
      return { type, selected_option: selected ? JSON.parse(selected) : null };
    }
    case 'file_input':
      return { type, files: JSON.parse(el.getAttribute('data-picked') || '[]') };
    case 'datetimepicker':
      return { type, selected_date_time: control.value ? Math.floor(new Date(control.value).getTime() / 1000) : null };
    default:
      if (control.multiple) return [...control.selectedOptions].map((/** @type {HTMLOptionElement} */ o) => o.value);
      return control.value === '' ? null : control.value;
  }
}

/** @param {ParentNode} root */
export function collectValues(root) {
  /** @type {Record<string, unknown>} */
  const values = {};
  for (const el of root.querySelectorAll('[data-input]')) {
    const actionId = el.getAttribute('data-action-id');
    if (actionId) values[actionId] = controlValue(el);
  }
  return values;
}

/** @param {unknown} value */
const isEmpty = (value) =>
  value === null ||
  value === '' ||
  (Array.isArray(value) && value.length === 0) ||
  (typeof value === 'object' &&
    Object.entries(value).every(([k, v]) => k === 'type' || v === null || (Array.isArray(v) && v.length === 0)));

/**
 * The checks Slack makes in the client before it sends a submission at all: required inputs,
 * text lengths, numbers. @param {ParentNode} root @returns {Record<string, string>}
 */
export function checkBeforeSending(root) {
  /** @type {Record<string, string>} */
  const errors = {};
  for (const block of root.querySelectorAll('.bk-input[data-block-id]')) {
    const el = block.querySelector('[data-input]');
    if (!el) continue;
    const blockId = block.getAttribute('data-block-id') ?? '';
    const value = controlValue(el);
    const control = /** @type {any} */ (el);
    if (isEmpty(value)) {
      if (block.hasAttribute('data-required')) errors[blockId] = 'Please complete this required field.';
      continue;
    }
    if (typeof value !== 'string') continue;
    if (control.minLength > 0 && value.length < control.minLength) {
      errors[blockId] = `Please enter at least ${control.minLength} characters.`;
    }
    if (el.getAttribute('data-type') === 'number_input') {
      const decimal = el.getAttribute('inputmode') === 'decimal';
      const n = Number(value);
      const min = el.getAttribute('data-min');
      const max = el.getAttribute('data-max');
      if (!(decimal ? /^-?\d+(\.\d+)?$/ : /^-?\d+$/).test(value.trim())) {
        errors[blockId] = decimal ? 'Please enter a number.' : 'Please enter a whole number.';
      } else if ((min !== null && n < Number(min)) || (max !== null && n > Number(max))) {
        errors[blockId] = `Please enter a number from ${min ?? '…'} to ${max ?? '…'}.`;
      }
    }
  }
  return errors;
}
