// Runs before the npm CLI's runtime starts (emcc --pre-js). An abort of the WebAssembly
// runtime (a trap, not an error the C++ reports itself) ends the process with exit code 2 and
// one line on standard error, like any other error the CLI cannot report as an issue, instead
// of a JavaScript stack trace.
Module['onAbort'] = function (what) {
  process.stderr.write('gltf-anim: internal error: the WebAssembly runtime stopped (' + what + ')\n');
  process.exit(2);
};

// Emscripten 3.1.6 loads the .wasm with fetch() whenever the host has one, and Node 18 does,
// but its fetch takes no file path: the bytes are read here instead, beside this file.
Module['wasmBinary'] = require('fs').readFileSync(require('path').join(__dirname, 'gltf-anim-cli.wasm'));
