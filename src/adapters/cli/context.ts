/**
 * What a command may use: config, output, and what the composition root opens for it
 * (compose/cli-role.ts) — the app, the service's questions, doctor's checks — each opened only
 * when a command first asks and closed by close().
 */
import type { Check } from '../../app/doctor.js';
import type { RampartApp } from '../../app/index.js';
import type { ServiceReads } from '../../app/reads/service-reads.js';
import type { Config } from '../../config.js';
import type { CliIo } from './io.js';

/** Built by the composition root for one command; nothing is opened until first asked. */
export interface CliRole {
  /**
   * The use cases bound to this command's Redis (opened on the first call), the
   * service, the queues and Slack (each opened on first use); commands never reach a store.
   */
  app(): Promise<RampartApp>;
  /**
   * The service's questions, for the commands that only ask the service (wallet, balances, rate,
   * lookup, identity, user create): they must work, and open nothing else, with Redis down.
   */
  service: ServiceReads;
  /** `rampart doctor`'s checks, one at a time (Redis probed on its own connection). */
  doctor(): AsyncIterable<Check>;
  close(): Promise<void>;
}

export type OpenCliRole = (config: Config, io: CliIo) => CliRole;

export interface Context extends CliRole {
  config: Config;
  io: CliIo;
  /** Prints the command's answer: text as is, or the value as JSON with --json. */
  answer(text: string, value: unknown): void;
  /** A line for the person, on stderr, so stdout stays clean for scripts. */
  note(text: string): void;
}

export function createContext(config: Config, io: CliIo, json: boolean, open: OpenCliRole): Context {
  const role = open(config, io);
  return {
    config,
    io,
    answer(text, value) {
      io.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${text}\n`);
    },
    note(text) {
      io.stderr.write(`${text}\n`);
    },
    app: () => role.app(),
    service: role.service,
    doctor: () => role.doctor(),
    close: () => role.close(),
  };
}
