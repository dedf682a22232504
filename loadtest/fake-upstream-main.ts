/**
 * The fake model server as its own process, for the load test's sidecar scenario (so its timers
 * do not share an event loop with autocannon): `FAKE_ANSWERS` (JSON: model -> canned answer) and
 * `FAKE_DELAY_MS` from the environment; prints `{"url": ...}` once listening on 127.0.0.1, and
 * exits on SIGTERM.
 */
import { startFakeUpstream, type CannedAnswer } from '../test/support/fake-upstream.js';

const answers = JSON.parse(process.env.FAKE_ANSWERS ?? '{}') as Record<string, CannedAnswer>;
const upstream = await startFakeUpstream({ answers, delayMs: Number(process.env.FAKE_DELAY_MS ?? 0), quiet: true });
process.stdout.write(`${JSON.stringify({ url: upstream.url })}\n`);
process.once('SIGTERM', () => {
  void upstream.close().then(() => process.exit(0));
});
