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

// The CLI opens every file with O_NONBLOCK (io/src/files.cpp) so that a FIFO given as IN or
// named as a buffer is refused at once ("Is a FIFO (named pipe), not a regular file", after
// fstat) instead of waiting for a writer. Emscripten 3.1.6's NODERAWFS drops that flag before
// it calls Node's fs.openSync, which then blocks for ever on a FIFO: it is handed on here.
// musl's O_NONBLOCK is 04000; NODEFS exists once the runtime is defined, before main runs.
Module['preRun'] = [function () {
  var flagsForNode = NODEFS.flagsForNode;
  var nonBlock = require('fs').constants.O_NONBLOCK;
  NODEFS.flagsForNode = function (flags) {
    return flagsForNode(flags) | ((flags & 0x800) && nonBlock ? nonBlock : 0);
  };
}];
