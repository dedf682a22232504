/**
 * The dialect vocabulary as frozen plain data (docs/design.md, "Dialects and the scan spec").
 *
 * No functions and no regular expressions live here: this module can be serialised to JSON,
 * sent to a worker thread, and diffed. Code that reads it lives in src/scan and src/compose.
 * Adding a spelling or a dialect is a change to this file (and a conformance case), never to
 * the scanner.
 */
import { deepFreeze } from './freeze.js';

/** Tables of `std/llm/dialects`, keyed by their reference names. */
export const DIALECTS = deepFreeze({
  "TAGGED_DIALECT": [
    {
      "canonical": "tool_call",
      "spellings": [
        "tool_call",
        "toolcall"
      ]
    },
    {
      "canonical": "assistant_prose",
      "spellings": [
        "assistant_prose",
        "assistantprose"
      ]
    },
    {
      "canonical": "user_response",
      "spellings": [
        "user_response",
        "userresponse"
      ]
    },
    {
      "canonical": "done",
      "spellings": [
        "done"
      ]
    }
  ],
  "NARRATION_TAGS": [
    "assistant_prose",
    "assistantprose",
    "thinking",
    "reasoning"
  ],
  "CONTENTLESS_WRAPPER_TAGS": [
    "function_calls"
  ],
  "MARKUP_DIALECTS": [
    {
      "opener": "<function=",
      "close": "</function>",
      "label": "`<function=...>`"
    },
    {
      "opener": "<invoke name=",
      "close": "</invoke>",
      "label": "`<invoke name=...>`"
    }
  ],
  "BARE_CALL_LINE_PREFIXES": [
    "tool_code:",
    "tool_call:",
    "tool_output:",
    "call:",
    "tool:",
    "use:",
    "python:",
    "javascript:",
    "typescript:",
    "shell:",
    "bash:"
  ],
  "IMPLICIT_TOOL_NAMES": [
    "ledger",
    "load_skill"
  ],
  "MISTRAL_CALL_MARKER": "[TOOL_CALLS]",
  "MISTRAL_ARGS_MARKER": "[ARGS]",
  "DSML_MARKER": "<｜DSML｜",
  "HARMONY_HEADER_MARKERS": [
    "start",
    "channel",
    "constrain"
  ],
  "HARMONY_STANDALONE_MARKERS": [
    "message",
    "end",
    "call"
  ],
  "HARMONY_FRAME_PREFIX": "<|",
  "HARMONY_FRAME_SUFFIX": "|>",
  "HARMONY_MESSAGE_MARKER": "<|message|>",
  "HARMONY_TOOL_CALL_HEADER_PREFIX": "tool_call to=",
  "HARMONY_CORRUPTED_OPENERS": [
    "<tool_call<|",
    "</tool_call<|",
    "<assistant<|"
  ],
  "RESERVED_MALFORMED_CALL_OPENER": "[[CALL]",
  "BACKTICK_FENCE": "```",
  "TILDE_FENCE": "~~~",
  "FENCE_OPEN_INFO": "tool",
  "FENCE_DRIFT_INFOS": [
    "json",
    "tool_code",
    "tool_call",
    "function_call"
  ],
  "FENCE_INFO_SUFFIX_SEPARATORS": [
    " ",
    "\t",
    "_",
    "-"
  ],
  "ENVELOPE_OPENERS": [
    {
      "canonical": "tool_calls",
      "spellings": [
        "tool_calls"
      ]
    },
    {
      "canonical": "tool_code",
      "spellings": [
        "tool_code"
      ]
    },
    {
      "canonical": "tool_call",
      "spellings": [
        "tool_call"
      ]
    }
  ],
  "NAME_ALIASES": [
    "name",
    "tool_name",
    "tool"
  ],
  "ARGUMENT_ALIASES": [
    "args",
    "arguments",
    "parameters"
  ],
  "NAME_CHANNEL_MARKERS": [
    "<|channel|>",
    "<|message|>",
    "<|recipient|>",
    "<|end|>"
  ],
  "NAME_NAMESPACE_PREFIXES": [
    "tool.",
    "tools.",
    "functions.",
    "function."
  ],
  "GENERIC_WRAPPER_NAMES": [
    "tool",
    "tool.call",
    "tool.exec",
    "tool_call",
    "function",
    "function.call",
    "call"
  ],
  "BROWSER_NAMESPACE_PREFIXES": [
    "repo_browser.",
    "repository_browser.",
    "workspace_browser.",
    "file_browser."
  ],
  "BROWSER_VERB_ALIASES": {
    "open_file": "look",
    "view_file": "look",
    "cat_file": "look",
    "read_file": "look",
    "print_tree": "look",
    "list_tree": "look",
    "list_dir": "look",
    "list_directory": "look",
    "ls": "look",
    "search": "search",
    "find": "search",
    "grep": "search"
  },
  "SHELL_ALIAS_NAMES": [
    "container.exec",
    "container_exec",
    "exec",
    "sh",
    "shell",
    "bash"
  ],
  "COMMAND_ARG_ALIASES": [
    "command",
    "script",
    "cmd"
  ],
  "SHELL_ARGV_BINARIES": [
    "bash",
    "sh",
    "/bin/bash",
    "/bin/sh"
  ],
  "SHELL_ARGV_SCRIPT_FLAGS": [
    "-lc",
    "-c",
    "lc",
    "c"
  ],
  "EDIT_ACTION_VERBS": [
    "create",
    "replace_range",
    "replace_body",
    "insert_after",
    "insert_function",
    "delete_range",
    "exact_patch",
    "add_import"
  ],
  "INTENT_TOOL_ALIASES": {
    "read": "look",
    "open": "look",
    "look": "look",
    "view": "look",
    "list": "look",
    "ls": "look",
    "search": "search",
    "grep": "search",
    "find": "search"
  },
  "COMMAND_SHAPE_KEYS": [
    "command",
    "commands",
    "cmd"
  ],
  "HTML_ENTITIES": {
    "amp;": "&",
    "lt;": "<",
    "gt;": ">",
    "quot;": "\"",
    "apos;": "'",
    "#39;": "'",
    "#34;": "\""
  },
  "DEFAULT_DONE_SENTINEL": "##DONE##"
} as const);

