/**
 * Records the observed result of reference cases as regression pins in
 * conformance/expected/<group>.json (see lib/expected.ts).
 *
 *   npx tsx conformance/tools/record-expected.ts [--kind compose|scan] [--group <name>]...
 *
 * Without a filter every compose and scan case is recorded. A case whose implementation is
 * missing or throws is left unrecorded (and any earlier pin of it removed), so a pin always
 * holds output the port actually produced. Review the diff before committing: a pin changes
 * only when behaviour changed on purpose.
 */
import { loadReferenceGroups } from '../lib/cases.js';
import { runEntry } from '../lib/entries.js';
import { pinForm, readPins, writePins } from '../lib/expected.js';

interface Filter {
  kinds: Set<string>;
  groups: Set<string>;
}

function parseArgs(argv: readonly string[]): Filter {
  const filter: Filter = { kinds: new Set(), groups: new Set() };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (value === undefined || (flag !== '--kind' && flag !== '--group')) {
      throw new TypeError(`usage: record-expected.ts [--kind compose|scan] [--group <name>]...; got ${argv.join(' ')}`);
    }
    (flag === '--kind' ? filter.kinds : filter.groups).add(value);
  }
  return filter;
}

async function main(): Promise<void> {
  const filter = parseArgs(process.argv.slice(2));
  let recorded = 0;
  let skipped = 0;
  for (const group of loadReferenceGroups()) {
    if (filter.groups.size > 0 && !filter.groups.has(group.group)) continue;
    const pins = readPins(group.group);
    let touched = false;
    for (const c of group.cases) {
      if (c.informational || (c.kind !== 'compose' && c.kind !== 'scan')) continue;
      if (filter.kinds.size > 0 && !filter.kinds.has(c.kind)) continue;
      const run = await runEntry(c);
      touched = true;
      if (run.status === 'ran') {
        pins[c.id] = pinForm(run.result);
        recorded += 1;
      } else {
        delete pins[c.id];
        skipped += 1;
        process.stderr.write(`not recorded: ${c.id}: ${run.status}: ${run.reason}\n`);
      }
    }
    if (touched) writePins(group.group, pins);
  }
  process.stdout.write(`recorded ${recorded} pins; ${skipped} cases had no result to record\n`);
}

await main();
