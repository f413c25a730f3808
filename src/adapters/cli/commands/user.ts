/**
 * `rampart user create`: POST /user (spec 4.1, Bearer auth). The password comes from a hidden
 * prompt or stdin only; the returned key is printed once and kept nowhere.
 */
import { checkUserFields } from '../../../app/reads/service-reads.js';
import { type Command, positionals, stringOption } from '../args.js';
import { unknownUserCreation } from '../format-service.js';
import { readPassword } from '../password.js';
import { CliError, UsageError } from '../problems.js';
import { keyValues } from '../table.js';

export const PASSWORD_REFUSED =
  '--password is refused: a password in the arguments is visible to other users (ps) and stays in shell history; ' +
  'type it at the hidden prompt or pipe it as the first line of stdin';

export const userCreateCommand: Command = {
  words: ['user', 'create'],
  args: '--email E --name N [--website URL] [--description D]',
  summary: 'Create a service user; asks for the password (hidden) or reads it from stdin.',
  options: {
    email: { type: 'string' },
    name: { type: 'string' },
    website: { type: 'string' },
    description: { type: 'string' },
  },
  prepare(input) {
    positionals(input, []);
    const website = stringOption(input, 'website');
    const description = stringOption(input, 'description');
    const checked = checkUserFields({
      email: stringOption(input, 'email', true).trim(),
      name: stringOption(input, 'name', true),
      ...(website === undefined ? {} : { website: website.trim() }),
      ...(description === undefined ? {} : { description }),
    });
    if (!checked.ok) throw new UsageError(`--${checked.message}`);
    const { user } = checked;
    return async (ctx) => {
      if (!ctx.config.service.bearerToken) {
        throw new CliError('SERVICE_BEARER_TOKEN is not set, and POST /user needs it; set it and run again.');
      }
      const password = await readPassword(ctx.io);
      const outcome = await ctx.service.createUser({ ...user, password });
      if (outcome.kind === 'unknown') throw new CliError(unknownUserCreation(outcome.err));
      // The generic sentences name SERVICE_API_KEY and invite a retry; neither fits a create with Bearer auth.
      if (outcome.kind === 'refused')
        throw new CliError(
          `The wallet service refused SERVICE_BEARER_TOKEN (HTTP ${outcome.status}); check it. No user was created.`,
        );
      const { created } = outcome;
      ctx.answer(
        keyValues([
          ['Code', String(created.code)],
          ['Key', created.key],
        ]),
        created,
      );
      ctx.note(
        'Store this key now (e.g. in your secret manager): it is shown only this once and Rampart keeps no copy.',
      );
    };
  },
};
