/**
 * `rampart api-keys create | list | revoke`: keys for other systems to request
 * payments over the HTTP API. The token is printed once; Rampart keeps only its hash.
 */
import { parseDuration } from '../../../config.js';
import {
  API_SCOPES,
  type ApiKey,
  type ApiKeyLimits,
  DEFAULT_KEY_LIFETIME_MS,
  DEFAULT_MAX_OPEN,
  isApiScope,
  keyLimitsProblem,
  keyState,
} from '../../../domain/api-key.js';
import { describeUnknownAsset, parseAssetId } from '../../../domain/assets.js';
import { type Command, type Input, positionals, stringOption } from '../args.js';
import { formatTime } from '../format-requests.js';
import { CliError, UsageError } from '../problems.js';
import { keyValues, table } from '../table.js';

const list = (text: string | undefined) =>
  text === undefined
    ? undefined
    : text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);

interface Parsed {
  name: string;
  owner: string;
  scopes: ApiKey['scopes'];
  limits: ApiKeyLimits;
  lifetimeMs: number | undefined;
}

/** The create options, each wrong one refused with the option's name (exit 2). */
export function parseCreate(input: Input, walletAliases: readonly string[] | undefined): Parsed {
  const name = stringOption(input, 'name', true).trim();
  if (!/^[a-z0-9][a-z0-9_-]{0,39}$/i.test(name))
    throw new UsageError('--name must be 1 to 40 letters, digits, - or _ (e.g. erp)');
  const owner = stringOption(input, 'owner', true).trim();
  if (!/^[UW][A-Z0-9]{2,}$/.test(owner)) throw new UsageError('--owner must be a Slack user id such as U0123ABCD');
  const scopes = list(stringOption(input, 'scopes', true)) ?? [];
  const bad = scopes.find((s) => !isApiScope(s));
  if (bad !== undefined || scopes.length === 0)
    throw new UsageError(`--scopes must list some of ${API_SCOPES.join(', ')}${bad ? ` ("${bad}" is not one)` : ''}`);
  const wallets = list(stringOption(input, 'wallets'))?.map((w) => w.toLowerCase());
  const unknownWallet = wallets?.find((w) => walletAliases && !walletAliases.includes(w));
  if (unknownWallet) throw new UsageError(`--wallets "${unknownWallet}" is not a configured wallet alias`);
  const assets = list(stringOption(input, 'assets'));
  for (const a of assets ?? []) if (!parseAssetId(a)) throw new UsageError(`--assets: ${describeUnknownAsset(a)}`);
  const maxAmount = stringOption(input, 'max-amount')?.trim();
  const maxOpenText = stringOption(input, 'max-open') ?? String(DEFAULT_MAX_OPEN);
  const maxOpen = Number(maxOpenText);
  if (!/^\d+$/.test(maxOpenText) || maxOpen < 1 || maxOpen > 10_000)
    throw new UsageError('--max-open must be a whole number from 1 to 10000');
  const expires = stringOption(input, 'expires')?.trim() ?? '90d';
  const lifetimeMs = expires === 'never' ? undefined : parseDuration(expires);
  if (expires !== 'never' && !lifetimeMs)
    throw new UsageError('--expires must be a duration such as 90d or 12h, or never');
  const limits: ApiKeyLimits = {
    maxOpen,
    allowNewDestinations: input.values['allow-new-destinations'] === true,
    ...(wallets ? { wallets } : {}),
    ...(assets ? { assets: assets.map((a) => parseAssetId(a) ?? a) } : {}),
    ...(maxAmount === undefined ? {} : { maxAmount }),
  };
  // As typed (a comma only groups thousands); the rule that refuses every request of a stored key
  // whose limits cannot be read.
  const limitsProblem = keyLimitsProblem(limits);
  if (limitsProblem) throw new UsageError(limitsProblem);
  if (maxAmount !== undefined) limits.maxAmount = maxAmount.replace(/[,_]/g, '');
  return {
    name,
    owner,
    scopes: scopes.filter(isApiScope),
    limits,
    lifetimeMs: lifetimeMs ?? (expires === 'never' ? undefined : DEFAULT_KEY_LIFETIME_MS),
  };
}

