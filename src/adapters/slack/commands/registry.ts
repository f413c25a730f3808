/** /identity and /beneficiary: create (through modals), show and list what Rampart keeps. */
import { describeError } from '../../../app/describe-error.js';
import { beneficiaryListBlocks, nigerianModal } from '../blocks/beneficiary.js';
import { errorBlocks } from '../blocks/common.js';
import { identityBlocks, identityCheckProblem, identityListBlocks, identityModal } from '../blocks/identity.js';
import { registerModal } from '../blocks/register-beneficiary.js';
import { isHelp, USAGE } from '../blocks/usage.js';
import type { Deps } from '../deps.js';
import { respondBlocks, respondError } from '../respond.js';
import type { CommandHandler, Routes } from '../routes.js';

/** /identity [list|new|<id>]: the usage for more than one word. */
export const identityCommand =
  (deps: Deps): CommandHandler =>
  async ({ command, ack, respond, client }) => {
    const words = (command.text ?? '').trim().split(/\s+/).filter(Boolean);
    const [first = 'list', ...rest] = words;
    if (isHelp(first) || rest.length > 0) {
      await ack({ response_type: 'ephemeral', text: USAGE.identity });
      return;
    }
    await ack();
    if (first === 'new') {
      await client.views
        .open({ trigger_id: command.trigger_id, view: identityModal({ channel: command.channel_id }) })
        .catch((err: unknown) => deps.log.error({ err }, 'could not open the identity modal'));
      return;
    }
    try {
      if (first === 'list') {
        await respondBlocks(respond, 'Identities', identityListBlocks(await deps.app.registry.identities()));
        return;
      }
      // Checked live; one the service already had is remembered (masked).
      const check = await deps.app.registry.checkIdentity(first, command.user_id);
      if (check.kind === 'found') {
        await respondBlocks(respond, `Identity ${check.entry.id}`, identityBlocks(check.entry));
        return;
      }
      const problem = identityCheckProblem(check, describeError);
      await respondBlocks(respond, problem, errorBlocks(problem));
    } catch (err) {
      await respondError(respond, deps, err, USAGE.identity);
    }
  };

/** /beneficiary [list|new|register]: the usage for any other word. */
export const beneficiaryCommand =
  (deps: Deps): CommandHandler =>
  async ({ command, ack, respond, client }) => {
    const text = (command.text ?? '').trim().toLowerCase();
    if (text !== 'new' && text !== 'register' && text !== 'list' && text !== '') {
      await ack({ response_type: 'ephemeral', text: USAGE.beneficiary });
      return;
    }
    await ack();
    if (text === 'new' || text === 'register') {
      // `register` is a beneficiary that already exists at the service.
      const view = (text === 'new' ? nigerianModal : registerModal)({ channel: command.channel_id });
      await client.views
        .open({ trigger_id: command.trigger_id, view })
        .catch((err: unknown) => deps.log.error({ err }, 'could not open the beneficiary modal'));
      return;
    }
    try {
      await respondBlocks(respond, 'Beneficiaries', beneficiaryListBlocks(await deps.app.registry.beneficiaries()));
    } catch (err) {
      await respondError(respond, deps, err, USAGE.beneficiary);
    }
  };

export function registerRegistryCommands(app: Routes, deps: Deps): void {
  app.command('/identity', identityCommand(deps));
  app.command('/beneficiary', beneficiaryCommand(deps));
}
