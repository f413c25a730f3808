/**
 * The service contract, declared once (spec sections 4 and 5): each
 * operation's method, path, auth, query parameter, request and response schemas, success status,
 * and whether repeating it is harmless. The client's calls, time-outs and retries and the
 * sandbox's routes are all derived from this table.
 */
import type { z } from 'zod';
import type { QueryParams } from '../config.js';
import * as s from './schemas.js';

export { DEFAULT_QUERY_PARAMS, type QueryParams } from '../config.js';

export interface OperationSpec {
  method: 'GET' | 'POST';
  path: string;
  /** spec 5: x-service-key, or Authorization: Bearer for POST /user. */
  auth: 'key' | 'bearer';
  /** A GET's one query parameter, named by QueryParams. */
  query?: keyof QueryParams;
  request?: z.ZodType;
  /** The `data` of the success envelope (spec 2.1). */
  response: z.ZodType;
  /** The success status spec 4 gives. */
  status: 200 | 201;
  /** Repeating it cannot act twice: reads are retried, the rest never (DESIGN invariant 3). */
  idempotent: boolean;
}

export const OPERATIONS = {
  // spec 4.1
  createUser: {
    method: 'POST',
    path: '/user',
    auth: 'bearer',
    request: s.createUserRequest,
    response: s.userCreated,
    status: 200,
    idempotent: false,
  },
  // spec 4.2
  transfer: {
    method: 'POST',
    path: '/transfer',
    auth: 'key',
    request: s.transferRequest,
    response: s.transferResult,
    status: 200,
    idempotent: false,
  },
  // spec 4.3
  createBeneficiary: {
    method: 'POST',
    path: '/beneficiary',
    auth: 'key',
    request: s.createBeneficiaryRequest,
    response: s.idResult,
    status: 201,
    idempotent: false,
  },
  // spec 4.4
  offramp: {
    method: 'POST',
    path: '/offramp',
    auth: 'key',
    request: s.offrampRequest,
    response: s.offrampResult,
    status: 200,
    idempotent: false,
  },
  // spec 4.5
  createIdentity: {
    method: 'POST',
    path: '/identity',
    auth: 'key',
    request: s.createIdentityRequest,
    response: s.identityCreated,
    status: 201,
    idempotent: false,
  },
  // spec 4.6
  getIdentity: {
    method: 'GET',
    path: '/identity',
    auth: 'key',
    query: 'identity',
    response: s.identity,
    status: 200,
    idempotent: true,
  },
  // spec 4.7: a POST, but it only reads.
  lookupAccount: {
    method: 'POST',
    path: '/lookup',
    auth: 'key',
    request: s.lookupRequest,
    response: s.accountLookup,
    status: 200,
    idempotent: true,
  },
  // spec 4.8
  getWallet: {
    method: 'GET',
    path: '/wallet',
    auth: 'key',
    query: 'wallet',
    response: s.wallet,
    status: 200,
    idempotent: true,
  },
  // spec 4.9
  getBalances: {
    method: 'GET',
    path: '/balances',
    auth: 'key',
    query: 'balances',
    response: s.balanceEntry.array(),
    status: 200,
    idempotent: true,
  },
  // spec 4.10
  getOnrampRate: {
    method: 'GET',
    path: '/rate/onramp',
    auth: 'key',
    query: 'rate',
    response: s.rate,
    status: 200,
    idempotent: true,
  },
} as const satisfies Record<string, OperationSpec>;

export type Operation = keyof typeof OPERATIONS;

/** The request body an operation takes (validated by its schema before sending). */
export type RequestOf<K extends Operation> = (typeof OPERATIONS)[K] extends { request: z.ZodType<infer R> }
  ? R
  : undefined;
export type ResponseOf<K extends Operation> = z.output<(typeof OPERATIONS)[K]['response']>;

export const OPERATION_NAMES = Object.keys(OPERATIONS) as Operation[];

export const isIdempotent = (operation: Operation): boolean => OPERATIONS[operation].idempotent;
