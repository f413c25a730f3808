/**
 * The service contract is declared once: one row per operation of spec 4, and
 * the query-parameter defaults that the client, the sandbox and the configuration all use.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { DEFAULT_QUERY_PARAMS, OPERATION_NAMES, OPERATIONS } from '../../src/service/operations.js';

describe('the operation table', () => {
  it('has the ten operations of spec 4, each at its own method and path', () => {
    const routes = OPERATION_NAMES.map((name) => `${OPERATIONS[name].method} ${OPERATIONS[name].path}`);
    expect(routes).toEqual([
      'POST /user',
      'POST /transfer',
      'POST /beneficiary',
      'POST /offramp',
      'POST /identity',
      'GET /identity',
      'POST /lookup',
      'GET /wallet',
      'GET /balances',
      'GET /rate/onramp',
    ]);
  });

  it('marks exactly the calls that create or move something as not idempotent (never retried)', () => {
    expect(OPERATION_NAMES.filter((name) => !OPERATIONS[name].idempotent)).toEqual([
      'createUser',
      'transfer',
      'createBeneficiary',
      'offramp',
      'createIdentity',
    ]);
  });

  it('gives every GET one query parameter and every POST a request schema', () => {
    for (const name of OPERATION_NAMES) {
      const op = OPERATIONS[name];
      const shape = { query: 'query' in op, request: 'request' in op };
      expect(shape, name).toEqual(
        op.method === 'GET' ? { query: true, request: false } : { query: false, request: true },
      );
    }
  });

  it('the configuration falls back to the same query-parameter names', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).service.params).toEqual(DEFAULT_QUERY_PARAMS);
  });
});
