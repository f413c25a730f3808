/**
 * What one person sees right now, read from the fake Slack and rendered to HTML: channels with
 * their messages and threads (ephemerals only for that person), Rampart's direct messages to them, the top modal of their view
 * stack with its field errors, and their App Home. GET /api/state answers with this.
 */
import type { FakeSlack, StoredEphemeral, StoredMessage, StoredView } from '../fake-slack/index.js';
import type { SlashCommand } from './manifest-commands.js';
import { blocksHtml, messageBodyHtml, type RenderContext } from './render/blocks.js';
import { escapeHtml } from './render/html.js';
import { textOf } from './render/mrkdwn.js';
import type { Workspace, WorkspacePerson } from './workspace.js';

export interface MessageState {
  channel: string;
  ts: string;
  /** HH:MM on this machine's clock. */
  time: string;
  text: string;
  blocks: unknown[];
  html: string;
  ephemeral: boolean;
  edited: boolean;
  replies: MessageState[];
}

export interface ChannelState {
  id: string;
  name: string;
  messages: MessageState[];
}

export interface ModalState {
  id: string;
  hash: string;
  /** How many views are stacked (1 for a modal with nothing pushed on it). */
  depth: number;
  title: string;
  submit: string | null;
  close: string;
  callbackId: string;
  html: string;
  /** Field errors from the last submission, by block_id. */
  errors: Record<string, string>;
  view: StoredView;
}

export interface HomeState {
  id: string;
  hash: string;
  html: string;
}

export interface WorkbenchState {
  user: string;
  people: WorkspacePerson[];
  channels: ChannelState[];
  /** Rampart's direct messages to this person (posted with `channel` set to their user id). */
  dm: ChannelState;
  approvalsChannel: string;
  modal: ModalState | null;
  home: HomeState | null;
  commands: SlashCommand[];
  /** Calls Slack would have refused (Block Kit limit violations included), newest last. */
  problems: string[];
}

export interface StateSources {
  fake: FakeSlack;
  workspace: Workspace;
  commands: SlashCommand[];
  errorsFor(viewId: string): Record<string, string>;
}

/** Slack lists an app's direct messages under the app, in its Messages tab. */
export const DM_NAME = 'Rampart (messages)';

const byTs = (a: { ts: string }, b: { ts: string }): number => a.ts.localeCompare(b.ts, 'en', { numeric: true });

const timeOf = (ts: string): string =>
  new Date(Number(ts.split('.')[0]) * 1000).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });

export function renderContext(fake: FakeSlack, workspace: Workspace): RenderContext {
  return {
    personName: (id) => fake.person(id)?.name,
    channelName: (id) => fake.channel(id)?.name,
    people: workspace.people,
    channels: workspace.channels,
  };
}

/** Files shared with a message, each a link the page can open or save. */
function filesHtml(files: readonly Record<string, unknown>[] | undefined): string {
  return (files ?? [])
    .map((f) => {
      const name = typeof f.name === 'string' ? f.name : 'file';
      const size = typeof f.size === 'number' ? ` · ${(f.size / 1024).toFixed(1)} KB` : '';
      return `<div class="bk-block bk-file-share">📎 <a href="/api/file?id=${encodeURIComponent(String(f.id))}" download>${escapeHtml(name)}</a>${size}</div>`;
    })
    .join('');
}

function messageState(m: StoredMessage | StoredEphemeral, ctx: RenderContext, replies: MessageState[]): MessageState {
  return {
    channel: m.channel,
    ts: m.ts,
    time: timeOf(m.ts),
    text: m.text,
    blocks: m.blocks,
    html: messageBodyHtml(m, ctx) + filesHtml(m.files),
    ephemeral: 'recipient' in m,
    edited: m.edited !== undefined,
    replies,
  };
}

function channelState(sources: StateSources, user: string, id: string, name: string, ctx: RenderContext) {
  const { fake } = sources;
  const ephemerals = fake.ephemerals(user).filter((e) => e.channel === id);
  const isReply = (m: StoredMessage) => m.thread_ts !== undefined && m.thread_ts !== m.ts;
  const repliesTo = (ts: string): MessageState[] =>
    [...fake.thread(id, ts), ...ephemerals.filter((e) => isReply(e) && e.thread_ts === ts)]
      .sort(byTs)
      .map((r) => messageState(r, ctx, []));
  const top = [...fake.messages(id), ...ephemerals.filter((e) => !isReply(e))].sort(byTs);
  return { id, name, messages: top.map((m) => messageState(m, ctx, repliesTo(m.ts))) };
}

function modalState(sources: StateSources, user: string, ctx: RenderContext): ModalState | null {
  const stack = sources.fake.views(user);
  const view = stack.at(-1);
  if (!view) return null;
  return {
    id: view.id,
    hash: view.hash,
    depth: stack.length,
    title: textOf(view.title),
    submit: view.submit ? textOf(view.submit) : null,
    close: view.close ? textOf(view.close) : stack.length > 1 ? 'Back' : 'Cancel',
    callbackId: view.callback_id,
    html: blocksHtml(view.blocks, ctx),
    errors: sources.errorsFor(view.id),
    view,
  };
}

export function workbenchState(sources: StateSources, user: string): WorkbenchState {
  const { fake, workspace } = sources;
  const ctx = renderContext(fake, workspace);
  const home = fake.home(user);
  return {
    user,
    people: workspace.people,
    channels: workspace.channels.map((c) => channelState(sources, user, c.id, c.name, ctx)),
    dm: channelState(sources, user, user, DM_NAME, ctx),
    approvalsChannel: workspace.approvalsChannel,
    modal: modalState(sources, user, ctx),
    home: home ? { id: home.id, hash: home.hash, html: blocksHtml(home.blocks, ctx) } : null,
    commands: sources.commands,
    problems: fake.problems.slice(-20),
  };
}
