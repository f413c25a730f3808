/** What a Web API method handler gets to work with, and the shape of its answer. */
import type { BlockKitSurface } from './block-kit-limits.js';
import type { IdSource } from './ids.js';
import type { SlackStore } from './store.js';
import type { TriggerRegistry } from './triggers.js';
import type { FakeSettings, JsonObject } from './types.js';

export type ApiResult = JsonObject & { ok: boolean };

export interface WebApiEnv {
  settings: FakeSettings;
  store: SlackStore;
  ids: IdSource;
  triggers: TriggerRegistry;
  /** An `invalid_blocks` answer when `payload` breaks Block Kit limits (recording the violations). */
  checkLimits(method: string, kind: BlockKitSurface, payload: unknown): ApiResult | undefined;
}

export type MethodHandler = (args: JsonObject, env: WebApiEnv) => ApiResult;

export const fail = (error: string, extra: JsonObject = {}): ApiResult => ({ ok: false, error, ...extra });

export const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