export const apiKeysCreateCommand: Command = {
  words: ['api-keys', 'create'],
  args: '--name N --owner U… --scopes requests:create,requests:read [--wallets a,b] [--assets base:usdc,…] [--max-amount A] [--max-open N] [--expires 90d|never] [--allow-new-destinations]',
  summary: 'Create an API key for the HTTP API; prints the key once (only its hash is kept).',
  options: {
    name: { type: 'string' },
    owner: { type: 'string' },
    scopes: { type: 'string' },
    wallets: { type: 'string' },
    assets: { type: 'string' },
    'max-amount': { type: 'string' },
    'max-open': { type: 'string' },
    expires: { type: 'string' },
    'allow-new-destinations': { type: 'boolean' },
  },
  prepare(input) {
    positionals(input, []);
    parseCreate(input, undefined); // argument errors before anything is opened
    return async (ctx) => {
      const parsed = parseCreate(
        input,
        ctx.config.wallets.map((w) => w.alias),
      );
      const created = await (await ctx.app()).apiKeys.create(parsed);
      if (created.kind === 'invalid-limits') throw new UsageError(created.message);
      if (created.kind === 'name-taken')
        throw new CliError(`An API key named ${parsed.name} already exists; revoke it first or choose another name.`);
      ctx.answer(
        keyValues([
          ['Name', created.key.name],
          ['Key', created.token],
        ]),
        { ...created.key, token: created.token },
      );
      ctx.note(
        'Store this key now (e.g. in your secret manager): it is shown only this once and Rampart keeps only its hash.',
      );
    };
  },
};

const limitsText = (l: ApiKeyLimits): string =>
  [
    l.wallets ? `wallets ${l.wallets.join('/')}` : 'any wallet',
    l.assets ? `assets ${l.assets.join('/')}` : 'any asset',
    l.maxAmount ? `max ${l.maxAmount}` : 'no max',
    `open ≤ ${l.maxOpen}`,
    l.allowNewDestinations ? 'new destinations' : 'known destinations only',
  ].join(', ');

export const apiKeysListCommand: Command = {
  words: ['api-keys', 'list'],
  args: '',
  summary: 'API keys: name, owner, scopes, limits, created, last used, expiry, state.',
  prepare(input) {
    positionals(input, []);
    return async (ctx) => {
      const keys = await (await ctx.app()).apiKeys.list();
      const now = Date.now();
      const when = (ms: number | undefined) => (ms === undefined ? '-' : formatTime(ms));
      const text = table(
        ['Name', 'Owner', 'Scopes', 'Limits', 'Created', 'Last used', 'Expires', 'State'].map((title) => ({ title })),
        keys.map((k) => [
          k.name,
          k.owner,
          k.scopes.join(' '),
          limitsText(k.limits),
          when(k.createdAt),
          when(k.lastUsedAt),
          when(k.expiresAt),
          keyState(k, now),
        ]),
      );
      ctx.answer(
        keys.length === 0 ? 'No API keys.' : text,
        keys.map((k) => ({ ...k, state: keyState(k, now) })),
      );
    };
  },
};

export const apiKeysRevokeCommand: Command = {
  words: ['api-keys', 'revoke'],
  args: '<name>',
  summary: 'Revoke an API key by name: it answers 401 from then on.',
  prepare(input) {
    const [name = ''] = positionals(input, ['<name>']);
    return async (ctx) => {
      const revoked = await (await ctx.app()).apiKeys.revoke(name);
      if (!revoked) throw new CliError(`No active API key is named ${name}; see rampart api-keys list.`);
      ctx.answer(`Revoked API key ${revoked.name}.`, revoked);
    };
  },
};
