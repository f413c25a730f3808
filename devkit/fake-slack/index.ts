export { type BlockKitSurface, checkBlockKitLimits, LIMITS } from './block-kit-limits.js';
export { FakeSlack, startFakeSlack } from './fake-slack.js';
export type { StoredFile } from './files.js';
export { FAKE_DEFAULTS } from './settings.js';
export { type EnvelopeType, FakeSocketMode } from './socket-mode.js';
export type {
  FakeChannel,
  FakePerson,
  FakeSlackOptions,
  JsonObject,
  RecordedCall,
  ResponseUrlContext,
  StoredEphemeral,
  StoredMessage,
  StoredView,
} from './types.js';
