/**
 * A worker process's execution slots (src/adapters/jobs/slots.ts): at most `size` runs at a time,
 * the rest in order of arrival; once the process stops, nothing waiting or arriving runs, and
 * what runs finishes.
 */
import { expect, it } from 'vitest';
import { createSlots, STOPPING } from '../../../src/adapters/jobs/slots.js';

const gate = () => {
  let open: () => void = () => undefined;
  const shut = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, shut };
};

it('runs two at a time, the rest in order of arrival', async () => {
  const slots = createSlots(2);
  const started: number[] = [];
  const gates = [gate(), gate(), gate(), gate()];
  const runs = gates.map((g, i) =>
    slots.run(async () => {
      started.push(i);
      await g.shut;
      return i;
    }),
  );
  await Promise.resolve();
  expect(started).toEqual([0, 1]);
  gates[1]?.open();
  await expect(runs[1]).resolves.toBe(1);
  expect(started).toEqual([0, 1, 2]);
  for (const g of gates) g.open();
  expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
});

it('once closed, what waits and what arrives runs nothing; what runs finishes', async () => {
  const slots = createSlots(1);
  const held = gate();
  const started: string[] = [];
  const first = slots.run(async () => {
    started.push('first');
    await held.shut;
    return 'first';
  });
  const waiting = slots.run(async () => {
    started.push('waiting');
    return 'waiting';
  });
  slots.close();
  await expect(waiting).resolves.toBe(STOPPING);
  await expect(slots.run(async () => 'late')).resolves.toBe(STOPPING);
  held.open();
  await expect(first).resolves.toBe('first');
  expect(started).toEqual(['first']);
});
