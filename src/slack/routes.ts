/**
 * Where each Slack request goes (issue 19 "Speed and memory": route by request type once).
 * Bolt runs every registered listener's matchers on every request, concurrently: with Rampart's
 * 33 listeners that was 33 listener chains, 66 copies of the request's arguments and 33 promises
 * per ack — a third of Bolt's CPU per `/rate`. Rampart registers one Bolt listener per request
 * type and finds the handler by its id in a Map; listener files register on these routes as they
 * did on the App (same argument types, string ids only).
 */
import type {
  AllMiddlewareArgs,
  App,
  SlackAction,
  SlackActionMiddlewareArgs,
  SlackCommandMiddlewareArgs,
  SlackEventMiddlewareArgs,
  SlackOptionsMiddlewareArgs,
  SlackViewAction,
  SlackViewMiddlewareArgs,
} from '@slack/bolt';

export type Handler<Args> = (args: Args & AllMiddlewareArgs) => Promise<void>;

/** What a listener file may register: one handler per command name, action id, callback id or event. */
export interface Routes {
  command(name: string, handler: Handler<SlackCommandMiddlewareArgs>): void;
  /** A RegExp for ids that carry a suffix (a button per row); tried after the exact ids, in order. */
  action<A extends SlackAction = SlackAction>(
    actionId: string | RegExp,
    handler: Handler<SlackActionMiddlewareArgs<A>>,
  ): void;
  /** view_submission only, as Bolt's `app.view(callbackId)`. */
  view<V extends SlackViewAction = SlackViewAction>(
    callbackId: string,
    handler: Handler<SlackViewMiddlewareArgs<V>>,
  ): void;
  /** block_suggestion, as Bolt's `app.options(actionId)`. */
  options(actionId: string, handler: Handler<SlackOptionsMiddlewareArgs<'block_suggestion'>>): void;
  event<E extends string>(name: E, handler: Handler<SlackEventMiddlewareArgs<E>>): void;
}

/** Any id: the Bolt listener of a type takes every request of that type; the Map decides. */
const EVERY = /^/;

class Table<H> {
  private readonly byKey = new Map<string, H>();
  private readonly patterns: [RegExp, H][] = [];
  constructor(private readonly kind: string) {}
  add(key: string | RegExp, handler: H): void {
    if (typeof key !== 'string') {
      this.patterns.push([key, handler]);
      return;
    }
    // Bolt ran every matching listener; a second handler for one id was always a mistake.
    if (this.byKey.has(key)) throw new Error(`two Slack ${this.kind} handlers for "${key}"`);
    this.byKey.set(key, handler);
  }
  get(key: string | undefined): H | undefined {
    if (key === undefined) return undefined;
    return this.byKey.get(key) ?? this.patterns.find(([pattern]) => pattern.test(key))?.[1];
  }
  entries(): IterableIterator<[string, H]> {
    return this.byKey.entries();
  }
}

export interface MountableRoutes extends Routes {
  /** Registers one Bolt listener per request type (and one per event name) on `app`. */
  mount(app: App): void;
}

export function createRoutes(): MountableRoutes {
  const commands = new Table<Handler<SlackCommandMiddlewareArgs>>('command');
  const actions = new Table<Handler<SlackActionMiddlewareArgs>>('action');
  const views = new Table<Handler<SlackViewMiddlewareArgs>>('view');
  const options = new Table<Handler<SlackOptionsMiddlewareArgs<'block_suggestion'>>>('options');
  const events = new Table<Handler<SlackEventMiddlewareArgs>>('event');
  return {
    command: (name, handler) => commands.add(name, handler),
    // The id decides the payload's shape, as Bolt's own string constraints assume.
    action: (id, handler) => actions.add(id, handler as Handler<SlackActionMiddlewareArgs>),
    view: (id, handler) => views.add(id, handler as Handler<SlackViewMiddlewareArgs>),
    options: (id, handler) => options.add(id, handler),
    event: (name, handler) => events.add(name, handler as unknown as Handler<SlackEventMiddlewareArgs>),
    mount(app) {
      // An id nobody registered is left alone, as Bolt leaves a request no listener matched.
      app.command(EVERY, async (args) => commands.get(args.command.command)?.(args));
      app.action(EVERY, async (args) => {
        const id = 'action_id' in args.action ? args.action.action_id : undefined;
        await actions.get(id)?.(args);
      });
      app.view(EVERY, async (args) => views.get(args.view.callback_id)?.(args));
      app.options(EVERY, async (args) => options.get(args.options.action_id)?.(args));
      for (const [name, handler] of events.entries()) app.event(name, handler);
    },
  };
}
