/** An in-memory pino destination, so tests can assert on every log line (pino's sink pattern). */
import { Writable } from 'node:stream';

export class LogSink extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    for (const line of chunk.toString('utf8').split('\n')) if (line) this.lines.push(line);
    done();
  }
  get text(): string {
    return this.lines.join('\n');
  }
}
