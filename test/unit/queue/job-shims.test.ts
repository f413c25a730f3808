/**
 * Job handlers only translate: each parses its data with its schema, calls the worker role's app
 * and maps the answer to done, wait or fail. Any rule or store they reached would be decided
 * differently by the queue than by every other way in, so they may import only the queue's own
 * plumbing, BullMQ, zod, the logger and the worker app's type.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const JOBS = new URL('../../../src/adapters/jobs/handlers/', import.meta.url).pathname;
const ALLOWED = [
  /^\.\/[a-z-]+\.js$/,
  /^\.\.\/job-data\.js$/,
  // The worker process's execution slots, shared with the wake runner.
  /^\.\.\/slots\.js$/,
  /^\.\.\/\.\.\/\.\.\/app\/worker-app\.js$/,
  /^\.\.\/\.\.\/\.\.\/log\.js$/,
  /^bullmq$/,
  /^zod$/,
];

it('job handlers import only the worker app, the queue plumbing, the logger, BullMQ and zod', () => {
  const files = readdirSync(JOBS).filter((f) => f.endsWith('.ts'));
  expect(files.length).toBeGreaterThan(5);
  const problems: string[] = [];
  for (const file of files) {
    const text = readFileSync(join(JOBS, file), 'utf8');
    for (const m of text.matchAll(/^(?:import|export)\s[^;]*?from\s+'([^']+)'/gms)) {
      const spec = m[1] as string;
      if (!ALLOWED.some((a) => a.test(spec)))
        problems.push(
          `adapters/jobs/handlers/${file} imports ${spec}: call a member of the worker app (app/worker-app.ts) instead.`,
        );
    }
  }
  expect(problems).toEqual([]);
});
