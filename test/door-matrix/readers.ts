/**
 * One small reader per kind of door answer: a modal's error, a private message, a problem+json,
 * a CLI's exit and line. Each maps the door's words back to a rule's stable code, so every door
 * is held to the same code for the same broken rule.
 */
import type { ApiAnswer } from '../api/support.js';
import type { CliResult } from '../cli/support.js';
import { eventually, type Harness } from '../support/harness.js';

/** The sentences people read, by the code of the rule that wrote them (first match wins). */
const SENTENCES: readonly [RegExp, string][] = [
  // The address book's sentences (domain/address-book.ts, the CLI's removal).
  [/is not in the address book/, 'not_in_book'],
  [
    /was removed from the address book|address-book entry removed|in the address book, or it was removed/,
    'entry_removed',
  ],
  [/is still cooling off and becomes usable/, 'entry_cooling'],
  // Skip and End on a series (domain/series-answers.ts).
  [/Only an approver (can skip a run|or the requester of S-\d+ can end it)/, 'not_an_approver'],
  [/S-\d+ already ended; no more runs/, 'already_ended'],
  [
    /approval policy has no threshold|policy cannot be applied|policy's threshold|amount is not fixed/,
    'policy_refused',
  ],
  [/over the limit|over a velocity limit|stays pending and your approval was not counted/, 'over_limit'],
  [/open requests? \(pending|already has \d+ open/, 'too_many_open'],
  [/a batch may have at most \d+/, 'batch_too_large'],
  [/is on the .+ list of \d{4}-\d{2}-\d{2}/, 'screening_listed'],
  [/Rampart is frozen/, 'frozen'],
  [/pays a lookalike of a known address/, 'lookalike_unconfirmed'],
  [
    /so you cannot (approve|resume) it|another approver must resolve it|cannot approve your own passkey/,
    'self_approval',
  ],
  // An unfreeze counts one choice per person: a repeat is answered as the first was.
  [
    /You have already approved|another approver must choose the same|a different approver must confirm/,
    'duplicate_vote',
  ],
  // A cancel inside the wait (presenters/waiting-cancel.ts), before "no longer" below.
  [/is not waiting to run/, 'not_waiting'],
  [/already started, so it can no longer be cancelled/, 'already_started'],
  [/Only an approver or the requester can cancel/, 'not_allowed_to_cancel'],
  [
    /was already (approved|denied)|was cancelled by the requester|expired at|cannot be (resumed|stopped) now|no longer|out of date|only an outcome-unknown payment/,
    'not_pending',
  ],
  // The passkey page's answer to an approval that counted below its quorum.
  [/still needs another approver/, 'quorum_not_reached'],
  [/passkey/i, 'step_up_required'],
];

export function codeOfText(text: string): string {
  return SENTENCES.find(([pattern]) => pattern.test(text))?.[1] ?? `unread: ${text.slice(0, 160)}`;
}

/** A modal's refusal (`response_action: errors`), or `accepted` when it cleared. */
export function modalCode(body: unknown): string {
  const b = body as { response_action?: string; errors?: Record<string, string> } | undefined;
  if (b?.response_action !== 'errors') return 'accepted';
  return codeOfText(Object.values(b.errors ?? {}).join(' '));
}

/**
 * The first private message `user` got after `before` of them that names a rule (a requester's
 * own "your request is waiting" note may land in between).
 */
export async function nextEphemeral(h: Harness, user: string, before: number): Promise<string> {
  const read = () =>
    h.fake
      .ephemerals(user)
      .slice(before)
      .map((e) => codeOfText(JSON.stringify(e.blocks ?? []) + (e.text ?? '')));
  return eventually(
    () => read().find((c) => !c.startsWith('unread')),
    10_000,
    `a private answer to ${user} naming a rule`,
  ).catch((err: unknown) => {
    throw new Error(`${String(err)}; got ${JSON.stringify(read())}`);
  });
}

/** Where the API's problem code names a rule in its own words. */
const API_CODES: Record<string, string> = { velocity_exceeded: 'over_limit', not_cancellable: 'not_pending' };

/** A problem+json's stable code, as the rule's. */
export function apiCode(a: ApiAnswer): string {
  if (a.status < 300) return 'accepted';
  const code = String(a.json.code ?? `status ${a.status}`);
  // POST /batches answers a batch's velocity and size as field problems: the sentences name the rule.
  if (code === 'invalid_field') {
    const said = codeOfText(JSON.stringify([a.json.detail, a.json.errors]));
    if (!said.startsWith('unread')) return said;
  }
  return API_CODES[code] ?? code;
}

/** The CLI's refusal: a non-zero exit and one line naming the rule. */
export const cliCode = (r: CliResult): string => (r.code === 0 ? 'accepted' : codeOfText(r.stderr + r.stdout));
