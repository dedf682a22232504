/**
 * The "state in a worker" side of bench/stream-placement.ts: a Piscina worker (one thread)
 * holding stream sessions by id; each task is one chunk of one stream, each answer the framed
 * events it made.
 */
import { StreamSession } from '../src/server/stream/session.js';

const sessions = new Map<number, StreamSession>();

export default function chunkTask(message: { id: number; chunk?: string; end?: boolean }): string {
  let session = sessions.get(message.id);
  if (session === undefined) {
    session = new StreamSession({ toolsJson: null, reading: {}, identity: { id: 'b', created: 0, model: 'b' } }, null);
    sessions.set(message.id, session);
  }
  if (message.end === true) {
    sessions.delete(message.id);
    return session.end(null);
  }
  return session.push(message.chunk ?? '');
}
