// Modals: the top view of the person's stack, its field errors, and submitting it.
import { $, api, attempt, esc, ui } from './ui.js';
import { checkBeforeSending, collectValues, restoreValues, typedValues } from './values.js';

/** @param {any} modal */
function modalHtml(modal) {
  const back =
    modal.depth > 1 ? '<button type="button" class="icon-button" data-close="top" aria-label="Back">‹</button>' : '';
  const depth = modal.depth > 1 ? ` <span class="modal-depth">(${modal.depth} views stacked)</span>` : '';
  const submit = modal.submit
    ? `<button type="submit" class="btn btn-primary" form="modal-form">${esc(modal.submit)}</button>`
    : '';
  return `<div class="modal" role="dialog" aria-modal="true" aria-labelledby="modal-title" data-surface="view" data-view-id="${esc(modal.id)}">
    <header class="modal-header">${back}<h2 id="modal-title">${esc(modal.title)}${depth}</h2>
      <button type="button" class="icon-button" data-close="all" aria-label="Close">×</button></header>
    <div class="modal-banner" role="alert" hidden></div>
    <form id="modal-form" class="modal-body" novalidate>${modal.html}</form>
    <footer class="modal-footer"><button type="button" class="btn" data-close="top">${esc(modal.close)}</button>${submit}</footer>
  </div>`;
}

/** @param {any} modal */
export function renderModal(modal) {
  const layer = $('#modal-layer');
  const shown = $('.modal', layer);
  // Remember what was typed in the view on screen before anything replaces it.
  if (shown) ui.typed.set(shown.getAttribute('data-view-id'), typedValues(layer));
  if (!modal) {
    layer.hidden = true;
    layer.innerHTML = '';
    ui.modalKey = '';
    return;
  }
  const key = `${ui.user}:${modal.id}:${modal.hash}:${modal.depth}`;
  if (key !== ui.modalKey) {
    const seenBefore = ui.typed.has(modal.id);
    layer.innerHTML = modalHtml(modal);
    if (seenBefore) restoreValues(layer, ui.typed.get(modal.id));
    ui.modalKey = key;
    layer.hidden = false;
    const first = $('.modal-body input, .modal-body textarea, .modal-body select', layer);
    if (first && !seenBefore) first.focus();
  }
  const local = ui.clientErrors?.viewId === modal.id ? ui.clientErrors.errors : {};
  showErrors(layer, { ...modal.errors, ...local });
}

/** Field errors under their inputs; errors for blocks the view does not have go in the banner. */
export function showErrors(/** @type {HTMLElement} */ root, /** @type {Record<string, string>} */ errors) {
  const seen = new Set();
  for (const slot of root.querySelectorAll('[data-error-for]')) {
    const blockId = slot.getAttribute('data-error-for') ?? '';
    const message = errors[blockId];
    slot.textContent = message ?? '';
    /** @type {HTMLElement} */ (slot).hidden = !message;
    slot.closest('.bk-block')?.classList.toggle('has-error', Boolean(message));
    if (message) seen.add(blockId);
  }
  const stray = Object.keys(errors).filter((k) => !seen.has(k));
  const banner = $('.modal-banner', root);
  if (!banner) return;
  banner.hidden = stray.length === 0;
  banner.textContent = stray.length
    ? `Rampart returned errors for blocks this view does not have (Slack would refuse them): ${stray.map((k) => `${k}: ${errors[k]}`).join('; ')}`
    : '';
}

export async function submitModal() {
  const modal = $('.modal');
  if (!modal) return;
  const viewId = modal.getAttribute('data-view-id');
  const local = checkBeforeSending(modal);
  ui.clientErrors = Object.keys(local).length > 0 ? { viewId, errors: local } : null;
  if (ui.clientErrors) {
    showErrors($('#modal-layer'), local);
    return;
  }
  const button = $('.modal-footer .btn-primary');
  if (button) button.disabled = true;
  const result = await attempt(() => api('/api/submit', { user: ui.user, viewId, values: collectValues(modal) }));
  if (button) button.disabled = false;
  if (result && ui.state?.modal?.id === viewId) showErrors($('#modal-layer'), result.errors ?? {});
}
