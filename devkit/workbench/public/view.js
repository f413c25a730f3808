// Draws the state: the person switcher, channels, messages, the thread pane, the App Home, and
// the problems Slack would have refused. Block Kit arrives already rendered by the server.
import { localizeDates, slackDate } from './dates.js';
import { renderModal } from './modal.js';
import { $, esc, ui } from './ui.js';

export function render() {
  const s = ui.state;
  if (!s) return;
  renderPeople(s);
  renderChannels(s);
  const picked = s.channels.find((/** @type {any} */ c) => c.id === ui.channel) ?? s.channels[0];
  if (picked) ui.channel = picked.id;
  const onHome = ui.page === 'home';
  const onDm = ui.page === 'dm';
  const channel = onDm ? s.dm : picked;
  $('#messages').hidden = onHome;
  // The manifest makes the Messages tab read-only: Slack shows no composer there.
  $('#composer').hidden = onHome || onDm;
  $('#dm-read-only').hidden = !onDm;
  $('#home').hidden = !onHome;
  $('#nav-home').classList.toggle('active', onHome);
  $('#nav-dm').classList.toggle('active', onDm);
  const dms = s.dm.messages.length;
  $('#dm-count').className = dms ? 'nav-count' : '';
  $('#dm-count').textContent = dms ? String(dms) : '';
  if (onHome) renderHome(s);
  else if (channel) renderChannel(channel, onDm);
  renderThread(s);
  renderModal(s.modal);
  renderProblems(s.problems);
  localizeDates(document);
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
      <div class="msg-meta"><span class="author">Rampart</span><span class="app-badge">APP</span><time>${esc(slackDate(Number(m.ts.split('.')[0]), '{time}'))}</time>${m.edited ? '<span class="edited">(edited)</span>' : ''}</div>
      ${m.ephemeral ? '<div class="only-you">👁 Only visible to you</div>' : ''}
      <div class="blocks">${m.html}</div>
      ${replies}
    </div>
  </article>`;
}

/**
 * Replaces a region's HTML only when it changed; a conversation stays at the bottom if it was
 * there (or when `fresh`, e.g. another channel), like a chat.
 * @param {HTMLElement} el @param {string} html @param {'messages' | 'thread' | 'home'} key @param {boolean} fresh
 */
function replace(el, html, key, fresh) {
  if (ui.rendered[key] === html) return;
  // App Home is a page read from its top, not a conversation: it never jumps to the end.
  const atBottom = key !== 'home' && (fresh || el.scrollHeight - el.scrollTop - el.clientHeight < 40);
  ui.rendered[key] = html;
  el.innerHTML = html;
  if (atBottom) el.scrollTop = el.scrollHeight;
}

/** @param {any} channel @param {boolean} dm */
function renderChannel(channel, dm) {
  $('#title').textContent = dm ? channel.name : `# ${channel.name}`;
  const approvals = channel.id === ui.state.approvalsChannel;
  $('#subtitle').textContent = dm
    ? 'Direct messages from Rampart to you: reminders, outcomes, passkey notices'
    : approvals
      ? 'Approvals channel: requests wait here for approvers'
      : 'Team channel';
  // One line at a phone's width, as Slack mobile's "Message #channel"; the hint where there is room.
  const narrow = window.matchMedia('(max-width: 720px)').matches;
  $('#composer-input').placeholder = narrow
    ? `Message #${channel.name}`
    : `Message #${channel.name}: type a slash command, e.g. /balance`;
  const empty = dm
    ? '<p class="empty">Rampart has not sent you a direct message yet.</p>'
    : `<p class="empty">Nothing in #${esc(channel.name)} yet. Type a command below, e.g. <code>/transfer help</code>.</p>`;
  const html = channel.messages.length
    ? channel.messages.map((/** @type {any} */ m) => messageHtml(m, false)).join('')
    : empty;
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
  const channel = t && [...s.channels, s.dm].find((/** @type {any} */ c) => c.id === t.channel);
  const parent = channel?.messages.find((/** @type {any} */ m) => m.ts === t?.ts);
  if (!t || !parent || ui.page === 'home') {
    pane.hidden = true;
    ui.rendered.thread = '';
    return;
  }
  pane.hidden = false;
  $('#thread-channel').textContent = channel.id === s.dm.id ? channel.name : `# ${channel.name}`;
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
