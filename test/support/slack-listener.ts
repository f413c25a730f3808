/**
 * A Slack listener called as a function, the way Bolt's starter app tests its listeners: the
 * arguments Bolt would pass, with a fake `ack`, `respond` and Web API client that record what the
 * listener said. No Redis, no sockets: the use cases behind `deps.app` are whatever a test stubs.
 */
import type { View } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { type UserInput, viewStateValues } from '../../devkit/view-state.js';
import type { Deps } from '../../src/adapters/slack/deps.js';
import type { ActionHandler, CommandHandler, ViewHandler } from '../../src/adapters/slack/routes.js';
import type { RampartApp } from '../../src/app/index.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { LogSink } from './log-sink.js';

/** One Web API call the listener made: `views.open`, `chat.postEphemeral`… with its arguments. */
export interface ClientCall {
  method: string;
  args: Record<string, unknown>;
}

/** What a Web API method answers; a thrown error stands for Slack refusing the call. */
export type ClientAnswers = Record<string, (args: Record<string, unknown>) => unknown>;

const DEFAULT_ANSWERS: ClientAnswers = {
  'views.open': () => ({ ok: true, view: { id: 'V0FAKE', hash: 'h0' } }),
  'conversations.info': () => ({ ok: true, channel: {} }),
};

/** A WebClient whose every method records its call and answers `{ ok: true }` unless told otherwise. */
export function fakeClient(answers: ClientAnswers = {}): { client: WebClient; calls: ClientCall[] } {
  const calls: ClientCall[] = [];
  const table = { ...DEFAULT_ANSWERS, ...answers };
  const at = (path: string[]): unknown =>
    new Proxy(() => {}, {
      get: (_t, key) => (typeof key === 'string' && key !== 'then' ? at([...path, key]) : undefined),
      apply: async (_t, _this, [args]: [Record<string, unknown>]) => {
        const method = path.join('.');
        calls.push({ method, args });
        return (table[method] ?? (() => ({ ok: true })))(args);
      },
    });
  return { client: at([]) as WebClient, calls };
}

export interface ListenerDeps {
  /** Configuration as the environment would give it (over a minimal valid one). */
  env?: Record<string, string>;
  /** The use cases the listener reaches: only what the test needs, anything else fails loudly. */
  app?: Record<string, unknown>;
  sandbox?: boolean;
}

/** Deps for a listener: a real config and logger, the façade stubbed by the test. */
export function listenerDeps(o: ListenerDeps = {}): { deps: Deps; logs: LogSink } {
  const logs = new LogSink();
  const config = loadConfig({
    NODE_ENV: 'test',
    WALLETS: 'ops=wal_ops_7f3a,treasury=wal_treasury_91c2',
    APPROVALS_CHANNEL: 'C0APPROVALS',
    APPROVERS: 'U0APPROVER1,U0APPROVER2,S0TREASURY',
    ...o.env,
  });
  const app = new Proxy(o.app ?? {}, {
    get: (stubs, key) => {
      if (typeof key === 'string' && key in stubs) return stubs[key];
      throw new Error(`the test stubbed no deps.app.${String(key)}`);
    },
  }) as unknown as RampartApp;
  const deps: Deps = {
    config,
    log: createLogger({ level: 'debug' }, logs),
    now: () => Date.UTC(2026, 0, 15, 12),
    approvers: { isApprover: async (u: string) => config.approvers.includes(u) } as unknown as Deps['approvers'],
    sandbox: o.sandbox ?? false,
    app,
  };
  return { deps, logs };
}

/** What one call of a listener left behind. */
export interface Heard {
  /** Each ack's argument (undefined for a bare ack). */
  acks: unknown[];
  /** Each respond()'s message. */
  responds: Record<string, unknown>[];
  calls: ClientCall[];
  /** The ack's text, or '' for a bare ack; fails when the listener did not ack exactly once. */
  ackText(): string;
  /** The texts the asker saw after the ack: respond() and postEphemeral, in order. */
  said(): string[];
  /** A modal's answer: the field errors of its one ack, or {} when it acked without errors. */
  errors(): Record<string, string>;
}

