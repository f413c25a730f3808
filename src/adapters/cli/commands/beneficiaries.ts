/**
 * `rampart beneficiaries import FILE.csv`: day one at an existing service. Every row
 * is checked first (rules, duplicates in the file and in Rampart, each identity with
 * GET /identity); any problem is listed by line and nothing changes. A good file becomes ONE
 * approval card; one approval registers every row, or none.
 */
import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import type { RowProblem } from '../../../app/register-beneficiaries.js';
import { cliActor } from '../../../domain/actor.js';
import { type Command, positionals, shorten, stringOption } from '../args.js';
import { CSV_COLUMNS, type LineProblem, MAX_ROWS, readBeneficiaryCsvFile } from '../beneficiary-csv.js';
import type { Context } from '../context.js';
import { CliError, UsageError } from '../problems.js';

const SLACK_USER = /^[UW][A-Z0-9]{2,}$/;

function refuse(ctx: Context, file: string, unsorted: readonly LineProblem[]): never {
  const problems = [...unsorted].sort((a, b) => a.line - b.line);
  for (const p of problems) ctx.note(p.line > 0 ? `line ${p.line}: ${p.message}` : p.message);
  throw new CliError(
    `${problems.length} problem${problems.length === 1 ? '' : 's'} in ${file}; nothing was imported or sent for approval. Fix every line above and run the command again.`,
  );
}

const linesOf = (problems: readonly RowProblem[]): LineProblem[] =>
  problems.map((p) => ({ line: p.line, message: `${p.field}: ${p.message}` }));

export const beneficiariesImportCommand: Command = {
  words: ['beneficiaries', 'import'],
  args: '<FILE.csv> --requester <U…> --reason <text>',
  summary: [
    'Register beneficiaries that already exist at the service, from a CSV file (UTF-8, a header row),',
    `      with the columns ${CSV_COLUMNS.join(', ')} (any order):`,
    "      beneficiary_id = the service's beneficiary id; identity_id = the service's identity id it",
    '      belongs to (checked with GET /identity); label = how people find it (no account number or BVN);',
    '      bank_name = the bank as you state it; account_last4 = the last 4 digits of the account only.',
    `      Every row is checked first and every problem listed by line; then ONE approval card (at most`,
    `      ${MAX_ROWS} rows) is posted for --requester (a Slack user id; they cannot approve it), and one`,
    '      approval registers every row, or none. Bank, label and digits stay marked "as stated".',
  ].join('\n'),
  options: { requester: { type: 'string' }, reason: { type: 'string' } },
  prepare(input) {
    const [file = ''] = positionals(input, ['<FILE.csv>']);
    const requester = stringOption(input, 'requester', true).trim();
    if (!SLACK_USER.test(requester))
      throw new UsageError(`--requester "${shorten(requester)}" is not a Slack user id such as U0123ABCD`);
    const reason = stringOption(input, 'reason', true).trim();
    if (reason.length < 3) throw new UsageError('--reason must say why; approvers read it');
    return async (ctx) => {
      let read: Awaited<ReturnType<typeof readBeneficiaryCsvFile>>;
      try {
        // Streamed: a huge file is refused at its first row past the limit.
        read = await readBeneficiaryCsvFile(file);
      } catch (err) {
        const code = (err as { code?: unknown }).code;
        throw new CliError(
          code === 'ENOENT' ? `There is no file ${file}.` : `${file} cannot be read (${String(code)}).`,
        );
      }
      if (read.rows.length === 0) refuse(ctx, file, read.problems);
      const app = await ctx.app();
      // The file's own problems: list the rows' problems beside them, and seal nothing.
      if (read.problems.length > 0) {
        const checked = await app.registry.checkRegistration(read.rows, requester);
        refuse(ctx, file, [...read.problems, ...(checked.kind === 'invalid' ? linesOf(checked.problems) : [])]);
      }
      // The same use case as the Slack form.
      const submitted = await app.registry.submitRegistration({
        rows: read.rows,
        // The operator adds these destinations as --requester, from the CLI.
        actor: cliActor(requester),
        reason,
        origin: undefined,
        importFile: basename(file),
        // One file, for one requester and reason, makes at most one request.
        submission: `import:${createHash('sha256')
          .update(read.sha256 ?? '')
          .update(`\n${requester}\n${reason}`)
          .digest('hex')}`,
      });
      if (submitted.kind === 'invalid') refuse(ctx, file, linesOf(submitted.problems));
      if (submitted.kind === 'refused')
        throw new CliError('requesterLimit' in submitted ? `${requester}: ${submitted.reason}` : submitted.reason);
      if (submitted.kind !== 'created')
        throw new CliError(
          `${file} was already sent for approval for ${requester}; find its card with \`rampart requests --state pending\`.`,
        );
      const sealed = submitted.sealed;
      await app.payments.announce(sealed);
      const rows = submitted.call.body.beneficiaries;
      ctx.answer(
        [
          `${sealed.id} waits for approval in the approvals channel: ${rows.length} beneficiar${rows.length === 1 ? 'y' : 'ies'} from ${basename(file)}, as stated by ${requester}.`,
          ...rows.map((b) => `  ${b.beneficiary_id}  ${b.label}  ${b.bank_name} ••••${b.account_last4}`),
        ].join('\n'),
        { requestId: sealed.id, count: rows.length, beneficiaries: rows },
      );
    };
  },
};
