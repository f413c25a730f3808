/**
 * The OpenAPI 3.1 document of /api/v1, generated from the zod schemas that validate
 * and shape every call (api/schemas.ts), never written by hand. Served at GET /api/v1/openapi.json
 * and linted in CI (`npm run lint:openapi`).
 */
import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import {
  batchBody,
  executionList,
  executionsQuery,
  listQuery,
  offrampBody,
  problemView,
  requestList,
  requestView,
  transferBody,
} from './schemas.js';

const json = (schema: z.ZodType, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});
const problems = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((s) => [
      String(s),
      { description: PROBLEM_TEXT[s] ?? 'Refused', content: { 'application/problem+json': { schema: problemView } } },
    ]),
  );
const PROBLEM_TEXT: Record<number, string> = {
  400: 'A field, the JSON or the Idempotency-Key is wrong (code, pointer and sentence in the body)',
  401: 'No valid API key',
  403: 'The key lacks the scope, or a limit of the key refuses it',
  404: 'No such request readable with this key',
  408: 'The body arrived too slowly',
  409: 'In flight, frozen, or not pending',
  413: 'Body over 1 MB',
  415: 'Not application/json',
  422: 'Idempotency-Key reused with another body, or a rule refused the amount',
  429: 'Over API_RATE for this key (Retry-After)',
  503: 'The wallet service or Redis did not answer; nothing was submitted (Retry-After)',
};

const idempotencyKey = z.string().min(1).max(255).meta({
  description: 'Required on every POST. The same key and body replay the first answer.',
  example: '6f1c2f5e-3f7a-4d8e-9b0a-2c1e5d7f9a10',
});
const requestId = z.string().meta({ param: { name: 'id', in: 'path' }, example: 'R-1042' });

const OPERATION: Record<string, string> = {
  '/transfers': 'createTransfer',
  '/offramps': 'createOfframp',
  '/batches': 'createBatch',
};

function createRoute(path: string, body: z.ZodType, summary: string): RouteConfig {
  return {
    method: 'post',
    path,
    summary,
    operationId: OPERATION[path] ?? path,
    security: [{ apiKey: [] }],
    request: {
      headers: z.object({ 'Idempotency-Key': idempotencyKey }),
      body: { required: true, content: { 'application/json': { schema: body } } },
    },
    responses: {
      '201': json(requestView, 'Created, pending approval in Slack'),
      ...problems(400, 401, 403, 408, 409, 413, 415, 422, 429, 503),
    },
  };
}

export function openApiDocument(): Record<string, unknown> {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'apiKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key from `rampart api-keys create` (rmp_…).',
  });
  registry.registerPath(createRoute('/transfers', transferBody, 'Request a transfer (approved in Slack)'));
  registry.registerPath(createRoute('/offramps', offrampBody, 'Request an offramp (approved in Slack)'));
  registry.registerPath(
    createRoute(
      '/batches',
      batchBody,
      'Request a batch of transfers or offramps: one approval in Slack, one execution per row',
    ),
  );
  registry.registerPath({
    method: 'get',
    path: '/requests/{id}',
    operationId: 'getRequest',
    summary: 'A request: state, history, executions and outcome',
    security: [{ apiKey: [] }],
    request: { params: z.object({ id: requestId }) },
    responses: { '200': json(requestView, 'The request'), ...problems(401, 403, 404, 429, 503) },
  });
  registry.registerPath({
    method: 'get',
    path: '/schedules/{id}',
    operationId: 'getSchedule',
    summary: 'A series (S- id): its schedule and run times, state and history',
    security: [{ apiKey: [] }],
    request: { params: z.object({ id: z.string().meta({ param: { name: 'id', in: 'path' }, example: 'S-1043' }) }) },
    responses: { '200': json(requestView, 'The series'), ...problems(401, 403, 404, 429, 503) },
  });
  registry.registerPath({
    method: 'get',
    path: '/requests/{id}/executions',
    operationId: 'listExecutions',
    summary: 'A request’s executions in order (a batch’s rows beyond the first page)',
    security: [{ apiKey: [] }],
    request: { params: z.object({ id: requestId }), query: executionsQuery },
    responses: { '200': json(executionList, 'One page'), ...problems(400, 401, 403, 404, 429, 503) },
  });
  registry.registerPath({
    method: 'get',
    path: '/requests',
    operationId: 'listRequests',
    summary: 'Requests made through the API, newest first',
    security: [{ apiKey: [] }],
    request: { query: listQuery },
    responses: { '200': json(requestList, 'One page'), ...problems(400, 401, 403, 429, 503) },
  });
  registry.registerPath({
    method: 'post',
    path: '/requests/{id}/cancel',
    operationId: 'cancelRequest',
    summary: 'Cancel a pending request this key made',
    security: [{ apiKey: [] }],
    request: { params: z.object({ id: requestId }), headers: z.object({ 'Idempotency-Key': idempotencyKey }) },
    responses: { '200': json(requestView, 'Cancelled'), ...problems(400, 401, 403, 404, 409, 422, 429, 503) },
  });
  const doc = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Rampart API',
      version: '1.0.0',
      description: 'Request payments from other systems; people approve them in Slack.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/api/v1' }],
    security: [{ apiKey: [] }],
  });
  return doc as unknown as Record<string, unknown>;
}
