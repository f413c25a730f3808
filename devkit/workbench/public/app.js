// The workbench page: shows what the server renders (GET /api/state), and turns what the
// person does into POST /api/* calls that the server plays to Rampart as Slack would.
// No framework and nothing from a CDN; Server-Sent Events say when to fetch the state again.
import {
  closeOverflows,
  dispatchAction,
  pickOverflow,
  pickSuggestion,
  pressButton,
  suggest,
  suggestTimers,
  toggleOverflow,
} from './actions.js';
import { submitModal } from './modal.js';
import { $, api, attempt, esc, onSettled, ui } from './ui.js';
import { controlValue } from './values.js';
import { render } from './view.js';

async function refresh() {
  const mine = ++ui.fetches;
  const res = await fetch(`/api/state?user=${encodeURIComponent(ui.user)}`);
  if (!res.ok) return;
  const state = await res.json();
  // A slower, older answer must not overwrite a newer one.
  if (mine !== ui.fetches) return;
  ui.state = state;
  render();
}

const refreshSoon = () => {
  refresh().catch((err) => console.error(err));
};

onSettled(refreshSoon);

// ---------------------------------------------------------------- composer

/** @param {string} text */
function showCommandSuggestions(text) {
  const list = $('#command-suggestions');
  const commands = ui.state?.commands ?? [];
  const word = text.trimStart();
  const matches =
    word.startsWith('/') && !/\s/.test(word)
      ? commands.filter((/** @type {any} */ c) => c.command.startsWith(word))
      : [];
  list.hidden = matches.length === 0;
  list.innerHTML = matches
    .map(
      (/** @type {any} */ c) =>
        `<li><button type="button" data-command="${esc(c.command)}"><b>${esc(c.command)}</b><span class="command-usage">${esc(c.usageHint)}</span><br><span class="command-usage">${esc(c.description)}</span></button></li>`,
    )
    .join('');
}

async function sendCommand() {
  const input = /** @type {HTMLTextAreaElement} */ ($('#composer-input'));
  const text = input.value.trim();
  if (!text) return;
  $('#command-suggestions').hidden = true;
  const sent = await attempt(() => api('/api/command', { user: ui.user, channel: ui.channel, text }));
  if (sent) input.value = '';
}

// ---------------------------------------------------------------- wiring

/** @param {'channel' | 'home' | 'dm'} page @param {string} [channel] */
function openPage(page, channel) {
  if (page !== ui.page) ui.thread = null;
  ui.page = page;
  showNav(false);
  if (channel) {
    if (channel !== ui.channel) ui.thread = null;
    ui.channel = channel;
    localStorage.setItem('rampart.workbench.channel', channel);
  }
  render();
  if (page === 'home') void attempt(() => api('/api/home', { user: ui.user }));
}

/** Narrow screens: the sidebar slides over the page and hides again. */
function showNav(/** @type {boolean} */ open) {
  $('.app').classList.toggle('nav-open', open);
  $('#nav-toggle').setAttribute('aria-expanded', String(open));
}

/**
 * A permalink from the fake Slack (`https://<team>.slack.local/archives/C…/p…`) opens its message
 * here, as Slack opens a permalink in the app: the channel, and the thread for a reply.
 * @param {HTMLAnchorElement} link @returns {boolean} whether it was one
 */
function openPermalink(link) {
  const url = new URL(link.href);
  const m = /^\/archives\/([A-Z0-9]+)\/p(\d+)(\d{6})$/.exec(url.pathname);
  if (!url.hostname.endsWith('.slack.local') || !m) return false;
  const [, channel = '', seconds, micros] = m;
  openPage('channel', channel);
  ui.thread = { channel, ts: url.searchParams.get('thread_ts') ?? `${seconds}.${micros}` };
  render();
  return true;
}

