/**
 * What a person does on the page, played to Rampart through the SlackDriver exactly as the
 * test bed does: signed slash commands, block_actions, view submissions, view_closed,
 * block_suggestion and app_home_opened. Also keeps the field errors Slack shows under inputs
 * after a `response_action: errors` acknowledgement.
 */
import type { DriverResponse, FakeSlack, SlackDriver, StoredMessage, StoredView, UserInput } from '../index.js';
import type { SlashCommand } from './manifest-commands.js';
import { isObject, type JsonObject, list, str } from './render/html.js';
import { textOf } from './render/mrkdwn.js';

/** A request the page made that Slack itself would refuse; the message is shown to the person. */
export class WorkbenchInputError extends Error {
  readonly code = 'WORKBENCH_INPUT';
}

// Slack gives up on an acknowledgement after 3 s (DESIGN invariant 5).
const ACK_LIMIT_MS = 3000;

export interface ActionResult {
  status: number;
  ackMs: number;
  /** Something Slack would show or complain about (a failed or slow acknowledgement). */
  notice?: string;
}

export interface SubmitResult extends ActionResult {
  errors: Record<string, string>;
}

export interface SuggestedOption {
  label: string;
  option: JsonObject;
}

function ackNotice(what: string, res: DriverResponse): string | undefined {
  if (res.status !== 200) return `Rampart answered ${what} with HTTP ${res.status}; Slack would show an error.`;
  if (res.ackMs > ACK_LIMIT_MS) {
    return `Rampart took ${(res.ackMs / 1000).toFixed(1)} s to acknowledge ${what}; Slack gives up after 3 s.`;
  }
  return undefined;
}

const result = (what: string, res: DriverResponse): ActionResult => {
  const notice = ackNotice(what, res);
  return { status: res.status, ackMs: Math.round(res.ackMs), ...(notice ? { notice } : {}) };
};

export interface ClickRequest {
  user: string;
  actionId: string;
  blockId: string;
  value?: UserInput | undefined;
  /** A click in a message: where it is. */
  channel?: string | undefined;
  ts?: string | undefined;
  /** A click in a modal or the App Home. */
  viewId?: string | undefined;
  /** The view's inputs as the person left them, by action_id. */
  values?: Record<string, UserInput> | undefined;
}

export class WorkbenchActions {
  readonly #fake: FakeSlack;
  readonly #driver: SlackDriver;
  readonly #commands: readonly SlashCommand[];
  readonly #errors = new Map<string, Record<string, string>>();

  constructor(fake: FakeSlack, driver: SlackDriver, commands: readonly SlashCommand[]) {
    this.#fake = fake;
    this.#driver = driver;
    this.#commands = commands;
  }

  errorsFor(viewId: string): Record<string, string> {
    return this.#errors.get(viewId) ?? {};
  }

  #person(user: string): void {
    if (!this.#fake.person(user)) throw new WorkbenchInputError(`No one with the id ${user} in this workspace.`);
  }

  #channel(channel: string): void {
    if (!this.#fake.channel(channel)) throw new WorkbenchInputError(`No channel with the id ${channel}.`);
  }

  /** `/command text` typed in the composer of `channel`. */
  async command(user: string, channel: string, line: string): Promise<ActionResult> {
    this.#person(user);
    this.#channel(channel);
    const m = /^(\/\S+)\s*([\s\S]*)$/.exec(line.trim());
    if (!m?.[1]) {
      throw new WorkbenchInputError(
        'Only slash commands reach Rampart here (it does not read channel messages). Try /balance.',
      );
    }
    const name = m[1].toLowerCase();
    if (!this.#commands.some((c) => c.command === name)) {
      const known = this.#commands.map((c) => c.command).join(', ');
      throw new WorkbenchInputError(`${name} is not a valid command. Rampart's commands: ${known}.`);
    }
    return result(name, await this.#driver.command(user, name, m[2] ?? '', channel));
  }

  #view(user: string, viewId: string): StoredView {
    const view = this.#fake.views(user).find((v) => v.id === viewId) ?? this.#fake.home(user);
    if (!view || view.id !== viewId)
      throw new WorkbenchInputError('That view is no longer open; it may have been closed or replaced.');
    return view;
  }

