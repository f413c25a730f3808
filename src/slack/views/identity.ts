/**
 * Creating a BVN identity (spec 4.5): authorised, validated on the modal's fields, created once
 * (never retried), recorded in Rampart's registry with the BVN's last four digits only.
 */
import type { App } from '@slack/bolt';
import { maskBvn } from '../../domain/personal-data.js';
import { InputError } from '../../errors.js';
import { outcomeOfFailure } from '../../service/classify.js';
import { isRealDate } from '../../service/schemas.js';
import { type Blocks, errorBlocks, esc, link, linkTarget, section, withSandboxNote } from '../blocks/common.js';
import { IDENTITY_CALLBACK, resultModal } from '../blocks/identity.js';
import type { Deps } from '../deps.js';
import { describeError, describeWriteFailure } from '../describe-error.js';

/** Slack's datepicker gives YYYY-MM-DD; the service wants DD-MM-YYYY (spec 4.5). */
export function toServiceDob(selected: string | undefined | null, today: Date): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(selected ?? '');
  if (!m) throw new InputError('Pick the date of birth.', 'dob');
  const [, y, mo, d] = m as unknown as [string, string, string, string];
  if (!isRealDate(Number(d), Number(mo), Number(y)) || Number(y) < 1900)
    throw new InputError('That is not a real date of birth.', 'dob');
  if (new Date(`${y}-${mo}-${d}T00:00:00Z`) > today)
    throw new InputError('A date of birth cannot be in the future.', 'dob');
  return `${d}-${mo}-${y}`;
}

export function registerIdentityView(app: App, deps: Deps): void {
  app.view(IDENTITY_CALLBACK, async ({ ack, view, body, client }) => {
    const v = view.state.values;
    const name = v.name?.name?.value?.trim() ?? '';
    const bvn = (v.bvn?.bvn?.value ?? '').replace(/\s/g, '');
    const errors: Record<string, string> = {};
    if (name.length < 2) errors.name = 'Type the full name as registered with the bank.';
    if (!/^\d{11}$/.test(bvn)) errors.bvn = 'A BVN is exactly 11 digits.';
    let dob = '';
    try {
      dob = toServiceDob(v.dob?.dob?.selected_date, new Date(deps.now()));
    } catch (err) {
      if (err instanceof InputError) errors.dob = err.message;
      else throw err;
    }
    if (Object.keys(errors).length === 0 && !(await deps.identityCreators.isApprover(body.user.id))) {
      errors.name = 'Only approvers may create identities; ask one of them.';
    }
    if (Object.keys(errors).length > 0) {
      await ack({ response_action: 'errors', errors });
      return;
    }
    await ack({
      response_action: 'update',
      view: resultModal('New BVN identity', [section(':hourglass_flowing_sand: Creating the identity…')]),
    });
    let blocks: Blocks;
    try {
      const created = await deps.service.createIdentity({ type: 'BVN', name, details: { bvn, dob } });
      await deps.registry.addIdentity({
        id: created.id,
        name,
        type: 'bvn',
        bvnLast4: bvn.slice(-4),
        createdBy: body.user.id,
        createdAt: deps.now(),
      });
      deps.log.info({ identityId: created.id, by: body.user.id }, 'identity created');
      // The service's URL goes through the one link builder (escaped, http(s) only).
      const verify =
        typeof created.link === 'string' && linkTarget(created.link)
          ? `\nVerification link: ${link(created.link, 'open')}`
          : '';
      blocks = [
        section(
          `:white_check_mark: Identity created for *${esc(name)}*\nId: \`${esc(created.id)}\` · BVN ${maskBvn(bvn)}${verify}`,
        ),
      ];
    } catch (err) {
      // One classifier decides (issue 9 item 1): an ambiguous create may have made the identity.
      const unknown = outcomeOfFailure('createIdentity', err) === 'unknown';
      if (unknown) deps.log.error({ err }, 'identity creation outcome unknown');
      else deps.log.warn({ err }, 'identity creation failed');
      blocks = errorBlocks(
        unknown
          ? `*Outcome unknown.* ${describeWriteFailure(err)} The identity may have been created: do not create it again until the service's records (ask its operators) show it does not exist.`
          : describeError(err),
      );
    }
    try {
      await client.views.update({
        view_id: view.id,
        view: resultModal('New BVN identity', withSandboxNote(blocks, deps.sandbox)),
      });
    } catch (err) {
      deps.log.error({ err }, 'could not show the identity result');
    }
  });
}
