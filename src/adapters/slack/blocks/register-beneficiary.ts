/**
 * The "existing beneficiary" form: the service's beneficiary id, the identity it
 * belongs to (checked with the service), and a label, bank and last four digits as the requester
 * states them — said plainly, since nothing but the identity can be checked. Pure.
 */
import type { View } from '@slack/types';
import { encodeMetadata } from '../metadata.js';
import { identityInput } from './beneficiary.js';
import { context, plain, reasonInput, textInput } from './common.js';

export const REGISTER_CALLBACK = 'beneficiary_register';
export { EXISTING_BENEFICIARY_ACTION as REGISTER_ACTION } from './request-modal.js';

export const registerModal = (meta: { channel?: string | undefined }): View => ({
  type: 'modal',
  callback_id: REGISTER_CALLBACK,
  private_metadata: encodeMetadata(meta, {}),
  title: plain('Existing beneficiary', 24),
  submit: plain('Request approval', 24),
  close: plain('Cancel', 24),
  blocks: [
    textInput(
      'beneficiary_id',
      'Beneficiary id at the service',
      'The id the service gave it, e.g. from its dashboard',
      {
        max_length: 128,
      },
    ),
    identityInput(),
    textInput('label', 'Label', 'How people will find it, e.g. "Ngozi Eze · GTBank"', { max_length: 80 }),
    textInput('bank_name', 'Bank', 'e.g. Guaranty Trust Bank', { max_length: 60 }),
    textInput(
      'account_last4',
      'Last 4 digits of the account',
      'Only the last four; Rampart never keeps the full number',
      {
        max_length: 4,
      },
    ),
    reasonInput(),
    context(
      ':warning: The service has no way to read a beneficiary back, so only the identity is checked with it. The id, label, bank and digits go on the approval card *as stated by you*, and every offramp to it says so.',
    ),
  ],
});
