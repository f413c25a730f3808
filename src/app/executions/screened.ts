/**
 * After the start script's screening cancel (store/lua/includes/screening.lua): the velocity give-back, the
 * card and the hit notice. Nothing here can send anything: the execution is already cancelled.
 */

import { parseAmount } from '../../domain/amount.js';
import { parseExecutionId } from '../../domain/approval.js';
import { velocitySubject } from '../../domain/velocity.js';
import type { ExecuteOneDeps } from '../execute-one.js';

/**
 * The start script cancelled this execution (its destination is listed, or SCREENING=required
 * found no fresh list): nothing was sent. Its velocity reservation is given back (each give-back
 * is once-only, so a retried job cannot give twice; a worker killed before it leaves the headroom
 * reserved, the safe side), then the card and the hit notice follow.
 */
export async function afterScreened(
  deps: Pick<ExecuteOneDeps, 'store' | 'controls' | 'jobs' | 'log'>,
  executionId: string,
  approvalId: string,
  why: string,
) {
  deps.log.warn({ executionId, why }, 'execute: screening cancelled the execution at its start; nothing sent');
  const record = await deps.store.get(approvalId);
  const subject = record ? velocitySubject(record.sealed) : undefined;
  if (deps.controls && record && subject) {
    if (record.shape !== 'batch') await deps.controls.releaseHeadroom(subject, approvalId);
    else {
      const n = parseExecutionId(executionId)?.n ?? 0;
      const row = (await deps.store.batches.rows(approvalId))[n - 1];
      if (row)
        await deps.store.batches.giveBackRow(
          approvalId,
          executionId,
          deps.controls.amountsKey(subject),
          parseAmount(row.amount, subject.decimals).units,
        );
    }
  }
  await deps.jobs.notify({ requestId: approvalId, kind: 'card' });
  await deps.jobs.notify({ requestId: approvalId, kind: 'screened' });
}
