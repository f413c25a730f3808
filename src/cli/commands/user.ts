/**
 * `rampart user create`: POST /user (spec 4.1, Bearer auth). The password comes from a hidden
 * prompt or stdin only; the returned key is printed once and kept nowhere.
 */
import { outcomeOfFailure } from '../../service/classify.js';
import { isServiceError } from '../../service/errors.js';
import { createUserRequest, describeZodError } from '../../service/schemas.js';
import { type Command, positionals, stringOption } from '../args.js';
import { unknownUserCreation } from '../format-service.js';
import { readPassword } from '../password.js';
import { CliError, UsageError } from '../problems.js';
import { keyValues } from '../table.js';

export const PASSWORD_REFUSED =
  '--password is refused: a password in the arguments is visible to other users (ps) and stays in shell history; ' +
  'type it at the hidden prompt or pipe it as the first line of stdin';

const fields = createUserRequest.omit({ password: true });

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
    const checked = fields.safeParse({
      email: stringOption(input, 'email', true).trim(),
      name: stringOption(input, 'name', true),
      ...(website === undefined ? {} : { website: website.trim() }),
      ...(description === undefined ? {} : { description }),
    });
    if (!checked.success) throw new UsageError(`--${describeZodError(checked.error).message}`);
    const user = checked.data;
    return async (ctx) => {
      if (!ctx.config.service.bearerToken) {
        throw new CliError('SERVICE_BEARER_TOKEN is not set, and POST /user needs it; set it and run again.');
      }
      const password = await readPassword(ctx.io);
      let created: { code: number; key: string };
      try {
        created = await ctx.service.createUser({ ...user, password });
      } catch (err) {
        throw explain(err);
      }
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

/**
 * The generic sentences name SERVICE_API_KEY and invite a retry; neither fits a create with Bearer
 * auth. The one classifier decides whether the user may exist (issue 9 item 1).
 */
function explain(err: unknown): unknown {
  if (outcomeOfFailure('createUser', err) === 'unknown') return new CliError(unknownUserCreation(err));
  if (!isServiceError(err)) return err;
  if (err.status === 401 || err.status === 403) {
    return new CliError(
      `The wallet service refused SERVICE_BEARER_TOKEN (HTTP ${err.status}); check it. No user was created.`,
    );
  }
  return err;
}
