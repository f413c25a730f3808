/**
 * Creating a BVN identity (spec 4.5): checked on the form's fields, allowed to IDENTITY_CREATORS
 * only, created once (never retried), recorded in Rampart's registry with the BVN's last four
 * digits only. Two steps, because Slack is acked between them: `checkNewIdentity` before the ack,
 * `createIdentity` after. No Bolt, no WebClient: outcomes the edge phrases.
 */
import {
  checkIdentityForm,
  type IdentityBody,
  type IdentityForm,
  type IdentityFormErrors,
} from '../domain/identity-form.js';
import { maskBvn } from '../domain/personal-data.js';
import type { Logger } from '../log.js';
import { outcomeOfFailure } from '../service/classify.js';
import type { ServiceClient } from '../service/client.js';
import type { Registry } from '../store/registry.js';
import { memberOf } from './decide.js';
import type { ApproverDirectory } from './deps.js';

export interface CreateIdentityDeps {
  service: Pick<ServiceClient, 'createIdentity'>;
  registry: Pick<Registry, 'addIdentity'>;
  /** IDENTITY_CREATORS (default the approvers). */
  identityCreators: ApproverDirectory;
  log: Logger;
  now: () => number;
}

export type IdentityFormCheck =
  | { kind: 'invalid'; errors: IdentityFormErrors }
  /** The form is good but this person may not create identities. */
  | { kind: 'not-allowed' }
  /** IDENTITY_CREATORS names a user group and Slack could not say who is in it. */
  | { kind: 'check-failed' }
  | { kind: 'ready'; body: IdentityBody };

/** The fields first (every problem at once), then who asks: a bad form never asks Slack for groups. */
export async function checkNewIdentity(
  deps: Pick<CreateIdentityDeps, 'identityCreators' | 'log' | 'now'>,
  form: IdentityForm,
  user: string,
): Promise<IdentityFormCheck> {
  const checked = checkIdentityForm(form, new Date(deps.now()));
  if ('errors' in checked) return { kind: 'invalid', errors: checked.errors };
  const refused = await memberOf(deps.identityCreators, deps.log, user);
  if (refused) return { kind: refused.kind === 'not-approver' ? 'not-allowed' : 'check-failed' };
  return { kind: 'ready', body: checked.body };
}

export type CreateIdentityOutcome =
  | { kind: 'created'; id: string; name: string; bvnMasked: string; link?: string }
  /** Refused or never sent: no identity was made. */
  | { kind: 'failed'; error: unknown }
  /** Ambiguous: the identity may have been made; never create it again blindly. */
  | { kind: 'unknown'; error: unknown };

export async function createIdentity(
  deps: CreateIdentityDeps,
  body: IdentityBody,
  user: string,
): Promise<CreateIdentityOutcome> {
  const bvn = body.details.bvn;
  let created: Awaited<ReturnType<ServiceClient['createIdentity']>>;
  try {
    created = await deps.service.createIdentity(body);
    // A registry failure after the create is not "nothing happened" either: classified alike.
    await deps.registry.addIdentity({
      id: created.id,
      name: body.name,
      type: 'bvn',
      bvnLast4: bvn.slice(-4),
      createdBy: user,
      createdAt: deps.now(),
    });
  } catch (err) {
    // One classifier decides: an ambiguous create may have made the identity.
    if (outcomeOfFailure('createIdentity', err) === 'unknown') {
      deps.log.error({ err }, 'identity creation outcome unknown');
      return { kind: 'unknown', error: err };
    }
    deps.log.warn({ err }, 'identity creation failed');
    return { kind: 'failed', error: err };
  }
  deps.log.info({ identityId: created.id, by: user }, 'identity created');
  return {
    kind: 'created',
    id: created.id,
    name: body.name,
    bvnMasked: maskBvn(bvn),
    ...(typeof created.link === 'string' ? { link: created.link } : {}),
  };
}
