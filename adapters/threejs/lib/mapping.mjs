// From three.js keyframe tracks back to glTF animated properties.
//
// GLTFLoader turns channel c of animation a into AnimationClip gltf.animations[a]
// (clips are created in animation order) holding one KeyframeTrack named
// "<object name or uuid>.<property>" per channel whose target has a node:
//   translation -> .position, rotation -> .quaternion, scale -> .scale,
//   weights     -> .morphTargetInfluences, once per mesh with morph targets
//                  (a node whose mesh has several primitives is a Group, and
//                  each primitive's Mesh gets its own track with the same values).
// Channels without target.node (KHR_animation_pointer) are skipped by the loader.
//
// To find the glTF node a track drives we do what AnimationMixer does when it
// binds the track: PropertyBinding.parseTrackName(track.name) then
// PropertyBinding.findNode(mixerRoot, nodeName), with the loaded scene as the
// mixer root. The object found is mapped to its node index through
// GLTFLoader's parser.associations ({nodes: index}); a primitive Mesh inside a
// multi-primitive node has no node entry, so we walk up to the nearest ancestor
// that has one. So if three binds a track to the wrong object (for example
// after a node-name collision), the samples say so, under that object's node.
import { PropertyBinding } from 'three';

// three property name -> glTF channel path
export const PATH_OF_PROPERTY = Object.freeze({
  position: 'translation',
  quaternion: 'rotation',
  scale: 'scale',
  morphTargetInfluences: 'weights',
});

// The glTF node index of `object` (or of its nearest ancestor with one).
export function nodeIndexOf(object, associations) {
  for (let o = object; o; o = o.parent) {
    const a = associations.get(o);
    if (a && a.nodes !== undefined) return a.nodes;
  }
  return undefined;
}

// For one AnimationClip: [{ node, path, target, tracks: [KeyframeTrack...], problems }]
// in the order of the clip's tracks (first occurrence), plus `unmapped`:
// tracks that three would not bind to any glTF node, with the reason.
export function mapClip(clip, root, associations) {
  const byTarget = new Map();
  const unmapped = [];
  for (const track of clip.tracks) {
    let parsed;
    try {
      parsed = PropertyBinding.parseTrackName(track.name);
    } catch (e) {
      unmapped.push({ track: track.name, reason: e.message });
      continue;
    }
    const path = PATH_OF_PROPERTY[parsed.propertyName];
    if (path === undefined || parsed.propertyIndex !== undefined || parsed.objectName !== undefined) {
      unmapped.push({ track: track.name, reason: `property ${parsed.propertyName} is not a glTF node property` });
      continue;
    }
    if (!root) {
      unmapped.push({ track: track.name, reason: 'the asset has no scene (gltf.scene is undefined): AnimationMixer has no root to bind the track under' });
      continue;
    }
    const object = PropertyBinding.findNode(root, parsed.nodeName);
    if (!object) {
      unmapped.push({ track: track.name, reason: `no object named ${parsed.nodeName} under the scene (AnimationMixer would not bind it)` });
      continue;
    }
    const node = nodeIndexOf(object, associations);
    if (node === undefined) {
      unmapped.push({ track: track.name, reason: `object ${parsed.nodeName} is not associated with a glTF node` });
      continue;
    }
    const target = `/nodes/${node}/${path}`;
    let entry = byTarget.get(target);
    if (!entry) {
      entry = { node, path, target, tracks: [] };
      byTarget.set(target, entry);
    }
    entry.tracks.push(track);
  }
  return { targets: [...byTarget.values()], unmapped };
}

// The interpolant three's AnimationMixer would use for `track`, writing into a
// Float64Array as the mixer's PropertyMixer buffer does (AnimationAction calls
// track.createInterpolant(null); AnimationMixer._bindAction then points its
// resultBuffer at the binding's Float64Array).
export function engineInterpolant(track) {
  const interpolant = track.createInterpolant(null);
  interpolant.resultBuffer = new Float64Array(interpolant.valueSize);
  return interpolant;
}

// Samples `track` at `times` with three's own interpolant. Returns arrays of
// plain numbers (the interpolant's result buffer copied).
export function sampleTrack(track, times) {
  const interpolant = engineInterpolant(track);
  return times.map((t) => Array.from(interpolant.evaluate(t)));
}
