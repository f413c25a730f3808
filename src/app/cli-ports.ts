/**
 * Issue 18 §3: the ports only the CLI's members of the app façade use (app/index.ts, "CLI
 * commands"). Optional in FacadeDeps, so the Slack side's façade is built as before; a CLI member
 * called without them is a wiring mistake and says so.
 */
import type { ApiKeyStore } from '../store/api-keys.js';
import type { PasskeyStore } from '../store/passkeys.js';
import type { StepUpTokens } from '../store/step-up-tokens.js';
import type { ApproverDirectory } from './deps.js';
import type { ApprovalJobs } from './ports.js';
import type { PasskeyNotices } from './step-up-deps.js';

export interface CliPorts {
  /** What a resolution may queue (a card refresh, a released row); the CLI opens them on first use. */
  jobs: ApprovalJobs;
  /** Issue 19: the terminal has no Slack identity, so only approvers listed by id in APPROVERS. */
  approvers: ApproverDirectory;
  /** Issue 21. */
  apiKeys: ApiKeyStore;
  /** Issue 22: approvers' passkeys and the passkey pages' one-time links. */
  passkeys: PasskeyStore;
  stepUpTokens: StepUpTokens;
  /** Issue 22: the owner's passkey messages through Slack; undefined when no bot token is set. */
  notices: () => PasskeyNotices | undefined;
}

export function cliPorts(ports: CliPorts | undefined): CliPorts {
  if (!ports) throw new Error('this app was built without the CLI ports (app/cli-ports.ts)');
  return ports;
}