/**
 * Tag literals the lanes match by hand: the reference grammar's call block and its wrappers,
 * thinking tags, markup parameters and the `<tool_calls>` envelope's markers.
 */
export const TAG_LITERALS = deepFreeze({
  "tool_call_open": "<tool_call>",
  "tool_call_close": "</tool_call>",
  "tool_call_wrappers": ["<tool_call>", "</tool_call>", "<toolcall>", "</toolcall>"],
  "think_open": "<think>",
  "think_close": "</think>",
  "parameter_open": "<parameter",
  "parameter_close": "</parameter>",
  "tool_calls_close": "</tool_calls>",
  "tool_marker_open": "<tool>",
  "tool_marker_close": "</tool>"
} as const);

/** Chat-template envelope openers (the envelope module's own list; earliest occurrence wins). */
export const ENVELOPE_OPENERS = deepFreeze([
  {
    "open": "<tool_calls>",
    "close": "</tool_calls>",
    "kind": "tool_calls"
  },
  {
    "open": "<tool_code>",
    "close": "</tool_code>",
    "kind": "tool_code"
  },
  {
    "open": "<tool_call>",
    "close": "</tool_call>",
    "kind": "tool_call"
  },
  {
    "open": "<tool_use>",
    "close": "</tool_use>",
    "kind": "tool_call"
  },
  {
    "open": "<tool>",
    "close": "</tool>",
    "kind": "tool_call"
  },
  {
    "open": "[[tool]]",
    "close": "[[/tool]]",
    "kind": "tool_call"
  }
] as const);

/** Every envelope opener except `<tool_call>`: used to split a tagged-lane turn. */
export const ALTERNATE_ENVELOPE_OPENERS = deepFreeze([
  "<tool_calls>",
  "<tool_code>",
  "<tool_use>",
  "<tool>",
  "[[tool]]"
] as const);

/** Unit kinds the composer treats as stray text. */
export const TEXT_UNIT_KINDS = deepFreeze([
  "text",
  "fenced_line",
  "harmony_line"
] as const);

/** Violation kinds that report a tool call which did not run. */
export const LOST_CALL_VIOLATION_KINDS = deepFreeze([
  "ambiguous_recovery",
  "bare_json",
  "call_in_reasoning",
  "fence_dialect",
  "provider_dialect",
  "recovered_dialect",
  "unparsed_tool_syntax",
  "wrong_tool_format"
] as const);

/** Tool-shape detector vocabulary (its patterns are compiled in src/compose). */
export const TOOL_SHAPE = deepFreeze({
  "protocol_tags": [
    "tool_call",
    "toolcall",
    "assistant_prose",
    "assistantprose",
    "user_response",
    "userresponse",
    "done"
  ],
  "excerpt_limit": 240,
  "ellipsis": "…",
  "shapes": [
    "call_markup",
    "tagged_call_body",
    "json_name_arguments"
  ]
} as const);

/** The call shapes a route teaches, by `tool_format` (anything else is `text`). */
export const CALL_SHAPES = deepFreeze({
  "native": {
    "kind": "native",
    "call_syntax": "a native tool call on the provider's tool channel"
  },
  "json": {
    "kind": "json",
    "call_syntax": "a ```tool fenced block wrapping one JSON object with `name` and `args` keys"
  },
  "text": {
    "kind": "text",
    "call_syntax": "`<tool_call>name({ ... })</tool_call>`"
  }
} as const);
