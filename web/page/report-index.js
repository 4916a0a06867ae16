// The validation report as the worker keeps it: the CLI's JSON report, split by the
// package's splitReport (never one string: a million issues are over 500 MB of JSON, past
// what a JavaScript string can hold), grouped by (code, severity) so that the page's thread
// only receives the counts and asks for the rows it shows.

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

// Argument n of an issue's message template ({n}, see `gltf-anim codes`), as the JSON report
// carries it in `arguments`, when it is a whole number; null otherwise (no arguments: a finding
// of glTF-Validator's alone, or a report written before they were carried).
function wholeArgument(m, n) {
  const a = Array.isArray(m.arguments) ? m.arguments[n] : undefined;
  return typeof a === 'string' && /^[0-9]+$/.test(a) ? Number(a) : null;
}

// The key an issue names, from its code's template arguments; null for an issue of the channel
// that names no key. `ch.outputsPerKey` is how many output elements the channel's keys file gives
// a key (in-tangent, value and out-tangent for a cubic interpolation, the value alone otherwise),
// null when there are no keys to say it.
const KEY_OF = {
  // "element at index {0}": an input element is a key.
  ACCESSOR_ANIMATION_INPUT_NON_INCREASING: (m) => wholeArgument(m, 0),
  ACCESSOR_ANIMATION_INPUT_NEGATIVE: (m) => wholeArgument(m, 0),
  // "at indices {0}..{1}", flat components: element {0} / 4, outputsPerKey elements a key.
  ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION: (m, ch) => {
    const i = wholeArgument(m, 0);
    return i === null || !ch.outputsPerKey ? null : Math.floor(Math.floor(i / 4) / ch.outputsPerKey);
  },
  // "keys {0} and {1}": the later one is where the flip shows.
  LINT_ROTATION_NEGATIVE_DOT: (m) => wholeArgument(m, 1),
  LINT_CUBIC_ROTATION_OPPOSITE_KEYS: (m) => wholeArgument(m, 1),
  // "The CUBICSPLINE {0}": which end.
  LINT_CUBICSPLINE_NONZERO_END_TANGENT: (m, ch) => {
    const end = Array.isArray(m.arguments) ? m.arguments[0] : undefined;
    return end === 'first in-tangent' ? 0 : end === 'last out-tangent' ? ch.keys - 1 : null;
  },
  // "(output element {1})".
  EXT_ANIMATION_SQLERP_NONZERO_END_TANGENT: (m, ch) => {
    const e = wholeArgument(m, 1);
    return e === null || !ch.outputsPerKey ? null : Math.floor(e / ch.outputsPerKey);
  },
  // "(first: key {1})".
  LINT_REDUNDANT_KEYFRAME: (m) => wholeArgument(m, 1),
};

const LISTED = 100; // issues listed under a plot; the markers count every one

/**
 * Each channel's issues (`channels`: {animation, index, sampler, keys, outputsPerKey}, as the
 * samples and keys files name them): those whose pointer is under the channel or under the sampler it
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
