// What a person does to Block Kit controls: buttons (with Slack's confirm dialog), picks in
// selects, and external selects asking for options; each becomes a POST /api/* call.
import { localizeDates } from './dates.js';
import { $, api, attempt, esc, toast, ui } from './ui.js';
import { collectValues } from './values.js';

/** Slack's confirmation dialog for a button with `confirm`. @param {any} c @returns {Promise<boolean>} */
function confirmDialog(c) {
  const layer = $('#confirm-layer');
  const style = c.style === 'danger' ? 'btn-danger' : 'btn-primary';
  layer.innerHTML = `<div class="confirm" role="alertdialog" aria-modal="true" aria-labelledby="confirm-title">
    <h2 id="confirm-title">${esc(c.title)}</h2>
    <div class="confirm-text">${c.html}</div>
    <footer><button type="button" class="btn" data-answer="no">${esc(c.deny)}</button>
    <button type="button" class="btn ${style}" data-answer="yes">${esc(c.confirm)}</button></footer>
  </div>`;
  localizeDates(layer);
  layer.hidden = false;
  $('[data-answer="yes"]', layer).focus();
  return new Promise((resolve) => {
    /** @param {boolean} answer */
    const done = (answer) => {
      layer.hidden = true;
      layer.innerHTML = '';
      document.removeEventListener('keydown', onKey, true);
      resolve(answer);
    };
    /** @param {KeyboardEvent} e */
    const onKey = (e) => {
      if (e.key === 'Escape') done(false);
    };
    document.addEventListener('keydown', onKey, true);
    layer.onclick = (/** @type {MouseEvent} */ e) => {
      const target = /** @type {HTMLElement} */ (e.target);
      const answer = target.closest('[data-answer]')?.getAttribute('data-answer');
      if (answer) done(answer === 'yes');
      else if (target === layer) done(false);
    };
  });
}

/** Sends block_actions for a control in a message, a modal or the App Home. @param {Element} el @param {unknown} value */
export async function dispatchAction(el, value) {
  const surface = el.closest('[data-surface]');
  if (!surface) return;
  /** @type {Record<string, unknown>} */
  const body = {
    user: ui.user,
    actionId: el.getAttribute('data-action-id'),
    blockId: el.getAttribute('data-block-id'),
  };
  if (value !== undefined) body.value = value;
  if (surface.getAttribute('data-surface') === 'message') {
    body.channel = surface.getAttribute('data-channel');
    body.ts = surface.getAttribute('data-ts');
  } else {
    body.viewId = surface.getAttribute('data-view-id');
    body.values = collectValues(surface);
  }
  await attempt(() => api('/api/click', body));
}

/** @param {HTMLButtonElement} button */
export async function pressButton(button) {
  const confirm = button.getAttribute('data-confirm');
  if (confirm && !(await confirmDialog(JSON.parse(confirm)))) return;
  const url = button.getAttribute('data-url');
  if (url) window.open(url, '_blank', 'noopener');
  button.disabled = true;
  try {
    await dispatchAction(button, undefined);
  } finally {
    button.disabled = false;
  }
}

/** @type {Map<Element, ReturnType<typeof setTimeout>>} */
export const suggestTimers = new Map();

/** Asks Rampart for an external select's options (block_suggestion) and lists them. @param {HTMLElement} box */
export async function suggest(box) {
  const surface = box.closest('[data-surface]');
  const list = $('.bk-suggestions', box);
  const query = /** @type {HTMLInputElement} */ ($('.bk-external-query', box)).value;
  if (surface?.getAttribute('data-surface') !== 'view') {
    toast('The workbench offers external select options only in modals and the App Home.', 'error');
    return;
  }
  if (query.length < Number(box.getAttribute('data-min-query-length') ?? 3)) {
    list.hidden = true;
    return;
  }
  const result = await attempt(() =>
    api('/api/suggest', {
      user: ui.user,
      viewId: surface.getAttribute('data-view-id'),
      actionId: box.getAttribute('data-action-id'),
      blockId: box.getAttribute('data-block-id'),
      value: query,
    }),
  );
  if (!result) return;
  /** @type {any[]} */
  const options = result.options ?? [];
  /** @type {any} */ (box).options = options;
  list.innerHTML = options.length
    ? options.map((o, i) => `<li><button type="button" data-suggestion="${i}">${esc(o.label)}</button></li>`).join('')
    : '<li class="none">No matches</li>';
  list.hidden = false;
}

/** @param {HTMLElement} box @param {number} index */
export async function pickSuggestion(box, index) {
  const option = /** @type {any} */ (box).options?.[index];
  if (!option) return;
  box.setAttribute('data-selected', JSON.stringify(option.option));
  /** @type {HTMLInputElement} */ ($('.bk-external-query', box)).value = option.label;
  $('.bk-suggestions', box).hidden = true;
  if (box.hasAttribute('data-dispatch'))
    await dispatchAction(box, { type: 'external_select', selected_option: option.option });
}

/** Opens or closes an overflow menu (Slack's ⋯); one open at a time. @param {HTMLElement} box */
export function toggleOverflow(box) {
  const menu = $('.bk-overflow-menu', box);
  const open = menu.hidden;
  closeOverflows();
  menu.hidden = !open;
  // Opens leftwards from the button, or rightwards when that would leave the screen.
  menu.classList.toggle('from-left', open && menu.getBoundingClientRect().left < 0);
  $('.bk-overflow-button', box).setAttribute('aria-expanded', String(open));
  if (open) $('[role="menuitem"]', menu)?.focus();
}

export function closeOverflows() {
  for (const menu of document.querySelectorAll('.bk-overflow-menu:not([hidden])')) {
    /** @type {HTMLElement} */ (menu).hidden = true;
    menu.parentElement?.querySelector('.bk-overflow-button')?.setAttribute('aria-expanded', 'false');
  }
}

/** A pick in an overflow menu: block_actions with the option, after the element's confirm if any. @param {HTMLElement} item */
export async function pickOverflow(item) {
  const box = item.closest('.bk-overflow');
  closeOverflows();
  if (!box) return;
  const confirm = box.getAttribute('data-confirm');
  if (confirm && !(await confirmDialog(JSON.parse(confirm)))) return;
  const url = item.getAttribute('data-url');
  if (url) window.open(url, '_blank', 'noopener');
  await dispatchAction(box, item.getAttribute('data-overflow-value'));
}
