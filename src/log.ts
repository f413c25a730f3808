/**
 * pino with redaction. Secrets (service key, bearer token, Slack tokens and signing secret) and
 * personal data (BVN, date of birth, account numbers, passwords) are censored wherever they sit
 * in a log object; free text is never built from them in the first place.
 */
import { type DestinationStream, type Logger, pino } from 'pino';
import { maskUrlCredentials } from './domain/url-credentials.js';

export type { Logger };

const SENSITIVE_KEYS = [
  'x-service-key',
  'authorization',
  'Authorization',
  'token',
  'botToken',
  'appToken',
  'signingSecret',
  'apiKey',
  'bearerToken',
  'password',
  'secret',
  'metricsToken',
  'bvn',
  'iban',
  'dob',
  'account_number',
  'accountNumber',
  'key',
];

// pino's redact paths are exact; cover the key at the top and up to four levels down.
export const REDACT_PATHS = SENSITIVE_KEYS.flatMap((k) => {
  const key = /^[A-Za-z_$][\w$]*$/.test(k) ? k : `["${k}"]`;
  const dot = key.startsWith('[') ? key : `.${key}`;
  return [key.startsWith('[') ? key : k, `*${dot}`, `*.*${dot}`, `*.*.*${dot}`, `*.*.*.*${dot}`];
});

/**
 * ioredis attaches the failed command to its errors (`command: { name, args }`), and Bolt wraps a
 * listener's error with the original inside: a script's ARGV can hold a sealed request (a
 * beneficiary's name, an account). Only the command's name is kept, at any depth.
 */
function withoutCommandArgs(value: unknown, depth = 0): unknown {
  if (depth > 4 || value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = Array.isArray(value) ? ([] as unknown as Record<string, unknown>) : {};
  for (const [k, v] of Object.entries(value)) {
    if (k === 'command' && v && typeof v === 'object' && 'name' in v) out[k] = String((v as { name: unknown }).name);
    else if (k === 'args' && Array.isArray(v)) out[k] = `[${v.length} arguments]`;
    else out[k] = withoutCommandArgs(v, depth + 1);
  }
  return out;
}

function maskedErr(err: Error): ReturnType<typeof pino.stdSerializers.err> {
  const out = withoutCommandArgs(pino.stdSerializers.err(err)) as ReturnType<typeof pino.stdSerializers.err>;
  out.message = maskUrlCredentials(out.message);
  out.stack = maskUrlCredentials(out.stack);
  return out;
}

export interface LogOptions {
  level?: string;
  pretty?: boolean;
}

export function createLogger(options: LogOptions = {}, destination?: DestinationStream): Logger {
  const opts = {
    level: options.level ?? 'info',
    base: { app: 'rampart' },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    // A URL's user and password never reach a log line, in an error or a url field.
    serializers: { err: maskedErr, url: (u: unknown) => maskUrlCredentials(String(u)) },
  };
  if (destination) return pino(opts, destination);
  if (options.pretty) return pino({ ...opts, transport: { target: 'pino-pretty', options: { colorize: true } } });
  return pino(opts);
}
