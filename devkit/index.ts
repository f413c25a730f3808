export * from './fake-slack/index.js';
export {
  type ClickInput,
  type DriverResponse,
  type SendOptions,
  SlackDriver,
  type SlackDriverOptions,
} from './slack-driver.js';
export * from './slack-payloads.js';
export { type SlackSignatureHeaders, signSlackRequest } from './slack-signer.js';
export { socketModeTransport } from './socket-transport.js';
export { findElement, optionFor, stateValueFor, type UserInput, viewStateValues } from './view-state.js';
