export type { ActionResult, ClickRequest, SubmitResult } from './actions.js';
export { WorkbenchActions, WorkbenchInputError } from './actions.js';
export type { SlashCommand } from './manifest-commands.js';
export { blockHtml, blocksHtml, messageBodyHtml, type RenderContext } from './render/blocks.js';
export { mrkdwnToHtml, plainToHtml } from './render/mrkdwn.js';
export type { WorkbenchServer } from './server.js';
export {
  type PageOptions,
  startWorkbench,
  startWorkbenchPage,
  WORKBENCH_REDIS_PREFIX,
  type Workbench,
  type WorkbenchOptions,
  WorkbenchRefusedError,
} from './start.js';
export { type WorkbenchState, workbenchState } from './state.js';
export { type Workspace, type WorkspacePerson, workspaceFor } from './workspace.js';
