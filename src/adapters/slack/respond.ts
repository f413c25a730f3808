/** How answers reach the person who asked: ephemeral, with the sandbox note when it applies. */
import type { RespondFn } from '@slack/bolt';
import { describeError } from '../../app/describe-error.js';
import { InputError } from '../../errors.js';
import { type Blocks, errorBlocks, withSandboxNote } from './blocks/common.js';
import type { Deps } from './deps.js';

export async function respondBlocks(
  respond: RespondFn,
  deps: Pick<Deps, 'sandbox'>,
  text: string,
  blocks: Blocks,
): Promise<void> {
  await respond({ response_type: 'ephemeral', text, blocks: withSandboxNote(blocks, deps.sandbox) });
}

/** Any failure as one sentence; input problems also get the usage line. Unexpected ones are logged. */
export async function respondError(
  respond: RespondFn,
  deps: Pick<Deps, 'log' | 'sandbox'>,
  err: unknown,
  usage?: string,
): Promise<void> {
  const message = describeError(err);
  if (!(err instanceof InputError)) deps.log.error({ err }, 'command failed');
  await respond({
    response_type: 'ephemeral',
    text: message,
    blocks: withSandboxNote(errorBlocks(message, err instanceof InputError ? usage : undefined), deps.sandbox),
  });
}
