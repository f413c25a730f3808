/**
 * `rampart passkeys enrol-link | list | revoke` and `rampart verify`. Server access is
 * the authority here: the bootstrap link, the list and removal need no passkey; nothing in Slack
 * can remove one.
 */
import { REQUEST_ID } from '../../../domain/request.js';
import { type Command, positionals, shorten, stringOption } from '../args.js';
import { CliError, UsageError } from '../problems.js';

const USER = /^[UW][A-Z0-9]{2,}$/;

function userOption(input: Parameters<Command['prepare']>[0], required: boolean): string | undefined {
  const given = required ? stringOption(input, 'user', true) : stringOption(input, 'user');
  if (given === undefined) return undefined;
  const user = given.trim().toUpperCase();
  if (!USER.test(user)) throw new UsageError(`--user "${shorten(given)}" is not a Slack user id such as U0123ABCD`);
  return user;
}

const needsPages = (config: { stepUp: { publicUrl: string | undefined } }) => {
  if (!config.stepUp.publicUrl)
    throw new CliError('PUBLIC_URL is not set; the passkey pages need it (docs/step-up.md).');
};

export const passkeysEnrolLinkCommand: Command = {
  words: ['passkeys', 'enrol-link'],
  args: '--user U…',
  summary:
    'A one-time link (10 min) that registers a passkey for that approver with no approval and no cool-down; only while no approver has a passkey, or APPROVERS names one person.',
  options: { user: { type: 'string' } },
  prepare(input) {
    positionals(input, []);
    const user = userOption(input, true) ?? '';
    return async (ctx) => {
      needsPages(ctx.config);
      const link = await (await ctx.app()).passkeys.bootstrapLink(user);
      if (link.kind === 'bootstrap-closed')
        throw new CliError(
          'An approver already has a passkey, so a bootstrap link is refused; have them approve a new one enrolled with /passkey.',
        );
      ctx.note('Give this link to that person only; it works once, for 10 minutes.');
      ctx.answer(link.url, { user, url: link.url, expiresAt: new Date(link.expiresAt).toISOString() });
    };
  },
};

export const passkeysListCommand: Command = {
  words: ['passkeys', 'list'],
  args: '[--user U…]',
  summary: 'Passkeys of one approver, or of everyone: id, status, usable from, authenticator, browser.',
  options: { user: { type: 'string' } },
  prepare(input) {
    positionals(input, []);
    const user = userOption(input, false);
    return async (ctx) => {
      const all = await (await ctx.app()).passkeys.list(user);
      const rows = all.map((p) => ({
        user: p.user,
        id: p.id,
        status: p.status,
        usableFrom: p.status === 'active' ? new Date(p.usableFrom).toISOString() : 'after approval',
        aaguid: p.aaguid,
        browser: p.browser,
        approvedBy: p.approvedBy ?? '',
      }));
      const text = rows.length
        ? rows.map((r) => `${r.user}  ${r.id}  ${r.status}  usable from ${r.usableFrom}  ${r.browser}`).join('\n')
        : 'No passkeys.';
      ctx.answer(
        text,
        rows.map(({ publicKey: _p, ...r }: Record<string, unknown>) => r),
      );
    };
  },
};

export const passkeysRevokeCommand: Command = {
  words: ['passkeys', 'revoke'],
  args: '--user U… [--id ID]',
  summary: 'Removes one passkey of that approver, or all of them (a lost device).',
  options: { user: { type: 'string' }, id: { type: 'string' } },
  prepare(input) {
    positionals(input, []);
    const user = userOption(input, true) ?? '';
    const id = stringOption(input, 'id')?.trim();
    return async (ctx) => {
      const r = await (await ctx.app()).passkeys.revoke(user, id);
      if (r.kind === 'none') throw new CliError(`${user} has no passkey${id ? ` with id ${shorten(id)}` : ''}.`);
      // The owner hears of it as for a removal on the page; Slack down never fails this.
      if (r.told === false)
        ctx.note(`Slack did not take the direct message, so ${user} was not told; tell them yourself.`);
      ctx.answer(`Removed ${r.count} passkey(s) of ${user}.`, { user, removed: r.count, told: r.told ?? null });
    };
  },
};

export const verifyCommand: Command = {
  words: ['verify'],
  args: '<request_id>',
  summary: 'Re-verifies every passkey approval of a request against its sealed call; fails on any change.',
  prepare(input) {
    const [given = ''] = positionals(input, ['<request_id>']);
    const id = given.trim().toUpperCase();
    if (!REQUEST_ID.test(id)) throw new UsageError(`"${shorten(given)}" is not a request id such as R-1001`);
    return async (ctx) => {
      needsPages(ctx.config);
      const v = await (await ctx.app()).approvals.verify(id);
      if (v.kind === 'missing') throw new CliError(`No request ${id} under REDIS_PREFIX "${ctx.config.redis.prefix}".`);
      const lines = v.votes.map((c) => `${c.ok ? 'ok  ' : 'FAIL'}  ${c.user}  ${c.detail}`);
      const summary = v.ok
        ? `${id}: every approval verifies against the sealed call.`
        : `${id}: verification FAILED: an approval does not match the sealed call (see above).`;
      ctx.answer(lines.join('\n'), v);
      if (!v.ok) throw new CliError(summary);
      ctx.note(summary);
    };
  },
};
