/**
 * The closest TypeScript peer, `@ai-sdk-tool/parser` (a dev dependency), driven through its
 * protocols' `parseGeneratedText`, the one-shot entry its middleware calls on a whole response.
 * The tools are handed over in its form (AI SDK function tools with `inputSchema`).
 */
import { hermesProtocol, qwen3CoderProtocol } from '@ai-sdk-tool/parser';
import { normalizeTools } from '../src/dialects/registry.js';
import type { PeerProtocol } from './rows.js';

type PeerTool = Parameters<ReturnType<typeof hermesProtocol>['parseGeneratedText']>[0]['tools'][number];
type JsonSchema = PeerTool['inputSchema'];

export function peerTools(tools: unknown): PeerTool[] {
  const registry = normalizeTools(tools);
  return (registry?.tools ?? []).map((tool) => ({
    type: 'function',
    name: tool.name,
    description: tool.description,
    inputSchema: (tool.schema ?? { type: 'object', properties: {} }) as JsonSchema,
  }));
}

/** A parse of `text` by the peer; returns the tool calls it found. */
export function peerParser(protocol: PeerProtocol, tools: unknown): (text: string) => number {
  const parser = protocol === 'hermes' ? hermesProtocol() : qwen3CoderProtocol();
  const own = peerTools(tools);
  return (text) => parser.parseGeneratedText({ text, tools: own }).filter((part) => part.type === 'tool-call').length;
}
