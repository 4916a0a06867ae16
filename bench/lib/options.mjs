// The command line of the Node benchmark scripts (bench/fit, bench/reduce): `--name value`
// options, and where the CLI and the corpus are unless told.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);

// The value after `--name`, or `fallback` when the option is not given.
export function option(name, fallback) {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
}

// --cli (default: this checkout's build/cli/gltf-anim) and --corpus (default:
// ../shared/corpus beside the checkout), as absolute paths.
export const cliPath = () => resolve(option('--cli', join(repo, 'build/cli/gltf-anim')));
export const corpusPath = () => resolve(option('--corpus', join(repo, '../shared/corpus')));
