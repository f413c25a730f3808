/**
 * The health checks the Dockerfile and docker-compose.yml declare, run as Docker would run them
 * (`node -e …` with PORT set), so a test proves each asks the right probe.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

/** The script of `HEALTHCHECK … CMD node -e "<script>"`. */
export function dockerfileCheck(): string {
  const text = readFileSync('Dockerfile', 'utf8').replace(/\\\n\s*/g, ' ');
  const script = /HEALTHCHECK .*CMD node -e "(.+)"/.exec(text)?.[1];
  if (!script) throw new Error('the Dockerfile has no HEALTHCHECK running node -e');
  return script;
}

/** The script of the rampart service's `healthcheck.test: ["CMD", "node", "-e", "<script>"]`. */
export function composeCheck(): string {
  const compose = parse(readFileSync('docker-compose.yml', 'utf8')) as {
    services: { rampart: { healthcheck?: { test?: string[] } } };
  };
  const test = compose.services.rampart.healthcheck?.test ?? [];
  if (test[0] !== 'CMD' || test[1] !== 'node' || test[2] !== '-e' || !test[3])
    throw new Error('the rampart service has no healthcheck running node -e');
  return test[3];
}

/** The check's exit code against a Rampart listening on `port`. */
export function runCheck(script: string, port: number | undefined): Promise<number> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['-e', script], { env: { PORT: String(port) }, timeout: 10_000 }, (err) =>
      resolve(err ? (typeof err.code === 'number' ? err.code : 1) : 0),
    );
  });
}
