// From Babylon's loaded animations back to glTF channel values.
//
// Babylon's glTF loader turns channel c of glTF animation a into one or more
// Babylon `Animation`s in the AnimationGroup json.animations[a]._babylonAnimationGroup,
// named `<group>_channel<c>_<n>` (weights: `<group>_channel<c>_<n>_<morph target>`),
// keyed in frames (frame = glTF time x targetFps, 60), each animating one
// Babylon property (`position`, `rotationQuaternion`, `albedoColor`, `alpha`,
// `influence`, ...). Which glTF components feed which property, with what
// factor (KHR_texture_transform rotation is negated into `wAng`, a light's
// spot angles are doubled, ...), is the loader's own AnimationPropertyInfo
// list for the channel's pointer (objectModelMapping; core node paths use the
// same table). componentMap() asks each AnimationPropertyInfo.getValue how it
// maps a unit vector, so the inverse applied here is exactly the loader's
// conversion, not a second copy of it.
//
// Values: Animation.evaluate(frame) is Babylon's own interpolation
// (Animation._interpolate with loop mode CONSTANT: STEP, linear, Quaternion
// slerp, Hermite with tangents), at frame = t x framePerSecond.
import { GetPathToObjectConverter } from '@babylonjs/loaders/glTF/2.0/Extensions/objectModelMapping.js';
import { channelTarget } from '../../common/runner.mjs';

// The components of a Babylon animated value, in order.
export function flatten(v) {
  if (typeof v === 'number') return [v];
  if (typeof v === 'boolean') return [v ? 1 : 0];
  if (Array.isArray(v)) return v.flatMap(flatten);
  if (v && typeof v.asArray === 'function') return v.asArray();
  throw new Error(`cannot read a Babylon value of type ${v && v.constructor ? v.constructor.name : typeof v}`);
}

// For one AnimationPropertyInfo: its stride (glTF components per key) and, per
// component of its Babylon value, {k: the glTF component, f: the factor}.
export function componentMap(info, target) {
  const stride = info.getStride(target);
  const map = [];
  for (let k = 0; k < stride; k++) {
    const unit = new Float32Array(stride);
    unit[k] = 1;
    flatten(info.getValue(target, unit, 0, 1)).forEach((x, o) => {
      if (x !== 0) {
        if (map[o] !== undefined) throw new Error(`${info.name}: output ${o} depends on two glTF components`);
        map[o] = { k, f: x };
      }
    });
  }
  return { stride, map };
}

const NAME_RE = /_channel(\d+)_(\d+)(?:_(\d+))?$/;

// Parses a loader-made animation name: {channel, n, morphTarget?} or null.
export function parseAnimationName(name, isWeights) {
  const m = NAME_RE.exec(name);
  if (!m) return null;
  if (isWeights !== (m[3] !== undefined)) return null;
  return { channel: Number(m[1]), n: Number(m[2]), morphTarget: m[3] === undefined ? undefined : Number(m[3]) };
}

