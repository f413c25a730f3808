/**
 * The one step-up page serves every decision made with a passkey: a payment's vote, a
 * step-up batch's Resume, confirming an unknown outcome as not paid, approving someone's new
 * passkey, removing one of your own. The token says which; each attempt is counted once here,
 * then the purpose's own checks run.
 */

import type { TokenData } from '../store/step-up-tokens.js';
import {
  beginPasskeyDecision,
  bindPasskey,
  finishPasskeyDecision,
  type PasskeyBegun,
  type PasskeyDecided,
  type PasskeyPurpose,
} from './passkey-decide.js';
import {
  type Begun,
  beginRecordStepUp,
  bindRecord,
  type Finished,
  finishRecordStepUp,
  refused,
  type StepUpRefusal,
} from './step-up.js';
import { addressAllows, recordAttempt, type StepUpDeps } from './step-up-deps.js';
import type { RecordPurpose } from './step-up-subject.js';

type Counted =
  | { kind: 'record'; data: TokenData & { purpose: RecordPurpose } }
  | { kind: 'passkey'; data: TokenData & { purpose: PasskeyPurpose } }
  | StepUpRefusal;

const isRecord = (d: TokenData): d is TokenData & { purpose: RecordPurpose } =>
  d.purpose === 'approve' || d.purpose === 'resume' || d.purpose === 'confirm-not-paid';
const isPasskey = (d: TokenData): d is TokenData & { purpose: PasskeyPurpose } =>
  d.purpose === 'enrol-approve' || d.purpose === 'remove';

async function count(deps: StepUpDeps, token: string, from: string | undefined): Promise<Counted> {
  if (!(await addressAllows(deps, 'approve', from))) return { kind: 'limited' };
  const a = await deps.stepUpTokens.attempt(token, deps.now());
  if (a.kind === 'invalid' || a.data.purpose === 'enrol') {
    recordAttempt(deps, { purpose: 'approve', outcome: 'invalid' });
    return { kind: 'invalid' };
  }
  const { data } = a;
  if (a.kind !== 'ok') {
    if (isRecord(data)) await refused(deps, { purpose: data.purpose, user: data.user, subject: data.subject }, a.kind);
    else recordAttempt(deps, { purpose: data.purpose, outcome: a.kind, user: data.user });
    return { kind: 'limited' };
  }
  if (isRecord(data)) return { kind: 'record', data };
  if (isPasskey(data)) return { kind: 'passkey', data };
  return { kind: 'invalid' };
}

export type PageBegun = Begun | PasskeyBegun;

/** `from`: the client address when TRUST_PROXY names the proxy (src/adapters/web/client-address.ts). */
export async function beginStepUp(deps: StepUpDeps, token: string, from?: string): Promise<PageBegun> {
  const c = await count(deps, token, from);
  if (c.kind === 'record') {
    const bound = await bindRecord(deps, c.data);
    return 'kind' in bound ? bound : beginRecordStepUp(deps, bound);
  }
  if (c.kind === 'passkey') {
    const bound = await bindPasskey(deps, c.data);
    return 'kind' in bound ? bound : beginPasskeyDecision(deps, bound);
  }
  return c;
}

export type PageFinished = Finished | PasskeyDecided;

/** The page's answers after which the link's token is spent (the passkey was verified and used). */
const USED: ReadonlySet<string> = new Set(['decided', 'resumed', 'confirmed']);

/** The private message that carried the link stops offering it: "Passkey link used". */
async function replaceLinkMessage(deps: StepUpDeps, data: TokenData): Promise<void> {
  try {
    const url = await deps.stepUpTokens.takeMessage(data.user, data.purpose, data.subject);
    if (url) await deps.notices?.linkUsed?.(url, data.subject);
  } catch (err) {
    deps.log.warn({ err }, 'could not replace the passkey link message');
  }
}

/** Keeps where the link message can be replaced: the response URL of its button's click. */
export async function keepLinkMessage(
  deps: Pick<StepUpDeps, 'stepUpTokens'>,
  user: string,
  purpose: RecordPurpose,
  subject: string,
  responseUrl: string,
): Promise<void> {
  await deps.stepUpTokens.keepMessage(user, purpose, subject, responseUrl);
}

export async function finishStepUp(
  deps: StepUpDeps,
  token: string,
  body: unknown,
  from?: string,
): Promise<PageFinished> {
  const c = await count(deps, token, from);
  if (c.kind === 'record') {
    const bound = await bindRecord(deps, c.data);
    if ('kind' in bound) return bound;
    const finished = await finishRecordStepUp(deps, token, bound, body);
    if (USED.has(finished.kind)) await replaceLinkMessage(deps, c.data);
    return finished;
  }
  if (c.kind === 'passkey') {
    const bound = await bindPasskey(deps, c.data);
    return 'kind' in bound ? bound : finishPasskeyDecision(deps, token, bound, body);
  }
  return c;
}
