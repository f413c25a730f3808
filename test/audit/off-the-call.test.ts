/**
 * The approve path: with the audit webhook on, the job that delivers the start's state
 * change is queued after the worker has handed its service call over, never in front of it
 * (the start script's answer and the call share nothing else). Every event is still delivered.
 */
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_QUEUE } from '../../src/audit/webhook-delivery.js';
import type { ServiceClient } from '../../src/service/client.js';
import { type AuditReceiver, startAuditReceiver } from '../support/audit-receiver.js';
import { eventually, PEOPLE } from '../support/harness.js';
import { click, postRequest, RECEIVER, waitForState } from '../support/requests.js';
import { useHarness } from '../support/use-harness.js';

let receiver: AuditReceiver;
/** What happened, in order: "call <amount>" and "audit <request> <seq>". */
const order: string[] = [];

const add = Queue.prototype.add;
beforeAll(async () => {
  Queue.prototype.add = function (this: Queue, name, data, opts) {
    const job = data as { requestId?: string; seq?: number };
    if (this.name === AUDIT_QUEUE && job.requestId) order.push(`audit ${job.requestId} ${job.seq}`);
    return add.call(this, name, data, opts);
  } as typeof add;
  receiver = await startAuditReceiver();
});
afterAll(async () => {
  Queue.prototype.add = add;
  await receiver.close();
});

const h = useHarness(
  'audit-off-the-call',
  () => ({ AUDIT_WEBHOOK_URL: receiver.url, AUDIT_WEBHOOK_SECRET: 'audit-secret-for-the-call-test' }),
  {
    rampart: {
      auditDelivery: { backoffMs: 100, maxBackoffMs: 400, lockWaitMs: 50, concurrency: 4, sweepEveryMs: 200 },
      decorate: {
        service: (service: ServiceClient) =>
          Object.assign(Object.create(service) as ServiceClient, {
            transfer(body: Parameters<ServiceClient['transfer']>[0]) {
              order.push(`call ${body.amount}`);
              return service.transfer(body);
            },
          }),
      },
    },
  },
);

describe('the audit job of an execution start', () => {
  it('is queued after the service call is handed over, and every change is still delivered', async () => {
    const { id } = await postRequest(h, 'transfer', `17 base:usdc to ${RECEIVER} from ops for the audit order`);
    await click(h, PEOPLE.approver1, id, 'request_approve');
    await waitForState(h, id, 'succeeded');
    const history = await h.rampart.deps.store.history(id);
    // The history position (1-based, RPUSH's answer) of the start: its audit job's seq.
    const started = history.findIndex((e) => e.event === 'executing') + 1;
    expect(started).toBeGreaterThan(0);
    const call = order.indexOf('call 17');
    const audit = order.indexOf(`audit ${id} ${started}`);
    expect(call).toBeGreaterThanOrEqual(0);
    expect(audit, order.join('\n')).toBeGreaterThan(call);
    const states = () => receiver.received.filter((e) => e.request_id === id).map((e) => e.state);
    await eventually(() => (states().length >= 4 ? true : undefined), 10_000, 'every state change delivered');
    expect(states()).toEqual(['pending', 'approved', 'executing', 'succeeded']);
  });
});
