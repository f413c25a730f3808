/** Every command, in the order help lists them. */
import type { Command } from '../args.js';
import {
  addressesAddCommand,
  addressesImportCommand,
  addressesListCommand,
  addressesRemoveCommand,
} from './addresses.js';
import { apiKeysCreateCommand, apiKeysListCommand, apiKeysRevokeCommand } from './api-keys.js';
import { auditExportCommand } from './audit.js';
import { batchCheckCommand, batchReceiptCommand, batchStatusCommand } from './batch.js';
import { beneficiariesImportCommand } from './beneficiaries.js';
import { doctorCommand } from './doctor.js';
import { passkeysEnrolLinkCommand, passkeysListCommand, passkeysRevokeCommand, verifyCommand } from './passkeys.js';
import { identityGetCommand, lookupCommand, rateCommand } from './reads.js';
import { reportCommand } from './report.js';
import { requestsCommand, requestsShowCommand } from './requests.js';
import { resolveCommand } from './resolve.js';
import { schedulesEndCommand, schedulesListCommand, schedulesShowCommand, schedulesSkipCommand } from './schedules.js';
import { screeningLoadCommand, screeningStatusCommand } from './screening.js';
import { userCreateCommand } from './user.js';
import { balancesCommand, walletCommand } from './wallet.js';

export const COMMANDS: readonly Command[] = [
  walletCommand,
  balancesCommand,
  rateCommand,
  lookupCommand,
  identityGetCommand,
  userCreateCommand,
  requestsCommand,
  requestsShowCommand,
  resolveCommand,
  beneficiariesImportCommand,
  addressesListCommand,
  addressesAddCommand,
  addressesImportCommand,
  addressesRemoveCommand,
  batchCheckCommand,
  batchStatusCommand,
  batchReceiptCommand,
  schedulesListCommand,
  schedulesShowCommand,
  schedulesSkipCommand,
  schedulesEndCommand,
  auditExportCommand,
  reportCommand,
  apiKeysCreateCommand,
  apiKeysListCommand,
  apiKeysRevokeCommand,
  screeningLoadCommand,
  screeningStatusCommand,
  doctorCommand,
  passkeysEnrolLinkCommand,
  passkeysListCommand,
  passkeysRevokeCommand,
  verifyCommand,
];

export { PASSWORD_REFUSED } from './user.js';
