// The validation report as the worker keeps it: the CLI's JSON report, read without ever
// holding it as one string (a million issues are over 500 MB of JSON, past what a JavaScript
// string can hold), grouped by (code, severity) so that the page's thread only receives the
// counts and asks for the rows it shows.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const MESSAGES = Array.from('messages', (c) => c.charCodeAt(0));
const BATCH = 8192; // messages per JSON.parse: a few MB of text at a time

/**
 * Splits the CLI's JSON report (bytes) into the report with every `messages` array emptied
 * and, in document order, the parsed arrays: one pass over the bytes, which only needs to
 * know where strings start and end (every structural character is ASCII, so UTF-8 needs no
 * decoding to find them).
 */
export function splitReport(bytes) {
  const decoder = new TextDecoder();
  const skeleton = []; // pieces of the report outside the messages arrays
  const arrays = [];
  const stack = []; // per open container: {array, messages, depth}
  let keyStart = -1; // the last string's bytes, when it may be a key
  let keyEnd = -1;
  let isMessagesKey = false;
  let copied = 0; // bytes before this belong to a skeleton piece or a messages array
  let cut = -1; // inside a messages array: where its current batch starts
  let batches = null;
  let items = 0;
  const n = bytes.length;
  for (let i = 0; i < n; ++i) {
    const b = bytes[i];
    if (b === QUOTE) {
      const start = i + 1;
      for (++i; i < n && bytes[i] !== QUOTE; ++i) if (bytes[i] === BACKSLASH) ++i;
      keyStart = start;
      keyEnd = i;
    } else if (b === COLON) {
      isMessagesKey = keyEnd - keyStart === MESSAGES.length &&
        MESSAGES.every((c, k) => bytes[keyStart + k] === c);
    } else if (b === OPEN_BRACKET || b === OPEN_BRACE) {
      const messages = b === OPEN_BRACKET && isMessagesKey && stack.length > 0 && !stack.at(-1).array;
      stack.push({ array: b === OPEN_BRACKET, messages });
      isMessagesKey = false;
      if (messages) {
        skeleton.push(bytes.subarray(copied, i + 1));
        copied = i + 1;
        cut = i + 1;
        batches = [];
        items = 0;
      }
    } else if (b === CLOSE_BRACKET || b === CLOSE_BRACE) {
      const top = stack.pop();
      if (top?.messages) {
        if (i > cut && !isBlank(bytes, cut, i)) batches.push(bytes.subarray(cut, i));
        arrays.push(batches.flatMap((piece) => JSON.parse(`[${decoder.decode(piece)}]`)));
        copied = i;
        batches = null;
      }
    } else if (b === COMMA) {
      isMessagesKey = false;
      if (batches !== null && stack.at(-1).messages && ++items % BATCH === 0) {
        batches.push(bytes.subarray(cut, i));
        cut = i + 1;
      }
    }
  }
  skeleton.push(bytes.subarray(copied));
  const report = JSON.parse(skeleton.map((p) => decoder.decode(p)).join(''));
  return { report, arrays };
}

function isBlank(bytes, from, to) {
  for (let i = from; i < to; ++i) if (bytes[i] > 0x20) return false;
  return true;
}

/**
 * One asset's issues grouped by (code, severity), in order of severity then code; each group
 * keeps the indices of its messages in report order.
 */
export function groupIssues(messages) {
  const groups = new Map();
  messages.forEach((m, index) => {
    const key = `${m.code}\u0000${m.severity}`;
    let g = groups.get(key);
    if (!g) {
      g = { code: m.code, severity: m.severity, message: m.message, indices: [] };
      groups.set(key, g);
    }
    g.indices.push(index);
  });
  return [...groups.values()].sort((x, y) => x.severity - y.severity || x.code.localeCompare(y.code));
}

/** A pointer row as the page shows it. */
export function rowText(m) {
  return `${m.pointer ?? '(no pointer)'}: ${m.message}`;
}

// ---- A channel's issues at its keys (the page's plots mark them) ----

// The whole number after `phrase` in a message (messages are cut at 1 KiB), or null.
function numberAfter(text, phrase) {
  const at = text.indexOf(phrase);
  if (at < 0) return null;
  let i = at + phrase.length;
  let n = null;
  for (; i < text.length && text[i] >= '0' && text[i] <= '9'; ++i) n = (n ?? 0) * 10 + (text.charCodeAt(i) - 48);
  return n;
}

// The key an issue names, from the numbers its code's message template carries (see
// `gltf-anim codes`); null for an issue of the channel that names no key.
const KEY_OF = {
  ACCESSOR_ANIMATION_INPUT_NON_INCREASING: (m) => numberAfter(m.message, 'at index '),
  ACCESSOR_ANIMATION_INPUT_NEGATIVE: (m) => numberAfter(m.message, 'at index '),
  // Components i..i+3 of the output: element i / 4, three elements a key for CUBICSPLINE.
  ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION: (m, ch) => {
    const i = numberAfter(m.message, 'at indices ');
    return i === null ? null : Math.floor(Math.floor(i / 4) / (ch.interpolation === 'CUBICSPLINE' ? 3 : 1));
  },
  // Keys k and k+1: the later one is where the flip shows.
  LINT_ROTATION_NEGATIVE_DOT: (m) => numberAfter(m.message, ' and '),
  LINT_CUBIC_ROTATION_OPPOSITE_KEYS: (m) => numberAfter(m.message, ' and '),
  LINT_CUBICSPLINE_NONZERO_END_TANGENT: (m, ch) => (m.message.includes('first in-tangent') ? 0
    : m.message.includes('last out-tangent') ? ch.keys - 1 : null),
  EXT_ANIMATION_SQLERP_NONZERO_END_TANGENT: (m) => {
    const e = numberAfter(m.message, 'output element ');
    return e === null ? null : Math.floor(e / 3);
  },
  LINT_REDUNDANT_KEYFRAME: (m) => numberAfter(m.message, 'first: key '),
};

const LISTED = 100; // issues listed under a plot; the markers count every one

/**
 * Each channel's issues (`channels`: {animation, index, sampler, interpolation, keys}, as the
 * samples file names them): those whose pointer is under the channel or under the sampler it
 * evaluates, as {total, keys: the key of each that names one, listed: the first LISTED}. One
 * pass over the messages, then one lookup a channel.
 */
export function channelIssues(messages, channels) {
  const byPrefix = new Map(); // "/animations/A/channels/C" or ".../samplers/S" -> messages
  for (const m of messages) {
    const p = m.pointer;
    if (typeof p !== 'string' || !p.startsWith('/animations/')) continue;
    let slashes = 0;
    let end = p.length;
    for (let i = 0; i < p.length; ++i) {
      if (p[i] === '/' && ++slashes === 5) {
        end = i;
        break;
      }
    }
    const prefix = p.slice(0, end);
    if (!byPrefix.has(prefix)) byPrefix.set(prefix, []);
    byPrefix.get(prefix).push(m);
  }
  return channels.map((ch) => {
    const own = [...(byPrefix.get(`/animations/${ch.animation}/channels/${ch.index}`) ?? []),
      ...(byPrefix.get(`/animations/${ch.animation}/samplers/${ch.sampler}`) ?? [])];
    const keys = [];
    const listed = [];
    for (const m of own) {
      const k = KEY_OF[m.code]?.(m, ch);
      const key = Number.isInteger(k) && k >= 0 && k < ch.keys ? k : null;
      if (key !== null) keys.push(key);
      if (listed.length < LISTED) listed.push({ code: m.code, key });
    }
    return { total: own.length, keys, listed };
  });
}
