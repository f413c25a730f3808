/** What the fake workspace currently shows: channel messages, threads, ephemerals and open views. */
import type { StoredEphemeral, StoredMessage, StoredView } from './types.js';

export interface MessagePatch {
  text?: string;
  blocks?: unknown[];
  editedTs?: string;
}

function applyPatch<M extends StoredMessage>(message: M, patch: MessagePatch, editor: string): void {
  if (patch.text !== undefined) message.text = patch.text;
  if (patch.blocks !== undefined) message.blocks = patch.blocks;
  if (patch.editedTs !== undefined) message.edited = { user: editor, ts: patch.editedTs };
}

export class SlackStore {
  #messages: StoredMessage[] = [];
  #ephemerals: StoredEphemeral[] = [];
  /** User id → modal view stack, bottom first. */
  #stacks = new Map<string, StoredView[]>();
  #homes = new Map<string, StoredView>();

  reset(): void {
    this.#messages = [];
    this.#ephemerals = [];
    this.#stacks.clear();
    this.#homes.clear();
  }

  addMessage(message: StoredMessage): void {
    this.#messages.push(message);
  }

  findMessage(channel: string, ts: string): StoredMessage | undefined {
    return this.#messages.find((m) => m.channel === channel && m.ts === ts);
  }

  updateMessage(channel: string, ts: string, patch: MessagePatch): StoredMessage | undefined {
    const message = this.findMessage(channel, ts);
    if (message) applyPatch(message, patch, message.user);
    return message;
  }

  deleteMessage(channel: string, ts: string): boolean {
    const before = this.#messages.length;
    this.#messages = this.#messages.filter((m) => !(m.channel === channel && m.ts === ts));
    return this.#messages.length < before;
  }

  /** Top-level messages of a channel, oldest first, as they read now. */
  messages(channel: string): StoredMessage[] {
    return structuredClone(
      this.#messages.filter((m) => m.channel === channel && (m.thread_ts === undefined || m.thread_ts === m.ts)),
    );
  }

  /** Replies in a thread, oldest first, without the parent message. */
  thread(channel: string, ts: string): StoredMessage[] {
    return structuredClone(this.#messages.filter((m) => m.channel === channel && m.thread_ts === ts && m.ts !== ts));
  }

  addEphemeral(message: StoredEphemeral): void {
    this.#ephemerals.push(message);
  }

  findEphemeral(ts: string): StoredEphemeral | undefined {
    return this.#ephemerals.find((m) => m.ts === ts);
  }

  updateEphemeral(ts: string, patch: MessagePatch): StoredEphemeral | undefined {
    const message = this.findEphemeral(ts);
    if (message) applyPatch(message, patch, message.user);
    return message;
  }

  deleteEphemeral(ts: string): boolean {
    const before = this.#ephemerals.length;
    this.#ephemerals = this.#ephemerals.filter((m) => m.ts !== ts);
    return this.#ephemerals.length < before;
  }

  /** Ephemeral messages shown to one user, oldest first. */
  ephemerals(user: string): StoredEphemeral[] {
    return structuredClone(this.#ephemerals.filter((m) => m.recipient === user));
  }

  /** The user's open modal views, bottom of the stack first. */
  views(user: string): StoredView[] {
    return structuredClone(this.#stacks.get(user) ?? []);
  }

  stackSize(user: string): number {
    return this.#stacks.get(user)?.length ?? 0;
  }

  home(user: string): StoredView | undefined {
    const view = this.#homes.get(user);
    return view && structuredClone(view);
  }

  findView(viewId: string): { user: string; view: StoredView } | undefined {
    for (const [user, stack] of this.#stacks) {
      const view = stack.find((v) => v.id === viewId);
      if (view) return { user, view };
    }
    for (const [user, view] of this.#homes) if (view.id === viewId) return { user, view };
    return undefined;
  }

  findViewByExternalId(externalId: string): { user: string; view: StoredView } | undefined {
    for (const [user, stack] of this.#stacks) {
      const view = stack.find((v) => v.external_id === externalId);
      if (view) return { user, view };
    }
    return undefined;
  }

  openView(user: string, view: StoredView): void {
    this.#stacks.set(user, [view]);
  }

  pushView(user: string, view: StoredView): void {
    this.#stacks.set(user, [...(this.#stacks.get(user) ?? []), view]);
  }

  /** Replaces the view with the same id, wherever it is (modal stack or home). */
  replaceView(view: StoredView): void {
    for (const stack of this.#stacks.values()) {
      const index = stack.findIndex((v) => v.id === view.id);
      if (index >= 0) stack[index] = view;
    }
    for (const [user, home] of this.#homes) if (home.id === view.id) this.#homes.set(user, view);
  }

  publishHome(user: string, view: StoredView): void {
    this.#homes.set(user, view);
  }

  /** Closes one view and every view pushed above it. */
  closeView(user: string, viewId: string): void {
    const stack = this.#stacks.get(user) ?? [];
    const index = stack.findIndex((v) => v.id === viewId);
    if (index >= 0) this.#stacks.set(user, stack.slice(0, index));
  }

  clearViews(user: string): void {
    this.#stacks.delete(user);
  }
}
