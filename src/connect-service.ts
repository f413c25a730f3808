/**
 * The service client a Config describes: the real service at SERVICE_BASE_URL, or, when it is
 * unset (never in production: config refuses that), the in-process sandbox. A composition-root
 * choice, beside rampart.ts, so service/ never imports sandbox/. One place for
 * Rampart, the CLI and the workbench.
 */
import { type Config, secretsOf } from './config.js';
import type { Logger } from './log.js';
import type { Sandbox } from './sandbox/index.js';
import { type CallObserver, ServiceClient } from './service/client.js';

export interface ServiceConnection {
  service: ServiceClient;
  /** Set when the built-in sandbox answers. */
  sandbox: Sandbox | undefined;
  close(): Promise<void>;
}

export async function connectService(config: Config, log?: Logger, onCall?: CallObserver): Promise<ServiceConnection> {
  let sandbox: Sandbox | undefined;
  let baseUrl = config.service.baseUrl;
  if (!baseUrl) {
    // Loaded only when it answers: with SERVICE_BASE_URL set, its seed and state stay out.
    const { startSandbox } = await import('./sandbox/index.js');
    sandbox = await startSandbox({
      port: 0,
      apiKey: config.service.apiKey,
      bearerToken: config.service.bearerToken,
      params: config.service.params,
      ...(log ? { log: log.child({ component: 'sandbox' }) } : {}),
    });
    baseUrl = sandbox.url;
  }
  const service = new ServiceClient({
    baseUrl,
    apiKey: config.service.apiKey,
    bearerToken: config.service.bearerToken,
    connectTimeoutMs: config.service.connectTimeoutMs,
    responseTimeoutMs: config.service.responseTimeoutMs,
    readTimeoutMs: config.service.readTimeoutMs,
    params: config.service.params,
    secrets: secretsOf(config),
    ...(log ? { log: log.child({ component: 'service' }) } : {}),
    ...(onCall ? { onCall } : {}),
  });
  return {
    service,
    sandbox,
    async close() {
      await service.close();
      await sandbox?.close();
    },
  };
}
