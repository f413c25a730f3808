/**
 * Reads a request body up to the route's limit (issue 18 §2): the server has already refused a
 * Content-Length over it; this stops a chunked or lying body at the first byte past it. For the
 * routes that read their own body (api/, web/); Bolt reads Slack's with the same limit.
 */
import type { IncomingMessage } from 'node:http';
import { InputError } from '../errors.js';

/** A 413 for the route that read it. */
export class BodyTooLargeError extends InputError {
  constructor(readonly limit: number) {
    super(`The request body is over ${limit} bytes; send a smaller one.`, 'body');
  }
}

export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        req.resume(); // drain the rest without keeping it
        reject(new BodyTooLargeError(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}
