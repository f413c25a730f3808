/**
 * Writes the API's generated OpenAPI document to a file, for `npm run lint:openapi` (the
 * document served at /api/v1/openapi.json, linted by a pinned @redocly/cli in CI).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { openApiDocument } from '../src/adapters/api/openapi.js';

const target = process.argv[2] ?? 'test-artifacts/openapi.json';
mkdirSync(dirname(target), { recursive: true });
writeFileSync(target, `${JSON.stringify(openApiDocument(), null, 2)}\n`);
process.stdout.write(`wrote ${target}\n`);
