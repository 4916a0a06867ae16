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

// The whole number after `phrase` in a message (messages are cut at 1 KiB), or null.
function numberAfter(text, phrase) {
  const at = text.indexOf(phrase);
  if (at < 0) return null;
  let i = at + phrase.length;
  let n = null;
  for (; i < text.length && text[i] >= '0' && text[i] <= '9'; ++i) n = (n ?? 0) * 10 + (text.charCodeAt(i) - 48);
  return n;
}

/**
 * Output elements a key stores: an in-tangent (or incoming control point), the value and an
 * out-tangent (outgoing control point) for the cubic interpolations, CUBICSPLINE and
 * EXT_animation_sqlerp's CUBICSLERP; the value alone for the others.
 */
export function elementsPerKey(interpolation) {
  return interpolation === 'CUBICSPLINE' || interpolation === 'CUBICSLERP' ? 3 : 1;
}

// The key an issue names, from the numbers its code's message template carries (see
// `gltf-anim codes`); null for an issue of the channel that names no key.
const KEY_OF = {
  ACCESSOR_ANIMATION_INPUT_NON_INCREASING: (m) => numberAfter(m.message, 'at index '),
  ACCESSOR_ANIMATION_INPUT_NEGATIVE: (m) => numberAfter(m.message, 'at index '),
  // Components i..i+3 of the output: element i / 4, elementsPerKey elements a key.
  ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION: (m, ch) => {
    const i = numberAfter(m.message, 'at indices ');
    return i === null ? null : Math.floor(Math.floor(i / 4) / elementsPerKey(ch.interpolation));
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
