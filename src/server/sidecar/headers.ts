/**
 * Which headers cross the sidecar. A request's headers go upstream as they came (authorization
 * included: the sidecar never reads, stores or logs it), less what belongs to one connection
 * and what the sidecar must control to read the answer; the upstream's answer headers come back
 * on the same terms.
 */
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';

/** Connection-level headers (RFC 9110 section 7.6.1) and ones the sidecar sets itself. */
const NOT_FORWARDED: ReadonlySet<string> = new Set([
  'connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade',
  'proxy-authorization', 'proxy-authenticate', 'host', 'content-length',
  // The sidecar reads the answer, so it must arrive uncompressed.
  'accept-encoding', 'content-encoding',
  // The sidecar's own request header.
  'x-tool-parse-diagnostics',
]);

function forwardable(name: string): boolean {
  return !NOT_FORWARDED.has(name.toLowerCase());
}

/** The headers to send upstream for a client's request. */
export function upstreamRequestHeaders(incoming: IncomingHttpHeaders): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(incoming)) if (value !== undefined && forwardable(name)) out[name] = value;
  return out;
}

/** The upstream's answer headers to pass back when the sidecar forwards its body as it is. */
export function passedResponseHeaders(upstream: IncomingHttpHeaders, drop: readonly string[] = []): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(upstream)) {
    if (value === undefined || !forwardable(name) || drop.includes(name.toLowerCase())) continue;
    out[name] = value;
  }
  return out;
}
