// Shared by the page's modules: the page state, DOM helpers, and POST /api/* with its notices.

/** @param {string} selector @param {ParentNode} [root] @returns {any} */
export const $ = (selector, root = document) => root.querySelector(selector);

/** @param {unknown} text */
export const esc = (text) =>
  String(text).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

export const ui = {
  user: localStorage.getItem('rampart.workbench.user') || 'U0REQUESTER',
  channel: localStorage.getItem('rampart.workbench.channel') || 'C0GENERAL',
  /** @type {'channel' | 'home' | 'dm'} */
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

/** Called after every action, done or failed: the page fetches the state again. */
let settled = () => {};

/** @param {() => void} fn */
export const onSettled = (fn) => {
  settled = fn;
};

/** @param {string} path @param {object} body */
export async function api(path, body) {
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

/** @param {string} message @param {'info' | 'error'} [kind] */
export function toast(message, kind = 'info') {
  const el = document.createElement('div');
  el.className = `toast ${kind}`;
  el.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  el.textContent = message;
  el.addEventListener('click', () => el.remove());
  $('#toasts').append(el);
  setTimeout(() => el.remove(), 9000);
}

/** Runs an action, showing its failure as a notice instead of losing it. @param {() => Promise<unknown>} fn */
export async function attempt(fn) {
  try {
    return await fn();
  } catch (err) {
    toast(err instanceof Error ? err.message : String(err), 'error');
    return undefined;
  } finally {
    settled();
  }
}
