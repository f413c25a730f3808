/**
 * What every Slack listener receives (one bag, not two that overlap). Use cases are
 * reached through `app` only; the rest is what the edge itself needs: the
 * configuration, the log and clock, who may see approver-only lines, the sandbox note, and App
 * Home's refresher. Built once by the composition root (compose/app-deps.ts) after the façade.
 */
import type { AppDeps } from '../../app/deps.js';
import type { RampartApp } from '../../app/index.js';
import type { HomeRefresher } from './home-refresh.js';

/** `approvers`: App Home's "needs your vote" list only; every decision is checked again by its use case. */
export type Deps = Pick<AppDeps, 'config' | 'log' | 'now' | 'approvers'> & {
  /** True when running against the built-in sandbox: every message says so. */
  sandbox: boolean;
  /** The use cases bound to their ports; listeners read and submit through it. */
  app: RampartApp;
  /** App Home refreshed on outcomes and freezes, at most once a minute per person. */
  homeRefresh?: Pick<HomeRefresher, 'opened' | 'changed'>;
};
