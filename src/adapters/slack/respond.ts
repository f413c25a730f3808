/** How answers reach the person who asked: ephemeral (the sandbox note is added on the way, web-api/sandbox-note.ts). */
import type { RespondFn } from '@slack/bolt';
import { describeError } from '../../app/describe-error.js';
import { InputError } from '../../errors.js';
import { type Blocks, errorBlocks } from './blocks/common.js';
import type { Deps } from './deps.js';

export async function respondBlocks(respond: RespondFn, text: string, blocks: Blocks): Promise<void> {
  await respond({ response_type: 'ephemeral', text, blocks });
}

/** Any failure as one sentence; input problems also get the usage line. Unexpected ones are logged. */
export async function respondError(
  respond: RespondFn,
  deps: Pick<Deps, 'log'>,
  err: unknown,
  usage?: string,
): Promise<void> {
  const message = describeError(err);
  if (!(err instanceof InputError)) deps.log.error({ err }, 'command failed');
  await respond({
    response_type: 'ephemeral',
    text: message,
    blocks: errorBlocks(message, err instanceof InputError ? usage : undefined),
  });
}
