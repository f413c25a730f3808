/**
 * The app is the one door: no member of its interface accepts or returns a store, a Redis client,
 * the service client or the queues. An adapter handed one could decide a rule itself. Checked by
 * the compiler (`npm run typecheck` runs over test/ too) and by this file's assertions: `Leaks`
 * names every path where such an object crosses the interface; the expected value is `never`.
 */
import type { Job, Queue } from 'bullmq';
import type { Cluster, Redis } from 'ioredis';
import { describe, expectTypeOf, it } from 'vitest';
import type { RampartApp } from '../../src/app/index.js';
import type { WorkerApp } from '../../src/app/worker-app.js';
import type { ServiceClient } from '../../src/service/client.js';
import type { ApiKeyStore } from '../../src/store/api-keys.js';
import type { BalanceCache } from '../../src/store/balance-cache.js';
import type { BalanceHistory } from '../../src/store/balance-history.js';
import type { BatchStore } from '../../src/store/batches.js';
import type { ControlStore, UnfreezeStore } from '../../src/store/controls.js';
import type { ExecutionStore } from '../../src/store/executions.js';
import type { IdempotencyStore } from '../../src/store/idempotency.js';
import type { PasskeyStore } from '../../src/store/passkeys.js';
import type { RateLimiter } from '../../src/store/rate-limiter.js';
import type { Registry } from '../../src/store/registry.js';
import type { RequestStore } from '../../src/store/requests.js';
import type { StepUpTokens } from '../../src/store/step-up-tokens.js';

type Forbidden =
  | RequestStore
  | ExecutionStore
  | BatchStore
  | ControlStore
  | UnfreezeStore
  | Registry
  | PasskeyStore
  | StepUpTokens
  | ApiKeyStore
  | IdempotencyStore
  | RateLimiter
  | BalanceCache
  | BalanceHistory
  | ServiceClient
  | Redis
  | Cluster
  | Queue
  | Job;

type Depth = [never, 0, 1, 2, 3, 4, 5];

/**
 * The dotted paths (members, `(args)`, `=>` for results, `[]` for elements) at which T holds a
 * forbidden object, looking `D` levels deep. Classes with private fields match only themselves,
 * so a plain record with the same public shape does not count.
 */
type Leaks<T, P extends string = 'app', D extends number = 6> = [D] extends [never]
  ? never
  : [T] extends [never]
    ? never
    : 0 extends 1 & T // any (a library's `thisArg`) says nothing about what crosses
      ? never
      : [T] extends [Forbidden]
        ? P
        : T extends (...args: infer A) => infer R
          ? Leaks<A[number], `${P}(args)`, Depth[D]> | Leaks<Awaited<R>, `${P}=>`, Depth[D]>
          : T extends readonly (infer E)[]
            ? Leaks<E, `${P}[]`, Depth[D]>
            : T extends object
              ? { [K in keyof T & string]-?: Leaks<T[K], `${P}.${K}`, Depth[D]> }[keyof T & string]
              : never;

describe('the app interface', () => {
  it('hands no store, Redis client, service client or queue across it', () => {
    expectTypeOf<Leaks<RampartApp>>().toEqualTypeOf<never>();
    expectTypeOf<Leaks<WorkerApp>>().toEqualTypeOf<never>();
  });

  it('would name a member that did (the check can fail)', () => {
    type Leaky = { reads: { store: () => RequestStore; fine: () => Promise<{ id: string }> } };
    expectTypeOf<Leaks<Leaky>>().toEqualTypeOf<'app.reads.store=>'>();
  });
});
