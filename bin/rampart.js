#!/usr/bin/env node
// The built CLI when present (npm run build), else the TypeScript source through tsx.
import { existsSync } from 'node:fs';

const built = new URL('../dist/compose/cli-main.js', import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../src/compose/cli-main.ts', import.meta.url).href);
}