  #message(user: string, channel: string, ts: string): StoredMessage {
    const message = this.#fake.message(channel, ts) ?? this.#fake.ephemerals(user).find((e) => e.ts === ts);
    if (!message) throw new WorkbenchInputError('That message is gone (deleted or replaced).');
    return message;
  }

  /** A button press or a pick in a select, in a message, a modal or the App Home. */
  async click(req: ClickRequest): Promise<ActionResult> {
    this.#person(req.user);
    const base = {
      action_id: req.actionId,
      block_id: req.blockId,
      ...(req.value === undefined ? {} : { value: req.value }),
    };
    if (req.viewId !== undefined) {
      const view = this.#view(req.user, req.viewId);
      return result('the click', await this.#driver.click(req.user, { ...base, view, values: req.values ?? {} }));
    }
    if (req.channel === undefined || req.ts === undefined) {
      throw new WorkbenchInputError('A click needs the message (channel and ts) or the view it is in.');
    }
    const message = this.#message(req.user, req.channel, req.ts);
    return result('the click', await this.#driver.click(req.user, { ...base, message, channel: req.channel }));
  }

  /** Submit: Rampart's `response_action` is applied by the fake; field errors are kept for the page. */
  async submit(user: string, viewId: string, values: Record<string, UserInput>): Promise<SubmitResult> {
    this.#person(user);
    const view = this.#view(user, viewId);
    const res = await this.#driver.submitView(user, view, values);
    const body = isObject(res.body) ? res.body : {};
    const errors: Record<string, string> = {};
    if (res.status === 200 && body.response_action === 'errors' && isObject(body.errors)) {
      for (const [blockId, message] of Object.entries(body.errors)) errors[blockId] = String(message);
      this.#errors.set(viewId, errors);
    } else {
      this.#errors.delete(viewId);
    }
    return { ...result('the submission', res), errors };
  }

  /** Cancel/Back closes the top view; × (`all`), or a view with clear_on_close, closes the whole stack. */
  async close(user: string, viewId: string, all: boolean): Promise<void> {
    this.#person(user);
    const stack = this.#fake.views(user);
    const top = stack.at(-1);
    const root = stack[0];
    if (!top || !root || top.id !== viewId) throw new WorkbenchInputError('That view is no longer open.');
    const clear = all || top.clear_on_close;
    // Slack tells the app only when the view asked for it.
    if (top.notify_on_close) await this.#driver.closeView(user, top, { isCleared: clear });
    this.#fake.closeView(user, clear ? root.id : top.id);
    for (const v of clear ? stack : [top]) this.#errors.delete(v.id);
  }

  /** An external select's options for what the person typed (block_suggestion). */
  async suggest(user: string, viewId: string, actionId: string, blockId: string, value: string) {
    this.#person(user);
    const view = this.#view(user, viewId);
    const res = await this.#driver.suggest(user, view, actionId, blockId, value);
    const body = isObject(res.body) ? res.body : {};
    const options: SuggestedOption[] = list(body.options)
      .filter(isObject)
      .map((o) => ({ label: textOf(o.text), option: o }));
    for (const group of list(body.option_groups).filter(isObject)) {
      const label = textOf(group.label);
      for (const o of list(group.options).filter(isObject))
        options.push({ label: `${label} · ${textOf(o.text)}`, option: o });
    }
    return { ...result('the options request', res), options: options.filter((o) => str(o.option.value) !== undefined) };
  }

  /** The person opens Rampart's Home tab (app_home_opened). */
  async openHome(user: string): Promise<ActionResult> {
    this.#person(user);
    return result('app_home_opened', await this.#driver.openHome(user));
  }
}
