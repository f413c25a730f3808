// The workbench page: shows what the server renders (GET /api/state), and turns what the
// person does into POST /api/* calls that the server plays to Rampart as Slack would.
// No framework and nothing from a CDN; Server-Sent Events say when to fetch the state again.

/** @param {string} selector @param {ParentNode} [root] @returns {any} */
const $ = (selector, root = document) => root.querySelector(selector);

/** @param {unknown} text */
const esc = (text) =>
  String(text).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

const ui = {
  user: localStorage.getItem('rampart.workbench.user') || 'U0REQUESTER',
  channel: localStorage.getItem('rampart.workbench.channel') || 'C0GENERAL',
  /** @type {'channel' | 'home'} */
  page: 'channel',
  /** @type {{ channel: string, ts: string } | null} */
  thread: null,
  /** @type {any} */
  state: null,
  modalKey: '',
  /** @type {{ viewId: string | null, errors: Record<string, string> } | null} found before sending */
  clientErrors: null,
  /** @type {Map<string | null, Map<string, unknown>>} what was typed, by view id */
  typed: new Map(),
  fetches: 0,
  rendered: { messages: '', thread: '', home: '', people: '', channels: '' },
};

// ---------------------------------------------------------------- talking to the server

/** @param {string} path @param {object} body */
async function api(path, body) {
  const res = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(json.error || `HTTP ${res.status}`);
  if (json.notice) toast(json.notice, 'error');
  return json;
}

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

/** @param {string} message @param {'info' | 'error'} [kind] */
function toast(message, kind = 'info') {
  const el = document.createElement('div');
  el.className = `toast ${kind}`;
  el.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  el.textContent = message;
  el.addEventListener('click', () => el.remove());
  $('#toasts').append(el);
  setTimeout(() => el.remove(), 9000);
}

/** Runs an action, showing its failure as a notice instead of losing it. @param {() => Promise<unknown>} fn */
async function attempt(fn) {
  try {
    return await fn();
  } catch (err) {
    toast(err instanceof Error ? err.message : String(err), 'error');
    return undefined;
  } finally {
    refreshSoon();
  }
}

// ---------------------------------------------------------------- rendering

function render() {
  const s = ui.state;
  if (!s) return;
  renderPeople(s);
  renderChannels(s);
  const channel = s.channels.find((/** @type {any} */ c) => c.id === ui.channel) ?? s.channels[0];
  if (channel) ui.channel = channel.id;
  const onHome = ui.page === 'home';
  $('#messages').hidden = onHome;
  $('#composer').hidden = onHome;
  $('#home').hidden = !onHome;
  $('#nav-home').classList.toggle('active', onHome);
  if (onHome) renderHome(s);
  else if (channel) renderChannel(channel);
  renderThread(s);
  renderModal(s.modal);
  renderProblems(s.problems);
}

/** @param {any} s */
function renderPeople(s) {
  const key = JSON.stringify(s.people);
  if (key !== ui.rendered.people) {
    ui.rendered.people = key;
    $('#whoami').innerHTML = s.people
      .map((/** @type {any} */ p) => `<option value="${esc(p.id)}">${esc(p.real_name)} (${esc(p.role)})</option>`)
      .join('');
  }
  $('#whoami').value = ui.user;
  const me = s.people.find((/** @type {any} */ p) => p.id === ui.user);
  $('#role').textContent = me ? `@${me.name} · ${me.id} · ${me.role}` : '';
}

/** @param {any} s */
function renderChannels(s) {
  const html = s.channels
    .map((/** @type {any} */ c) => {
      const active = ui.page === 'channel' && c.id === ui.channel ? ' active' : '';
      const count = c.messages.length ? `<span class="nav-count">${c.messages.length}</span>` : '';
      return `<li><button type="button" class="nav-item${active}" data-channel="${esc(c.id)}"># ${esc(c.name)}${count}</button></li>`;
    })
    .join('');
  if (html !== ui.rendered.channels) {
    ui.rendered.channels = html;
    $('#channels').innerHTML = html;
  }
}

