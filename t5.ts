import { streamCorpus } from './test/stream/corpus.js';
const corpus = streamCorpus();
import { invariantFailures, streamChunks } from './test/stream/invariant.js';
const gateway = corpus.filter((c) => c.options.profile !== 'harn');
const parts = [gateway[241]!, gateway[126]!];
const text = parts.map(p=>p.text).join('');
console.log(JSON.stringify(text)); console.log(parts.map(p=>JSON.stringify(p.options)));
const tools = new Map<string, unknown>();
for (const p of parts) for (const t of Array.isArray(p.options.tools) ? (p.options.tools as unknown[]) : []) tools.set(typeof t === 'string' ? t : String((t as { name?: unknown }).name), t);
const options = { ...parts[0]!.options, tools: tools.size > 0 ? [...tools.values()] : undefined } as any;
for (let n = 1; n < text.length; n++) {
  const chunks = [text.slice(0,n), text.slice(n)];
  const f = invariantFailures(text, chunks, options);
  if (f.length) { console.log(n, f); const s = streamChunks(chunks, options); console.log(JSON.stringify(s.events)); break; }
}
import { createStreamParser } from './src/index.js';
{
const n = 384; const st = createStreamParser(options);
console.log('C1', JSON.stringify(text.slice(0,n).slice(-60)));
console.log('P1', JSON.stringify(st.push(text.slice(0,n))));
console.log('P2', JSON.stringify(st.push(text.slice(n)).map(e=>e.type==='text'?e:e.type)));
}
