/**
 * `rampart addresses list|add|import|remove`: the address book from the terminal, through the same
 * use cases as `/addresses`. `--as U…` names who adds (they cannot approve their own entry) or who
 * removes (an approver).
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { EntriesOutcome } from '../../../app/destinations/submit-entries.js';
import { cliActor } from '../../../domain/actor.js';
import { readEntriesCsv } from '../../../domain/address-book-csv.js';
import { type Command, positionals, shorten, stringOption } from '../args.js';
import type { Context } from '../context.js';
import { CliError, UsageError } from '../problems.js';
import { table } from '../table.js';

const SLACK_USER = /^[UW][A-Z0-9]{2,}$/;

function asUser(input: Parameters<Command['prepare']>[0]): string {
  const user = stringOption(input, 'as', true).trim();
  if (!SLACK_USER.test(user)) throw new UsageError(`--as "${shorten(user)}" is not a Slack user id such as U0123ABCD`);
  return user;
}

const reasonOf = (input: Parameters<Command['prepare']>[0], fallback: string): string =>
  stringOption(input, 'reason')?.trim() || fallback;

const utc = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export const addressesListCommand: Command = {
  words: ['addresses', 'list'],
  args: '',
  summary: 'The address book: every entry, who added and approved it, when it became usable, and the mode in force.',
  prepare() {
    return async (ctx) => {
      const app = await ctx.app();
      const [entries, mode] = await Promise.all([app.destinations.list(), app.destinations.mode()]);
      const now = Date.now();
      const state = (e: (typeof entries)[number]) =>
        e.removedAt !== undefined
          ? `removed by ${e.removedBy ?? '?'}`
          : now < e.usableAt
            ? `cooling until ${utc(e.usableAt)}`
            : `usable since ${utc(e.usableAt)}`;
      const text = table(
        [
          { title: 'ID' },
          { title: 'NAME' },
          { title: 'CHAIN' },
          { title: 'ADDRESS' },
          { title: 'WALLETS' },
          { title: 'ADDED BY' },
          { title: 'APPROVED BY' },
          { title: 'STATE' },
        ],
        entries.map((e) => [
          e.id,
          e.name,
          e.chain,
          e.address,
          e.wallets === '*' ? 'all' : e.wallets.join(', '),
          e.addedBy,
          e.approvedBy,
          state(e),
        ]),
      );
      ctx.answer(`DESTINATIONS=${mode}\n${text}`, { mode, entries });
    };
  },
};

function answerSubmitted(ctx: Context, outcome: EntriesOutcome, what: string): void {
  if (outcome.kind === 'invalid')
    throw new CliError(
      [
        ...outcome.problems.map((p) => p.message),
        `Nothing was sent for approval; fix ${what} and run the command again.`,
      ].join('\n'),
    );
  if (outcome.kind === 'refused') throw new CliError(outcome.reason);
  if (outcome.kind === 'taken')
    throw new CliError(
      `${what} was already sent for approval as ${outcome.id}; find its card with \`rampart requests --state pending\`.`,
    );
  if (outcome.kind === 'nothing')
    throw new CliError('Nothing was submitted: Redis did not answer in time. Run the command again.');
  ctx.answer(
    [
      `${outcome.sealed.id} waits for approval in the approvals channel: ${outcome.entries.length === 1 ? '1 address-book entry' : `${outcome.entries.length} address-book entries`}.`,
      ...outcome.entries.map((e) => `  ${e.name}  ${e.chain}  ${e.address}`),
    ].join('\n'),
    { requestId: outcome.sealed.id, entries: outcome.entries },
  );
}

export const addressesAddCommand: Command = {
  words: ['addresses', 'add'],
  args: '<name> <chain> <address> --as <U…> [--wallets id,id] [--reason text]',
  summary: [
    'Ask for one address-book entry: one card for the approvers (the top tier’s quorum; --as cannot',
    '      approve it). Once approved it cools off for ADDRESS_COOLDOWN before it can be paid.',
  ].join('\n'),
  options: { as: { type: 'string' }, wallets: { type: 'string' }, reason: { type: 'string' } },
  prepare(input) {
    const [name = '', chain = '', address = ''] = positionals(input, ['<name>', '<chain>', '<address>']);
    const user = asUser(input);
    const listed = (stringOption(input, 'wallets') ?? '')
      .split(',')
      .map((w) => w.trim())
      .filter(Boolean);
    const reason = reasonOf(input, `address-book entry ${name}`);
    return async (ctx) => {
      const app = await ctx.app();
      const outcome = await app.destinations.submit({
        entries: [{ name, chain: chain.toLowerCase(), address, wallets: listed.length === 0 ? '*' : listed }],
        actor: cliActor(user),
        reason,
        origin: undefined,
        submission: `addresses-add:${createHash('sha256').update(`${user}\n${chain}\n${address}\n${name}\n${reason}`).digest('hex')}`,
      });
      if (outcome.kind === 'created') await app.payments.announce(outcome.sealed);
      answerSubmitted(ctx, outcome, 'the entry');
    };
  },
};

export const addressesImportCommand: Command = {
  words: ['addresses', 'import'],
  args: '<FILE.csv> | --from-paid, --as <U…> [--reason text]',
  summary: [
    'Ask for many entries at once: a CSV (UTF-8, a header row) with the columns name, chain, address and',
    '      optionally wallets (ids or aliases separated by ";", empty for all); or --from-paid, every address',
    '      Rampart has paid. One card lists every entry; once it is approved the default mode is warn.',
  ].join('\n'),
  options: { as: { type: 'string' }, reason: { type: 'string' }, 'from-paid': { type: 'boolean' } },
  prepare(input) {
    const fromPaid = input.values['from-paid'] === true;
    const [file = ''] = fromPaid ? [] : positionals(input, ['<FILE.csv>']);
    const user = asUser(input);
    return async (ctx) => {
      const app = await ctx.app();
      if (fromPaid) {
        const outcome = await app.destinations.seedFromPaid(cliActor(user), reasonOf(input, 'addresses already paid'));
        if (outcome.kind === 'created') await app.payments.announce(outcome.sealed);
        return answerSubmitted(ctx, outcome, 'the paid addresses');
      }
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (err) {
        const code = (err as { code?: unknown }).code;
        throw new CliError(
          code === 'ENOENT' ? `There is no file ${file}.` : `${file} cannot be read (${String(code)}).`,
        );
      }
      const read = readEntriesCsv(text);
      if (read.problems.length > 0 || read.rows.length === 0)
        throw new CliError(
          [
            ...read.problems.map((p) => p.message),
            `Nothing in ${file} was sent for approval; fix every line above and run the command again.`,
          ].join('\n'),
        );
      const outcome = await app.destinations.submit({
        entries: read.rows,
        actor: cliActor(user),
        reason: reasonOf(input, `address-book import ${basename(file)}`),
        origin: undefined,
        submission: `addresses-import:${createHash('sha256').update(`${user}\n${text}`).digest('hex')}`,
      });
      if (outcome.kind === 'invalid')
        throw new CliError(
          [
            ...outcome.problems.map((p) => `Line ${read.rows[p.index]?.line ?? '?'}: ${p.message}`),
            `Nothing in ${file} was sent for approval; fix every line above and run the command again.`,
          ].join('\n'),
        );
      if (outcome.kind === 'created') await app.payments.announce(outcome.sealed);
      return answerSubmitted(ctx, outcome, basename(file));
    };
  },
};

export const addressesRemoveCommand: Command = {
  words: ['addresses', 'remove'],
  args: '<A-n> --as <U…>',
  summary:
    'Remove an entry at once (--as must be an approver): every payment sealed with it and not yet sent is cancelled.',
  options: { as: { type: 'string' } },
  prepare(input) {
    const [id = ''] = positionals(input, ['<A-n>']);
    if (!/^A-\d+$/.test(id))
      throw new UsageError(`"${shorten(id)}" is not an entry id such as A-12 (see rampart addresses list)`);
    const user = asUser(input);
    return async (ctx) => {
      const app = await ctx.app();
      const outcome = await app.destinations.remove(cliActor(user), id);
      if (outcome.kind === 'not-approver')
        throw new CliError(`${user} is not an approver; only approvers remove entries.`);
      if (outcome.kind === 'approver-check-failed')
        throw new CliError('Slack did not say whether this person is an approver; try again in a minute.');
      if (outcome.kind === 'missing')
        throw new CliError(`There is no entry ${id} in the address book, or it was removed already.`);
      const e = outcome.entry;
      ctx.answer(`${e.id} removed: ${e.name} ${e.address} (${e.chain}). Nothing unsent will be paid to it.`, {
        removed: e,
      });
    };
  },
};
