/**
 * Where each Slack request goes (route by request type once).
 * Bolt runs every registered listener's matchers on every request, concurrently: with Rampart's
 * 33 listeners that was 33 listener chains, 66 copies of the request's arguments and 33 promises
 * per ack — a third of Bolt's CPU per `/rate`. Rampart gives Bolt no listeners at all: one global
 * middleware, after the guards, finds the handler by request type and id in a Map. Listener files
 * register on these routes as they did on the App (same argument types). Bolt's respond() is
 * swapped for a lighter one on the way (slack-api/respond-url.ts).
 */
import type {
  AllMiddlewareArgs,
  AnyMiddlewareArgs,
  App,
  SlackAction,
  SlackActionMiddlewareArgs,
  SlackCommandMiddlewareArgs,
  SlackEventMiddlewareArgs,
  SlackOptionsMiddlewareArgs,
  SlackViewAction,
  SlackViewMiddlewareArgs,
} from '@slack/bolt';
import { respondTo } from './web-api/respond-url.js';
import { sandboxArgs } from './web-api/sandbox-note.js';

export type Handler<Args> = (args: Args & AllMiddlewareArgs) => Promise<void>;

/** A slash command's listener, exported by its file so a unit test can call it with a fake `ack` and client. */
export type CommandHandler = Handler<SlackCommandMiddlewareArgs>;
/** A block action's listener (a button, a menu), exported by its file for the same reason. */
export type ActionHandler<A extends SlackAction = SlackAction> = Handler<SlackActionMiddlewareArgs<A>>;
/** A modal's submission listener, exported by its file for the same reason. */
export type ViewHandler<V extends SlackViewAction = SlackViewAction> = Handler<SlackViewMiddlewareArgs<V>>;

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
}

export interface MountableRoutes extends Routes {
  /**
   * Adds the one dispatching middleware to `app` (after the guards, so register those first).
   * `sandbox`: every answer of every handler carries the sandbox note (web-api/sandbox-note.ts).
   */
  mount(app: App, options?: { sandbox?: boolean }): void;
}

type Args = AnyMiddlewareArgs & AllMiddlewareArgs & { respond?: unknown };
type Body = { type?: string; response_url?: string };

export function createRoutes(): MountableRoutes {
  const commands = new Table<Handler<SlackCommandMiddlewareArgs>>('command');
  const actions = new Table<Handler<SlackActionMiddlewareArgs>>('action');
  const views = new Table<Handler<SlackViewMiddlewareArgs>>('view');
  const options = new Table<Handler<SlackOptionsMiddlewareArgs<'block_suggestion'>>>('options');
  const events = new Table<Handler<SlackEventMiddlewareArgs>>('event');

  /** The handler for this request, by what Bolt's own matchers check: its type, then its id. */
  const route = (args: Args): Handler<Args> | undefined => {
    const body = args.body as Body;
    let handler: Handler<never> | undefined;
    if ('command' in args) handler = commands.get(args.command.command);
    else if ('event' in args) handler = events.get(args.event.type);
    else if (body.type === 'block_actions' && 'action' in args && 'action_id' in args.action)
      handler = actions.get(args.action.action_id);
    else if (body.type === 'view_submission' && 'view' in args) handler = views.get(args.view.callback_id);
    else if (body.type === 'block_suggestion' && 'options' in args && 'action_id' in args.options)
      handler = options.get(args.options.action_id);
    return handler as Handler<Args> | undefined;
  };

  return {
    command: (name, handler) => commands.add(name, handler),
    // The id decides the payload's shape, as Bolt's own string constraints assume.
    action: (id, handler) => actions.add(id, handler as Handler<SlackActionMiddlewareArgs>),
    view: (id, handler) => views.add(id, handler as Handler<SlackViewMiddlewareArgs>),
    options: (id, handler) => options.add(id, handler),
    event: (name, handler) => events.add(name, handler as unknown as Handler<SlackEventMiddlewareArgs>),
    mount(app, { sandbox = false } = {}) {
      app.use(async (args) => {
        const handler = route(args);
        // Nobody's: on to Bolt's listeners (Rampart registers none), as an unmatched request went.
        if (!handler) return args.next();
        const url = (args.body as Body).response_url;
        if (url) (args as Args).respond = respondTo(url);
        await handler(sandbox ? sandboxArgs(args) : args);
      });
    },
  };
}
