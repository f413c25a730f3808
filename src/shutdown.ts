/**
 * Ordered shutdown (STYLE "Composition root", after Outline's ShutdownHelper): groups close one
 * after another — stop receiving, let running jobs finish, then queues, HTTP agents, Redis — and
 * within a group everything closes at once with allSettled, so one failure never keeps the rest
 * open. A force-quit timer in main.ts bounds the whole.
 */
import type { Logger } from './log.js';

export type ShutdownGroup = [name: string, closers: (() => Promise<unknown> | undefined)[]];

export async function closeInOrder(groups: ShutdownGroup[], log: Logger): Promise<void> {
  for (const [name, closers] of groups) {
    const results = await Promise.allSettled(closers.map((close) => close()));
    for (const r of results)
      if (r.status === 'rejected') log.warn({ err: r.reason, group: name }, 'shutdown step failed');
  }
}
