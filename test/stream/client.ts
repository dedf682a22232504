/**
 * A full-duplex HTTP/1.1 client for the stream tests (node:http): write a piece of the body,
 * wait for what the answer says next, write the next piece. Loopback only; every wait is
 * bounded in time.
 */
import { request, type IncomingMessage } from 'node:http';

export interface DuplexStream {
  /** Resolves with the answer's head once it arrives. */
  readonly response: Promise<IncomingMessage>;
  write(piece: string | Uint8Array): Promise<void>;
  end(piece?: string): void;
  /** Everything the answer has said so far. */
  text(): string;
  /** Resolves once the answer's text satisfies `check` (rejects after `ms`). */
  until(check: (text: string) => boolean, ms?: number): Promise<string>;
  /** Resolves with the whole answer once it ends. */
  readonly done: Promise<string>;
  /** Whether the request body has been ended by this client. */
  readonly ended: boolean;
  destroy(): void;
}

export function duplex(base: string, path: string, contentType: string): DuplexStream {
  const url = new URL(path, base);
  let body = '';
  let ended = false;
  const waiters: { check: (text: string) => boolean; resolve: (text: string) => void }[] = [];
  const req = request(url, { method: 'POST', headers: { 'content-type': contentType } });
  let finish: (text: string) => void = () => undefined;
  let fail: (error: Error) => void = () => undefined;
  const done = new Promise<string>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  done.catch(() => undefined);
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    req.once('response', (res) => {
      res.setEncoding('utf8');
      res.on('data', (piece: string) => {
        body += piece;
        for (const waiter of [...waiters]) {
          if (waiter.check(body)) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve(body);
          }
        }
      });
      res.once('end', () => finish(body));
      res.once('error', fail);
      resolve(res);
    });
    req.once('error', (error) => {
      reject(error);
      fail(error);
    });
  });
  response.catch(() => undefined);
  req.flushHeaders();
  return {
    response,
    done,
    get ended() {
      return ended;
    },
    write: (piece) => new Promise<void>((resolve, reject) => req.write(piece, (error) => (error ? reject(error) : resolve()))),
    end(piece?: string) {
      ended = true;
      if (piece === undefined) req.end();
      else req.end(piece);
    },
    text: () => body,
    until(check, ms = 5_000) {
      if (check(body)) return Promise.resolve(body);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the answer did not say it within ${ms} ms; so far: ${body.slice(-400)}`)), ms);
        waiters.push({ check, resolve: (text) => {
          clearTimeout(timer);
          resolve(text);
        } });
      });
    },
    destroy: () => req.destroy(),
  };
}

/** The NDJSON lines of an answer, parsed. */
export function ndjson(text: string): Record<string, unknown>[] {
  return text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The `data:` payloads of a server-sent event stream, and each event's name where it has one. */
export function sseEvents(text: string): { event: string | null; data: string }[] {
  return text.split('\n\n').filter((block) => block.trim() !== '').map((block) => {
    let event: string | null = null;
    let data = '';
    for (const line of block.split('\n')) {
      if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('data: ')) data += line.slice(6);
    }
    return { event, data };
  });
}

export const ndjsonLine = (value: unknown): string => JSON.stringify(value) + '\n';