document.addEventListener('click', (e) => {
  const target = /** @type {HTMLElement} */ (e.target);
  const link = /** @type {HTMLAnchorElement | null} */ (target.closest('a.mk-link'));
  if (link && openPermalink(link)) {
    e.preventDefault();
    return;
  }
  if (target.closest('#nav-toggle')) {
    showNav(!$('.app').classList.contains('nav-open'));
    return;
  }
  const channel = target.closest('[data-channel].nav-item');
  if (channel) {
    openPage('channel', channel.getAttribute('data-channel') ?? undefined);
    return;
  }
  if (target.closest('#nav-home')) {
    openPage('home');
    return;
  }
  if (target.closest('#nav-dm')) {
    openPage('dm');
    return;
  }
  const thread = target.closest('[data-open-thread]');
  if (thread) {
    ui.thread = {
      channel: thread.getAttribute('data-channel') ?? '',
      ts: thread.getAttribute('data-open-thread') ?? '',
    };
    render();
    return;
  }
  if (target.closest('#thread-close')) {
    ui.thread = null;
    render();
    return;
  }
  const close = target.closest('[data-close]');
  if (close) {
    const viewId = close.closest('[data-view-id]')?.getAttribute('data-view-id');
    void attempt(() => api('/api/close', { user: ui.user, viewId, all: close.getAttribute('data-close') === 'all' }));
    return;
  }
  const command = target.closest('[data-command]');
  if (command) {
    const input = $('#composer-input');
    input.value = `${command.getAttribute('data-command')} `;
    $('#command-suggestions').hidden = true;
    input.focus();
    return;
  }
  const suggestion = target.closest('[data-suggestion]');
  if (suggestion) {
    const box = suggestion.closest('.bk-external');
    if (box) void pickSuggestion(box, Number(suggestion.getAttribute('data-suggestion')));
    return;
  }
  const button = target.closest('button[data-type="button"]');
  if (button) {
    void pressButton(button);
    return;
  }
  const item = target.closest('[data-overflow-value]');
  if (item) {
    void pickOverflow(item);
    return;
  }
  const overflow = target.closest('.bk-overflow-button');
  if (overflow) toggleOverflow(overflow.parentElement);
  else closeOverflows();
});

/**
 * A file picked in a file_input goes to the fake Slack first, as Slack stores it before the form
 * is sent; the value it answers with is what the submission carries.
 * @param {HTMLInputElement} input
 */
async function pickFile(input) {
  const file = input.files?.[0];
  input.removeAttribute('data-picked');
  if (!file) return;
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  await attempt(async () => {
    const picked = await api('/api/pick-file', { user: ui.user, name: file.name, content: btoa(binary) });
    input.setAttribute('data-picked', JSON.stringify(picked.files));
  });
}

document.addEventListener('change', (e) => {
  const target = /** @type {HTMLElement} */ (e.target);
  if (target.id === 'whoami') {
    ui.user = /** @type {HTMLSelectElement} */ (target).value;
    localStorage.setItem('rampart.workbench.user', ui.user);
    ui.modalKey = '';
    refreshSoon();
    if (ui.page === 'home') void attempt(() => api('/api/home', { user: ui.user }));
    return;
  }
  if (target.getAttribute('data-type') === 'file_input') {
    void pickFile(/** @type {HTMLInputElement} */ (target));
    return;
  }
  const control = target.closest('[data-dispatch]');
  if (!control || control.getAttribute('data-type') === 'button' || control.classList.contains('bk-external')) return;
  void dispatchAction(control, controlValue(control));
});

document.addEventListener('input', (e) => {
  const target = /** @type {HTMLElement} */ (e.target);
  if (target.id === 'composer-input') {
    showCommandSuggestions(/** @type {HTMLTextAreaElement} */ (target).value);
    return;
  }
  const box = target.closest('.bk-external');
  if (!box) return;
  box.removeAttribute('data-selected');
  clearTimeout(suggestTimers.get(box));
  suggestTimers.set(
    box,
    setTimeout(() => suggest(/** @type {HTMLElement} */ (box)), 250),
  );
});

document.addEventListener('focusin', (e) => {
  const box = /** @type {HTMLElement} */ (e.target).closest('.bk-external');
  if (box && box.getAttribute('data-min-query-length') === '0') void suggest(/** @type {HTMLElement} */ (box));
});

document.addEventListener('submit', (e) => {
  e.preventDefault();
  const form = /** @type {HTMLElement} */ (e.target);
  if (form.id === 'composer') void sendCommand();
  else if (form.id === 'modal-form') void submitModal();
});

document.addEventListener('keydown', (e) => {
  const target = /** @type {HTMLElement} */ (e.target);
  if (target.id === 'composer-input' && e.key === 'Enter' && !e.shiftKey) {
    e.preventDefault();
    void sendCommand();
  } else if (target.id === 'composer-input' && e.key === 'Tab') {
    const first = $('#command-suggestions [data-command]');
    if (first && !$('#command-suggestions').hidden) {
      e.preventDefault();
      first.click();
    }
  } else if (e.key === 'Escape' && document.querySelector('.bk-overflow-menu:not([hidden])')) {
    closeOverflows();
  } else if (e.key === 'Escape' && ui.state?.modal && $('#confirm-layer').hidden) {
    void attempt(() => api('/api/close', { user: ui.user, viewId: ui.state.modal.id, all: true }));
  }
});

const events = new EventSource('/api/events');
events.onmessage = refreshSoon;
events.onopen = refreshSoon;
// A safety net should the event stream be interrupted.
setInterval(refreshSoon, 10_000);
refreshSoon();
