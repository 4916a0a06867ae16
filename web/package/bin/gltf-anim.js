#!/usr/bin/env node
// The npm package's `gltf-anim`: the native CLI's own sources compiled to WebAssembly
// (dist/gltf-anim-cli.cjs), with Node's file system as it is. Its options, messages, exit
// codes and report bytes are the native CLI's; the emscripten runtime reads the arguments
// from process.argv and exits the process with main's exit code.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
require('../dist/gltf-anim-cli.cjs');
