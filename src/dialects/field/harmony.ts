/**
 * The `harmony` family: OpenAI Harmony messages (gpt-oss), and LLM-jp's spelling of them with a
 * space after every special token (the reader skips that space wherever it may stand).
 */
import type { HarmonyGrammar } from './types.js';

const START = '<|start|>';
const CHANNEL = '<|channel|>';
const CONSTRAIN = '<|constrain|>';
const MESSAGE = '<|message|>';
const ENDS = ['<|call|>', '<|end|>', '<|return|>'];
/** The markers that end a Harmony message. */
export const HARMONY_ENDS: readonly string[] = ENDS;

/**
 * Where a message's body stops: an end marker, or the next message's start or channel. A visible
 * message's body (a `commentary` preamble, the `final` answer) is prose as written up to one: in
 * Harmony a call is a message with a recipient, never text inside another message.
 */
export const HARMONY_BODY_STOPS: readonly string[] = [...ENDS, START, CHANNEL];

export const HARMONY: HarmonyGrammar = {
  id: 'harmony',
  family: 'harmony',
  // A response may start mid-header (the template wrote `<|start|>assistant` in the prompt), at
  // a stray end marker, at the recipient of a call header, or at a channel word glued to
  // `<|message|>`; nothing shorter is unambiguous.
  // `<|start|>assistant to=` is Muse Glimmer's opener too: both readers are tried there.
  openers: [START, `${START}assistant to=`, CHANNEL, MESSAGE, ...ENDS, 'commentary to=', 'to=functions.', 'commentary<|message|>'],
  markers: [START, CHANNEL, CONSTRAIN, MESSAGE, ...ENDS],
  start: START,
  channel: CHANNEL,
  constrain: CONSTRAIN,
  message: MESSAGE,
  ends: ENDS,
  midHeaderOpeners: [
    { text: 'commentary to=', channel: 'commentary' },
    { text: 'to=functions.', channel: '' },
    // The template ended the prompt with `<|channel|>`: the output begins at the channel word.
    // (`analysis<|message|>` and `final<|message|>` are the reasoning family's openers.)
    { text: 'commentary<|message|>', channel: 'commentary' },
  ],
  recipientPrefix: 'to=',
  reasoningChannels: ['analysis'],
  visibleChannels: ['commentary', 'final'],
  personRecipients: ['assistant', 'user', 'all'],
  codeRecipients: [{ recipient: 'python', parameter: 'code' }],
};

export const HARMONY_GRAMMARS: readonly HarmonyGrammar[] = [HARMONY];
