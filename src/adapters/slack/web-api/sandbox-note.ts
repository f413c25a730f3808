/**
 * On the built-in sandbox every message and view Rampart posts says so, added here once rather
 * than by each caller: the Web API client's posting methods (chat.postMessage, postEphemeral,
 * update; views.open, update, push, publish), a listener's respond(), its ack with a message or a
 * view, and say(). A message's text ends with the note (what notifications and plain-text
 * messages show), its blocks with a context block; a view's blocks likewise.
 */
import type { AckFn, RespondArguments, RespondFn, SayFn } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';

export const SANDBOX_NOTE = ':test_tube: Sandbox: no real money moves.';

const NOTE_TEXT = `\n_${SANDBOX_NOTE}_`;
const NOTE_BLOCK = { type: 'context', elements: [{ type: 'mrkdwn', text: SANDBOX_NOTE }] } as const;

type Block = { type?: string; elements?: readonly { text?: string }[] };
const notedBlock = (b: Block | undefined) => b?.type === 'context' && b.elements?.[0]?.text === SANDBOX_NOTE;

/** `blocks` ending with the note, once. */
const withNoteBlock = <B>(blocks: readonly B[]): B[] =>
  notedBlock(blocks.at(-1) as Block | undefined) ? [...blocks] : [...blocks, NOTE_BLOCK as B];

/** A message (text, blocks or both) that says it is the sandbox. */
export function notedMessage<M extends object>(message: M): M {
  const m = message as { text?: unknown; blocks?: unknown };
  const out = { ...message } as Record<string, unknown>;
  if (typeof m.text === 'string' && !m.text.endsWith(NOTE_TEXT)) out.text = `${m.text}${NOTE_TEXT}`;
  if (Array.isArray(m.blocks)) out.blocks = withNoteBlock(m.blocks);
  return out as M;
}

/** A view (a modal, App Home) whose blocks end with the note. */
export function notedView<V extends object>(view: V): V {
  const blocks = (view as { blocks?: unknown }).blocks;
  return Array.isArray(blocks) ? { ...view, blocks: withNoteBlock(blocks) } : view;
}

const withView = <A extends object>(args: A): A => {
  const view = (args as { view?: unknown }).view;
  return view && typeof view === 'object' ? { ...args, view: notedView(view) } : args;
};

type Call<A> = (args: A) => Promise<unknown>;
const through =
  <A extends object>(call: Call<A>, note: (a: A) => A): Call<A> =>
  (args) =>
    call(note(args));

/** The client, with every posting method adding the note; every other method as it was. */
export function sandboxClient(client: WebClient): WebClient {
  const chat = {
    ...client.chat,
    postMessage: through(client.chat.postMessage, notedMessage),
    postEphemeral: through(client.chat.postEphemeral, notedMessage),
    update: through(client.chat.update, notedMessage),
  };
  const views = {
    ...client.views,
    open: through(client.views.open, withView),
    update: through(client.views.update, withView),
    push: through(client.views.push, withView),
    publish: through(client.views.publish, withView),
  };
  // Every other method and field is the client's own (its prototype).
  return Object.create(client, { chat: { value: chat }, views: { value: views } }) as WebClient;
}

export const sandboxRespond =
  (respond: RespondFn): RespondFn =>
  (message: string | RespondArguments) =>
    respond(notedMessage(typeof message === 'string' ? { text: message } : message));

export const sandboxSay = (say: SayFn): SayFn =>
  ((message: Parameters<SayFn>[0]) =>
    say(notedMessage(typeof message === 'string' ? { text: message } : message))) as SayFn;

/** An ack carrying a message (a command's answer) or a view (a modal's next step) says it too. */
export const sandboxAck =
  <R>(ack: AckFn<R>): AckFn<R> =>
  (response?: R) => {
    if (response === undefined || typeof response !== 'object' || response === null) return ack(response);
    const r = response as { response_action?: string; text?: unknown; blocks?: unknown };
    if (r.response_action === 'update' || r.response_action === 'push') return ack(withView(response) as R);
    if (r.response_action === undefined && (r.text !== undefined || r.blocks !== undefined))
      return ack(notedMessage(response) as R);
    return ack(response);
  };

/** A listener's arguments with the note on every way it answers (the client, respond, ack, say). */
export function sandboxArgs<A extends object>(args: A): A {
  const a = args as { client?: WebClient; respond?: RespondFn; ack?: AckFn<unknown>; say?: SayFn };
  if (a.client) a.client = sandboxClient(a.client);
  if (a.respond) a.respond = sandboxRespond(a.respond);
  if (a.ack) a.ack = sandboxAck(a.ack);
  if (a.say) a.say = sandboxSay(a.say);
  return args;
}

/** A response URL's poster as given, or noted on the sandbox. */
export const noteOnSandboxRespond = (respond: RespondFn, sandbox: boolean): RespondFn =>
  sandbox ? sandboxRespond(respond) : respond;

/** The client as given, or noted on the sandbox. */
export const noteOnSandbox = (client: WebClient, sandbox: boolean): WebClient =>
  sandbox ? sandboxClient(client) : client;