/** @param {any} m @param {boolean} inThread */
function messageHtml(m, inThread) {
  const n = m.replies.length;
  const replies =
    !inThread && n > 0
      ? `<button type="button" class="replies" data-open-thread="${esc(m.ts)}" data-channel="${esc(m.channel)}">${n} ${n === 1 ? 'reply' : 'replies'}</button>`
      : '';
  return `<article class="msg${m.ephemeral ? ' ephemeral' : ''}" data-surface="message" data-channel="${esc(m.channel)}" data-ts="${esc(m.ts)}">
    <div class="avatar" aria-hidden="true">R</div>
    <div class="msg-body">
      <div class="msg-meta"><span class="author">Rampart</span><span class="app-badge">APP</span><time>${esc(m.time)}</time>${m.edited ? '<span class="edited">(edited)</span>' : ''}</div>
      ${m.ephemeral ? '<div class="only-you">👁 Only visible to you</div>' : ''}
      <div class="blocks">${m.html}</div>
      ${replies}
    </div>
  </article>`;
}

/**
 * Replaces a region's HTML only when it changed; stays at the bottom if it was there (or when
 * `fresh`, e.g. another channel), like a chat.
 * @param {HTMLElement} el @param {string} html @param {'messages' | 'thread' | 'home'} key @param {boolean} fresh
 */
function replace(el, html, key, fresh) {
  if (ui.rendered[key] === html) return;
  const atBottom = fresh || el.scrollHeight - el.scrollTop - el.clientHeight < 40;
  ui.rendered[key] = html;
  el.innerHTML = html;
  if (atBottom) el.scrollTop = el.scrollHeight;
}

/** @param {any} channel */
function renderChannel(channel) {
  $('#title').textContent = `# ${channel.name}`;
  const approvals = channel.id === ui.state.approvalsChannel;
  $('#subtitle').textContent = approvals ? 'Approvals channel: requests wait here for approvers' : 'Team channel';
  $('#composer-input').placeholder = `Message #${channel.name}: type a slash command, e.g. /balance`;
  const html = channel.messages.length
    ? channel.messages.map((/** @type {any} */ m) => messageHtml(m, false)).join('')
    : `<p class="empty">Nothing in #${esc(channel.name)} yet. Type a command below, e.g. <code>/transfer help</code>.</p>`;
  const marker = `<!-- ${esc(ui.user)} ${esc(channel.id)} -->`;
  replace($('#messages'), `${marker}${html}`, 'messages', !ui.rendered.messages.startsWith(marker));
}

/** @param {any} s */
function renderHome(s) {
  $('#title').textContent = 'Rampart';
  $('#subtitle').textContent = 'App Home';
  const me = s.people.find((/** @type {any} */ p) => p.id === ui.user);
  const html = s.home
    ? `<div data-surface="view" data-view-id="${esc(s.home.id)}">${s.home.html}</div>`
    : `<p class="empty">Rampart has not published a Home tab for @${esc(me?.name ?? ui.user)}. The workbench sent <code>app_home_opened</code>; Rampart answered without calling <code>views.publish</code>.</p>`;
  replace($('#home'), html, 'home', false);
}

/** @param {any} s */
function renderThread(s) {
  const pane = $('#thread');
  const t = ui.thread;
  const channel = t && s.channels.find((/** @type {any} */ c) => c.id === t.channel);
  const parent = channel?.messages.find((/** @type {any} */ m) => m.ts === t?.ts);
  if (!t || !parent || ui.page !== 'channel') {
    pane.hidden = true;
    ui.rendered.thread = '';
    return;
  }
  pane.hidden = false;
  $('#thread-channel').textContent = `# ${channel.name}`;
  const n = parent.replies.length;
  const html = `${messageHtml(parent, true)}<div class="thread-divider">${n} ${n === 1 ? 'reply' : 'replies'}</div>${parent.replies
    .map((/** @type {any} */ r) => messageHtml(r, true))
    .join('')}`;
  replace($('#thread-messages'), html, 'thread', ui.rendered.thread === '');
}

/** @param {string[]} problems */
function renderProblems(problems) {
  const panel = $('#problems-panel');
  panel.hidden = problems.length === 0;
  $('#problem-count').textContent = String(problems.length);
  $('#problems').innerHTML = problems.map((p) => `<li>${esc(p)}</li>`).join('');
}