/** The arguments every listener gets, recording what it answers; `heard()` reads them back. */
function listening(answers: ClientAnswers | undefined): { args: Record<string, unknown>; heard: Heard } {
  const acks: unknown[] = [];
  const responds: Record<string, unknown>[] = [];
  const { client, calls } = fakeClient(answers);
  const once = () => {
    if (acks.length !== 1) throw new Error(`the listener acked ${acks.length} times`);
    return acks[0] as { text?: string; response_action?: string; errors?: Record<string, string> } | undefined;
  };
  const heard: Heard = {
    acks,
    responds,
    calls,
    ackText: () => once()?.text ?? '',
    said() {
      const privately = calls.filter((c) => c.method === 'chat.postEphemeral').map((c) => String(c.args.text));
      return [...responds.map((r) => String(r.text)), ...privately];
    },
    errors: () => once()?.errors ?? {},
  };
  const args = {
    client,
    ack: async (answer?: unknown) => void acks.push(answer),
    respond: async (message: Record<string, unknown>) => void responds.push(message),
    say: async () => {
      throw new Error('a listener answers privately or in its thread, never with say()');
    },
    logger: console,
    context: {},
    next: async () => {},
  };
  return { args, heard };
}

export interface Asker {
  user?: string;
  /** Where the click or command came from; null for none (App Home, a modal). */
  channel?: string | null;
  answers?: ClientAnswers;
}

/** Runs a slash command's listener with `text` typed by `user` in `channel`. */
export async function runCommand(handler: CommandHandler, text: string, o: Asker = {}): Promise<Heard> {
  const { args, heard } = listening(o.answers);
  const command = {
    command: '/test',
    text,
    user_id: o.user ?? 'U0REQUESTER',
    channel_id: o.channel ?? 'C0GENERAL',
    trigger_id: 'T0TRIGGER',
    response_url: 'http://127.0.0.1:9/never-called',
  };
  await handler({ ...args, command, body: command, payload: command } as unknown as Parameters<CommandHandler>[0]);
  return heard;
}

/** A click: a button's `value`, or an overflow menu's `selected` option. */
export interface Click extends Asker {
  value?: string;
  selected?: string;
  actionId?: string;
  /** The App Home or modal view the button sits in. */
  view?: Record<string, unknown>;
}

/** Runs a block action's listener as Slack sends a click by `user` (an approver unless told) in `channel`. */
export async function runAction<A extends Parameters<ActionHandler>[0]['body']>(
  handler: ActionHandler<A>,
  o: Click = {},
): Promise<Heard> {
  const { args, heard } = listening(o.answers);
  const channel = o.channel === undefined ? 'C0APPROVALS' : o.channel;
  const action = {
    type: o.selected === undefined ? 'button' : 'overflow',
    action_id: o.actionId ?? 'test_action',
    block_id: 'b0',
    action_ts: '1.000001',
    ...(o.value === undefined ? {} : { value: o.value }),
    ...(o.selected === undefined ? {} : { selected_option: { value: o.selected } }),
  };
  const body = {
    type: 'block_actions',
    user: { id: o.user ?? 'U0APPROVER1' },
    ...(channel === null ? {} : { channel: { id: channel } }),
    ...(o.view === undefined ? {} : { view: o.view }),
    trigger_id: 'T0TRIGGER',
    response_url: 'http://127.0.0.1:9/never-called',
    actions: [action],
  };
  await handler({ ...args, action, body, payload: action } as unknown as Parameters<ActionHandler<A>>[0]);
  return heard;
}

/** Runs a modal's submission listener: `modal` as opened, with `inputs` typed by `user` (keyed by action_id). */
export async function runView(
  handler: ViewHandler,
  modal: View,
  inputs: Readonly<Record<string, UserInput>> = {},
  o: Omit<Asker, 'channel'> = {},
): Promise<Heard> {
  const { args, heard } = listening(o.answers);
  const view = {
    ...modal,
    id: 'V0FORM',
    hash: 'h0',
    private_metadata: modal.private_metadata ?? '',
    callback_id: modal.callback_id ?? '',
    state: { values: viewStateValues(modal.blocks, inputs) },
  };
  const body = { type: 'view_submission', user: { id: o.user ?? 'U0APPROVER1' }, view };
  await handler({ ...args, view, body, payload: view } as unknown as Parameters<ViewHandler>[0]);
  return heard;
}

/** A table of façade outcomes and what each makes the listener say, named by the outcome's kind for `it.each`. */
export const byKind = <O extends { kind: string }>(rows: readonly (readonly [O, string])[]) =>
  rows.map(([outcome, said]) => ({ kind: outcome.kind, outcome, said }));

/** Client answers in which Slack refuses `method` with `error` (as the Web API throws it). */
export const slackRefuses = (method: string, error: string): ClientAnswers => ({
  [method]: () => {
    throw new Error(error);
  },
});