// For glTF animation `ai` of the loaded asset: channel index -> evaluator
// ({evaluate(t), interpolation} or {missing}).
export function channelEvaluators(json, ai, warnings = []) {
  const def = json.animations[ai];
  const group = def._babylonAnimationGroup;
  const converter = GetPathToObjectConverter(json);
  const byChannel = new Map();
  if (group) {
    for (const ta of group.targetedAnimations) {
      const a = ta.animation;
      const parsed = parseAnimationName(a.name, a.targetProperty === 'influence');
      if (!parsed) continue;
      if (!byChannel.has(parsed.channel)) byChannel.set(parsed.channel, []);
      byChannel.get(parsed.channel).push({ animation: a, morphTarget: parsed.morphTarget });
    }
  }
  const result = new Map();
  def.channels.forEach((ch, ci) => {
    const anims = byChannel.get(ci);
    if (!anims || anims.length === 0) {
      const why = warnings.filter((w) => w.includes(`/animations/${ai}/channels/${ci}/`));
      result.set(ci, { missing: why.length ? `Babylon's loader made no animation (${why.join('; ')})` : 'Babylon\'s loader made no animation for it' });
      return;
    }
    const pointer = channelTarget(ch);
    let converted;
    try {
      converted = converter.convert(pointer);
    } catch (e) {
      result.set(ci, { missing: `no Babylon object model mapping for ${pointer}: ${e.message}` });
      return;
    }
    const infos = converted.info.interpolation || [];
    const target = converted.object;
    // glTF component k <- (animation, output component o, factor f)
    const sources = [];
    let width = 0;
    for (const info of infos) {
      const { stride, map } = componentMap(info, target);
      width = Math.max(width, stride);
      if (info.name === 'influence') {
        // One Babylon animation per morph target: output o of getWeights is morph target o.
        map.forEach(({ k, f }, o) => {
          const hit = anims.find((x) => x.morphTarget === o && x.animation.targetProperty === 'influence');
          if (hit) sources[k] = { animation: hit.animation, o: 0, f };
        });
      } else {
        const hit = anims.find((x) => x.animation.targetProperty === info.name);
        if (!hit) continue;
        map.forEach(({ k, f }, o) => { sources[k] = { animation: hit.animation, o, f }; });
      }
    }
    for (let k = 0; k < width; k++) {
      if (!sources[k]) {
        result.set(ci, { missing: `Babylon animates ${pointer} without glTF component ${k} (properties ${infos.map((i) => i.name).join(', ')})` });
        return;
      }
    }
    const interpolation = (def.samplers[ch.sampler] || {}).interpolation ?? 'LINEAR';
    // A glTF boolean (KHR_node_visibility visible) is animated as a float
    // (e.g. isVisible = 2 for a stored 2); Babylon uses it as a boolean, so
    // the samples give its truth value as 0 or 1.
    const isBoolean = converted.info.type === 'boolean';
    const evaluate = (t) => {
      const cache = new Map();
      return sources.map(({ animation, o, f }) => {
        if (!cache.has(animation)) cache.set(animation, flatten(animation.evaluate(t * animation.framePerSecond)));
        const v = cache.get(animation)[o] / f;
        return isBoolean ? (v ? 1 : 0) : v;
      });
    };
    result.set(ci, { interpolation, evaluate, pointer, converted, fps: sources[0].animation.framePerSecond, properties: [...new Set(sources.map((x) => x.animation.targetProperty))] });
  });
  return result;
}

// What the scene holds for `pointer` after the AnimationGroup is moved to time
// t (AnimationGroup.goToFrame, Babylon's playback path), read through the
// object model's getter for that pointer (the accessor KHR_interactivity
// uses). null when the mapping has no getter.
export function playbackValue(group, converted, t, fps) {
  const get = converted.info && converted.info.get;
  if (typeof get !== 'function') return null;
  if (!group.isStarted) {
    group.start(false, 1, group.from, group.to);
    group.pause();
  }
  group.goToFrame(t * fps);
  return flatten(get(converted.object, converted.index, converted.payload));
}

// Checks one channel's evaluated values against the playback state at `times`.
// Returns 'same' (equal within 1e-6 at every time), 'negated' (the getter reads
// the opposite sign everywhere: the getter's convention, e.g. Babylon's wAng
// for KHR_texture_transform rotation, while the animated value is the loader's
// own conversion of the glTF value), or 'different' (the animation writes a
// property the pointer does not designate).
export function bindingCheck(group, ev, times) {
  let same = true;
  let negated = true;
  let any = false;
  for (const t of times) {
    const seen = playbackValue(group, ev.converted, t, ev.fps);
    if (seen === null) return 'no-getter';
    const want = ev.evaluate(t);
    if (seen.length !== want.length) return 'different';
    for (let k = 0; k < want.length; k++) {
      any = true;
      if (!(Math.abs(seen[k] - want[k]) <= 1e-6)) same = false;
      if (!(Math.abs(seen[k] + want[k]) <= 1e-6)) negated = false;
    }
  }
  if (!any || same) return 'same';
  return negated ? 'negated' : 'different';
}