// ---------------------------------------------------------------- modals

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

/**
 * What the person entered, by block/action: an updated view keeps it, and so does a view that
 * comes back when the one pushed over it closes (Slack keeps both).
 * @param {ParentNode} root
 */
function typedValues(root) {
  /** @type {Map<string, unknown>} */
  const map = new Map();
  for (const el of root.querySelectorAll('[data-input]')) {
    map.set(`${el.getAttribute('data-block-id')}/${el.getAttribute('data-action-id')}`, controlValue(el));
  }
  return map;
}

/** Puts a value from controlValue() back into its control. @param {Element} el @param {unknown} value */
function setControlValue(el, value) {
  const type = el.getAttribute('data-type') ?? '';
  const control = /** @type {any} */ (el);
  if (type === 'checkboxes' || type === 'radio_buttons') {
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
function restoreValues(root, values) {
  for (const el of root.querySelectorAll('[data-input]')) {
    const key = `${el.getAttribute('data-block-id')}/${el.getAttribute('data-action-id')}`;
    if (values.has(key)) setControlValue(el, values.get(key));
  }
}

/** @param {any} modal */
function renderModal(modal) {
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
function showErrors(/** @type {HTMLElement} */ root, /** @type {Record<string, string>} */ errors) {
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

/** What Slack would report for one control, in the shape the driver takes. @param {Element} el */
function controlValue(el) {
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
    case 'datetimepicker':
      return { type, selected_date_time: control.value ? Math.floor(new Date(control.value).getTime() / 1000) : null };
    default:
      if (control.multiple) return [...control.selectedOptions].map((/** @type {HTMLOptionElement} */ o) => o.value);
      return control.value === '' ? null : control.value;
  }
}

/** @param {ParentNode} root */
function collectValues(root) {
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
  (typeof value === 'object' && Object.entries(value).every(([k, v]) => k === 'type' || v === null));

/**
 * The checks Slack makes in the client before it sends a submission at all: required inputs,
 * text lengths, numbers. @param {ParentNode} root @returns {Record<string, string>}
 */
function checkBeforeSending(root) {
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

async function submitModal() {
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

// ---------------------------------------------------------------- confirm dialogs

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

// ---------------------------------------------------------------- interactions

/** Sends block_actions for a control in a message, a modal or the App Home. @param {Element} el @param {unknown} value */
async function dispatchAction(el, value) {
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
async function pressButton(button) {
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
const suggestTimers = new Map();

/** Asks Rampart for an external select's options (block_suggestion) and lists them. @param {HTMLElement} box */
async function suggest(box) {
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
async function pickSuggestion(box, index) {
  const option = /** @type {any} */ (box).options?.[index];
  if (!option) return;
  box.setAttribute('data-selected', JSON.stringify(option.option));
  /** @type {HTMLInputElement} */ ($('.bk-external-query', box)).value = option.label;
  $('.bk-suggestions', box).hidden = true;
  if (box.hasAttribute('data-dispatch'))
    await dispatchAction(box, { type: 'external_select', selected_option: option.option });
}

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

/** @param {'channel' | 'home'} page @param {string} [channel] */
function openPage(page, channel) {
  ui.page = page;
  if (channel) {
    if (channel !== ui.channel) ui.thread = null;
    ui.channel = channel;
    localStorage.setItem('rampart.workbench.channel', channel);
  }
  render();
  if (page === 'home') void attempt(() => api('/api/home', { user: ui.user }));
}

document.addEventListener('click', (e) => {
  const target = /** @type {HTMLElement} */ (e.target);
  const channel = target.closest('[data-channel].nav-item');
  if (channel) {
    openPage('channel', channel.getAttribute('data-channel') ?? undefined);
    return;
  }
  if (target.closest('#nav-home')) {
    openPage('home');
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
  if (button) void pressButton(button);
});

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
  const control = target.closest('[data-dispatch]');
  if (!control || control.getAttribute('data-type') === 'button' || control.classList.contains('bk-external')) return;
  void dispatchAction(control, controlValue(control));
  // An overflow menu is a list of actions, not a value: it goes back to "⋯".
  if (control.getAttribute('data-type') === 'overflow') /** @type {HTMLSelectElement} */ (control).value = '';
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
