/**
 * Reading the service's answer (spec 2.1 and 7): the envelope on success; on failure an
 * envelope with success=false, other JSON, HTML or nothing. Every failure is a ServiceError;
 * only the service's own well-formed refusal is marked `refused` (classify.ts).
 */
import type { z } from 'zod';
import { isServiceRefusal } from './classify.js';
import { type Operation, ServiceError } from './errors.js';
import * as s from './schemas.js';

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

// Building a zod schema per response is measurable on the hot path (bench/): one per operation.
const envelopes = new WeakMap<z.ZodType, z.ZodType>();
function envelopeFor(schema: z.ZodType): z.ZodType<{ data: unknown }> {
  let e = envelopes.get(schema);
  if (!e) {
    e = s.envelope(schema);
    envelopes.set(schema, e);
  }
  return e as z.ZodType<{ data: unknown }>;
}

/**
 * spec 2.1 and 7: error bodies may be an envelope, other JSON, HTML or empty. `mask` cleans the
 * service's words (configured secrets, personal data) before they go anywhere.
 */
export function parseResponse<Res>(
  operation: Operation,
  schema: z.ZodType<Res>,
  status: number,
  text: string,
  mask: (text: string) => string = (t) => t,
): Res {
  const json = parseJson(text);
  const failed = s.errorEnvelope.safeParse(json);
  const rawMessage = failed.success
    ? failed.data.message
    : typeof (json as { message?: unknown } | undefined)?.message === 'string'
      ? (json as { message: string }).message
      : undefined;
  const serviceMessage = rawMessage === undefined ? undefined : mask(rawMessage);
  const refused = isServiceRefusal(status, json);
  if (status >= 500) {
    return fail('SERVICE_UNAVAILABLE', `${operation}: the service failed with HTTP ${status}`);
  }
  if (status >= 300) {
    return fail('SERVICE_REJECTED', `${operation}: the service refused the request (HTTP ${status})`);
  }
  if (failed.success) {
    // A 200 that says success=false is a refusal, whatever the HTTP status.
    return fail('SERVICE_REJECTED', `${operation}: the service refused the request`, failed.data.status);
  }
  const parsed = envelopeFor(schema).safeParse(json);
  if (!parsed.success) {
    const detail = json === undefined ? 'the body is not JSON' : s.describeZodError(parsed.error).message;
    return fail('SERVICE_BAD_RESPONSE', `${operation}: the service answered in an unexpected shape (${mask(detail)})`);
  }
  return parsed.data.data as Res;

  function fail(
    code: 'SERVICE_UNAVAILABLE' | 'SERVICE_REJECTED' | 'SERVICE_BAD_RESPONSE',
    message: string,
    envelopeStatus?: number,
  ): never {
    throw new ServiceError(code, message, {
      operation,
      status: envelopeStatus ?? status,
      serviceMessage,
      mayHaveReached: true,
      refused,
    });
  }
}
