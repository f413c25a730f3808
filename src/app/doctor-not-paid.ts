/**
 * Recording an outcome-unknown payment as not paid takes two different approvers, neither the
 * requester (domain/not-paid.ts). With fewer than two approvers Slack knows of, a not-paid can
 * never be confirmed, and an outcome-unknown payment stays unknown: doctor says so (a warning,
 * since payments still run).
 */
import { plural } from '../domain/words.js';
import type { Check } from './doctor.js';

/** `people`: approvers Slack found (users active, plus group members; a person in two counts twice). */
export function notPaidCheck(people: number): Check {
  if (people >= 3)
    return { ok: true, text: `${plural(people, 'approver')}: a not-paid proposal can be confirmed by a second one` };
  if (people === 2)
    return {
      ok: true,
      warn: true,
      text: '2 approvers: a not-paid proposal can be confirmed, except on a payment one of them requested (neither may settle it)',
      fix: 'add a third approver to APPROVERS',
    };
  return {
    ok: true,
    warn: true,
    text: `${plural(people, 'approver')}: recording an outcome-unknown payment as not paid needs two different approvers, so it can never be confirmed`,
    fix: 'add approvers to APPROVERS until at least two (three if approvers also request) can act',
  };
}
