// Finding a golden channel again in what an exporter wrote. Exporters
// renumber: three.js writes the scene graph in traversal order, Babylon adds a
// root node, gltfpack removes what is not animated. Objects are matched by
// name (the k-th object of a name in the original is the k-th of that name in
// the written file); an unnamed object keeps its index when the written
// collection has as many objects, and is not found otherwise.

// The index in `exportedArray` of original element `i` of `originalArray`.
function mapIndex(originalArray, exportedArray, i) {
  if (!Array.isArray(exportedArray)) return undefined;
  const name = originalArray[i] && originalArray[i].name;
  if (typeof name === 'string' && name !== '') {
    let k = 0;
    for (let j = 0; j < i; j++) if (originalArray[j] && originalArray[j].name === name) k++;
    for (let j = 0; j < exportedArray.length; j++) {
      if (exportedArray[j] && exportedArray[j].name === name) {
        if (k === 0) return j;
        k--;
      }
    }
    // three.js makes node names unique by suffixing "_1", "_2", ...
    for (let j = 0; j < exportedArray.length; j++) {
      const n = exportedArray[j] && exportedArray[j].name;
      if (typeof n === 'string' && n.startsWith(`${name}_`) && /^\d+$/.test(n.slice(name.length + 1)) && k-- === 0) return j;
    }
    return undefined;
  }
  return originalArray.length === exportedArray.length ? i : undefined;
}

function decodeToken(t) {
  return t.replace(/~1/g, '/').replace(/~0/g, '~');
}
function encodeToken(t) {
  return t.replace(/~/g, '~0').replace(/\//g, '~1');
}

// The pointer of the same property in the written file, or undefined when
// the object it belongs to is not there. Tokens past what the original JSON
// holds (a node's rotation that is not written) are kept as they are.
export function mapPointer(pointer, original, exported) {
  const tokens = pointer.split('/').slice(1).map(decodeToken);
  const out = [];
  let a = original;
  let b = exported;
  for (const tok of tokens) {
    if (Array.isArray(a) && /^\d+$/.test(tok)) {
      const j = mapIndex(a, b, Number(tok));
      if (j === undefined) return undefined;
      out.push(String(j));
      a = a[Number(tok)];
      b = b[j];
    } else {
      out.push(tok);
      a = a && typeof a === 'object' ? a[tok] : undefined;
      b = b && typeof b === 'object' ? b[tok] : undefined;
    }
  }
  return '/' + out.map(encodeToken).join('/');
}

// Where else the written file may animate the same morph weights: a node's
// weights act on its mesh, and an exporter may move the mesh to a child node
// (gltfpack wraps a quantized mesh in a child that carries the dequantizing
// transform). For `/nodes/N/weights` of a node without a mesh: the pointers
// of its descendants that hold one, nearest first. Otherwise none.
export function weightsElsewhere(pointer, exported) {
  const m = /^\/nodes\/(\d+)\/weights$/.exec(pointer || '');
  const nodes = exported.nodes || [];
  if (!m || !nodes[Number(m[1])] || nodes[Number(m[1])].mesh !== undefined) return [];
  const out = [];
  const seen = new Set([Number(m[1])]);
  let level = [Number(m[1])];
  while (level.length) {
    const next = [];
    for (const n of level) {
      for (const c of nodes[n].children || []) {
        if (seen.has(c) || !nodes[c]) continue;
        seen.add(c);
        if (nodes[c].mesh !== undefined) out.push(`/nodes/${c}/weights`);
        next.push(c);
      }
    }
    level = next;
  }
  return out;
}

// The written file's sampled animations in the order to search for golden
// animation `ga`: the one of the same name (or index) first, then the rest
// (an exporter may merge or split animations).
export function findAnimation(ga, original, exported, sampled) {
  const anims = sampled.animations || [];
  const origAnims = original.animations || [];
  const j = mapIndex(origAnims, exported.animations || [], ga.index);
  const first = anims.filter((a) => a.index === j);
  return first.concat(anims.filter((a) => a.index !== j));
}

export function channelTargetOf(ch) {
  return ch.target;
}

// What changed on the way, in words, one line per channel that changed.
export function describeChanges(facts) {
  const lines = [];
  if (facts.validation && facts.validation.errors > 0) {
    lines.push(`the written file has ${facts.validation.errors} validation error(s): ${facts.validation.codes.join(', ')}`);
  }
  if (facts.sampleError) lines.push(`gltf-anim sample refuses the written file: ${facts.sampleError}`);
  for (const c of facts.channels) {
    const at = `animation ${c.animation} channel ${c.channel} (${c.target})`;
    if (c.dropped) {
      lines.push(`${at}: dropped: ${c.why}`);
      continue;
    }
    const changes = [];
    if (c.interpolation !== c.goldenInterpolation) changes.push(`${c.goldenInterpolation} written as ${c.interpolation}`);
    if (c.keys !== c.goldenKeys) changes.push(`${c.goldenKeys} keys written as ${c.keys}`);
    else if (!c.keyTimesEqual) changes.push('key times shifted');
    if (c.mappedTarget !== c.target) changes.push(`now ${c.mappedTarget}`);
    if (changes.length) lines.push(`${at}: ${changes.join('; ')}`);
  }
  return lines;
}
