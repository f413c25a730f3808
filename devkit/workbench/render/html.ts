/** Escaping for the HTML the workbench renders on the server: every string from Slack or Rampart goes through here. */

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);

/** Attributes from a record; undefined and false are left out, true is written bare. */
export function attrs(values: Readonly<Record<string, string | number | boolean | undefined>>): string {
  let out = '';
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined || value === false) continue;
    out += value === true ? ` ${name}` : ` ${name}="${escapeHtml(String(value))}"`;
  }
  return out;
}

export type JsonObject = Record<string, unknown>;

export const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** A visible stand-in for what the workbench cannot draw, naming it (never a silent gap). */
export const unsupported = (what: string, detail?: string): string =>
  `<div class="bk-unsupported" data-unsupported="${escapeHtml(what)}">Not rendered by the workbench: <code>${escapeHtml(what)}</code>${detail ? ` ${escapeHtml(detail)}` : ''}</div>`;
