/**
 * The identity picker's options: Rampart's registry and the service's answer for a
 * typed id, in labelled groups. Slack cannot disable an option, so an inactive identity sits in
 * a group whose label says it cannot be chosen (and choosing it anyway gives a field error), and
 * explanations are options whose value starts with NOTE_PREFIX. Pure.
 */
import type { IdentityCheck, IdentitySearch } from '../../../app/identities.js';
import { hasLongNumber, shortId } from '../../../domain/identity-query.js';
import { bvnText, maskLongNumbers } from '../../../domain/personal-data.js';
import type { IdentityEntry } from '../../../domain/registry-entries.js';
import { plain } from './common.js';

/** Option values that explain rather than choose. */
export const NOTE_PREFIX = 'note:';
export const isNote = (value: string | undefined): boolean => value?.startsWith(NOTE_PREFIX) === true;

export interface SlackOption {
  text: { type: 'plain_text'; text: string; emoji: boolean };
  value: string;
  description?: { type: 'plain_text'; text: string; emoji: boolean };
}
export interface OptionGroup {
  label: { type: 'plain_text'; text: string; emoji: boolean };
  options: SlackOption[];
}

export const option = (text: string, value: string, description?: string): SlackOption => ({
  text: plain(text, 75),
  value: value.slice(0, 150),
  ...(description ? { description: plain(description, 75) } : {}),
});
export const group = (label: string, options: SlackOption[]): OptionGroup => ({
  label: plain(label, 75),
  options: options.slice(0, 100),
});
export const note = (text: string, description: string, why: string): SlackOption =>
  option(text, `${NOTE_PREFIX}${why}`, description);

/** What was typed, safe to echo: short, and never a long number. */
export const echo = (query: string): string => {
  const q = query.trim().replace(/\s+/g, ' ');
  if (/^[\d\s]+$/.test(q) && hasLongNumber(q)) return 'that number';
  if (hasLongNumber(q)) return `“${maskLongNumbers(q)}”`;
  return `“${q.length > 24 ? `${q.slice(0, 23)}…` : q}”`;
};

export function ago(ms: number): string {
  const min = Math.round(ms / 60_000);
  if (min < 1) return 'just now';
  if (min < 60) return `${min} min ago`;
  const h = Math.round(min / 60);
  return h < 48 ? `${h} h ago` : `${Math.round(h / 24)} days ago`;
}

const who = (e: IdentityEntry): string => (e.name ? e.name : `Identity ${shortId(e.id)}`);

function knownOption(e: IdentityEntry, now: number): SlackOption {
  const status = e.isActive === false ? 'inactive' : e.source === 'service' ? 'active' : 'created in Rampart';
  const checked = e.checkedAt === undefined ? '' : `checked with the service ${ago(now - e.checkedAt)}`;
  return option(`${who(e)} · ${bvnText(e.bvnLast4)} · ${status}`, e.id, checked || shortId(e.id));
}

function liveGroup(live: IdentityCheck, query: string): OptionGroup | undefined {
  switch (live.kind) {
    case 'found': {
      const e = live.entry;
      if (!live.active)
        return group('Inactive at the service: cannot be chosen', [
          option(
            `${who(e)} · ${bvnText(e.bvnLast4)} · inactive`,
            e.id,
            'The service says inactive; it cannot own a beneficiary',
          ),
        ]);
      return group('Checked with the service just now', [
        option(
          `Identity ${shortId(e.id)} · ${bvnText(e.bvnLast4)} · active`,
          e.id,
          'checked with the service just now',
        ),
      ]);
    }
    case 'unknown':
      return group('Not known to the service', [
        note(`No identity ${echo(query)} at the service`, 'Check the id, or create one with New identity…', 'unknown'),
      ]);
    case 'bvn':
      return group('That looks like a BVN', [
        note('Rampart never searches by BVN', 'Type the identity id, a name or the last 4 BVN digits', 'bvn'),
      ]);
    case 'slow':
      return group('The service was too slow to check this id', [
        note(`Not checked: no answer within ${live.ms / 1000} s`, 'Type the id again in a moment', 'slow'),
      ]);
    case 'unavailable':
      return group('The service could not check this id', [
        note(
          'Not checked: the service did not answer properly',
          'Try again in a minute; tell on-call if it lasts',
          'down',
        ),
      ]);
  }
}

export function identityOptionGroups(search: IdentitySearch, query: string, now: number): OptionGroup[] {
  const groups: OptionGroup[] = [];
  const live = search.live && liveGroup(search.live, query);
  if (live) groups.push(live);
  const usable = search.known.filter((e) => e.isActive !== false);
  const inactive = search.known.filter((e) => e.isActive === false);
  if (usable.length > 0)
    groups.push(
      group(
        "Rampart's registry",
        usable.slice(0, 100).map((e) => knownOption(e, now)),
      ),
    );
  if (inactive.length > 0)
    groups.push(
      group(
        'Inactive at the service: cannot be chosen',
        inactive.map((e) => knownOption(e, now)),
      ),
    );
  if (groups.length === 0)
    groups.push(
      group(query.trim() ? `Nothing matches ${echo(query)}` : 'No identities yet', [
        note(
          'Type an identity id to check it with the service',
          'or create one with New identity… (approvers)',
          'empty',
        ),
      ]),
    );
  return groups;
}
