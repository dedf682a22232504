/** autocannon against the service, with a warm-up, plus a one-off POST for correctness checks. Loopback only. */
import autocannon from 'autocannon';
import type { Scenario } from './scenarios.js';
import type { RunningServer } from './server.js';

export interface Reply {
  status: number;
  json: unknown;
  headers: Headers;
}

export async function post(url: string, body: string): Promise<Reply> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(30_000) });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, json, headers: res.headers };
}

/** Checks one answer of `scenario` against the library; returns the problem or null. */
export async function checkOnce(server: RunningServer, scenario: Scenario): Promise<string | null> {
  const first = await post(`${server.url}/parse`, scenario.body);
  return scenario.check(first.status, first.json);
}

/** `duration` seconds (or `amount` requests) of load; every run ends on its own bound. */
export function load(server: RunningServer, scenario: Scenario, duration: number, connections: number, extra: Partial<autocannon.Options> = {}): Promise<autocannon.Result> {
  return autocannon({
    url: `${server.url}/parse`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: scenario.body,
    connections,
    duration,
    timeout: 30,
    ...extra,
  });
}

/** One second of unmeasured load, so JIT warm-up in the service is not in the figures. */
export async function warmUp(server: RunningServer, scenario: Scenario, connections: number): Promise<void> {
  await load(server, scenario, 1, connections);
}

export const mib = (b: number | null): string => (b === null ? '-' : (b / 1048576).toFixed(0));
