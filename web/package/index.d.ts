// Types of the gltf-anim npm package (index.js). The report shapes are those the native CLI
// writes: `validate --format json` (glTF-Validator-shaped reports per asset and a summary),
// `sample --format json` (docs/samples.schema.json), `compare --format json`.

/** File contents: bytes, or text (encoded as UTF-8). */
export type FileData = Uint8Array | ArrayBuffer | ArrayBufferView | string;

/** Files by relative path ('scene.gltf', 'textures/a.png'), as a Map, an object or a list. */
export type Files =
  | Map<string, FileData>
  | Record<string, FileData>
  | Array<[string, FileData] | { path: string; bytes: FileData } | { name: string; data: FileData }>;

/**
 * One asset as bytes (named `options.name`, else asset.glb or asset.gltf by its first bytes),
 * or files: every .gltf/.glb among them is validated (or those in `paths`) with the others as
 * their resources.
 */
export type Input = FileData | { files: Files; paths?: string[] };

/** 0 error, 1 warning, 2 information, 3 hint (glTF-Validator's numbering). */
export type Severity = 0 | 1 | 2 | 3;
export type SeverityName = 'error' | 'warning' | 'info' | 'hint';

export interface Message {
  code: string;
  message: string;
  severity: Severity;
  pointer?: string;
  /** With --merge-gltf-validator: the tool(s) that found it. */
  tools?: string[];
  [key: string]: unknown;
}

export interface AssetReport {
  uri: string;
  mimeType?: string;
  validatorName: string;
  validatorVersion: string;
  issues: {
    numErrors: number;
    numWarnings: number;
    numInfos: number;
    numHints: number;
    messages: Message[];
    truncated: boolean;
  };
  info?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface ValidationReport {
  tool: { name: 'gltf-anim'; version: string; informationUri: string };
  reports: AssetReport[];
  summary: {
    assets: number;
    assetsFailing: number;
    assetsTruncated: number;
    numErrors: number;
    numWarnings: number;
    numInfos: number;
    numHints: number;
    failOn: SeverityName;
    result: 'pass' | 'fail';
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

export interface CommonOptions {
  /** The most memory the run may use, in MiB (64 to 2048, the default): past it the run
   *  reports "out of memory" (an asset's INTERNAL_ERROR, or a GltfAnimError). */
  memoryLimitMb?: number;
}

export interface ValidateOptions extends CommonOptions {
  /** json (default: resolves to a ValidationReport), text, sarif, junit, md (a CI job
   *  summary) or github (GitHub Actions workflow commands) (a string). */
  format?: 'json' | 'text' | 'sarif' | 'junit' | 'md' | 'github';
  /** The name of a single asset given as bytes. */
  name?: string;
  failOn?: 'error' | 'warning' | 'info';
  lints?: 'off' | 'hint' | 'info' | 'warning';
  ignore?: string | string[];
  enable?: string | string[];
  /** {CODE: severity} or ['CODE=N', ...]. */
  severityOverride?: Record<string, Severity> | string | string[];
  maxIssues?: number;
  maxIssueMb?: number;
  maxFileMb?: number;
  root?: string;
  /** A project config among the files (default: none, --no-config). */
  config?: string;
  /** false: --no-timings. */
  timings?: boolean;
  /** More command-line words, exactly as the CLI takes them. */
  args?: string[];
}

export interface SampledChannel {
  index: number;
  target: string;
  interpolation: string;
  sampler: number;
  keyframes: number[];
  samples: Array<{ t: number; value: number[] }>;
  /** Written by an engine's adapter for a channel its engine cannot play (the feature it
   * lacks, e.g. "KHR_animation_pointer"), with no samples: compare counts it as not run. */
  unsupported?: string;
  [key: string]: unknown;
}

export interface SamplesFile {
  asset: string;
  generator: string;
  /** Written by an engine's adapter when the engine failed on this asset: compare fails the
   * case with this message. */
  error?: string;
  animations: Array<{ index: number; name?: string; channels: SampledChannel[] }>;
  [key: string]: unknown;
}

export interface SampleOptions extends CommonOptions {
  /** json (default: resolves to a SamplesFile) or csv (a string). */
  format?: 'json' | 'csv';
  name?: string;
  times?: number | number[];
  rate?: number;
  animation?: number;
  /** false: --no-extensions (a core-only client's view). */
  extensions?: boolean;
  maxValues?: number;
  args?: string[];
}

export interface CompareOptions extends CommonOptions {
  /** json (default: the parsed report), text, md, junit or html (a string). */
  format?: 'json' | 'text' | 'md' | 'junit' | 'html';
  /** The manifest's path among the golden files (default: manifest.json). */
  manifest?: string;
  tolerance?: number;
  angleTolerance?: number;
  timeEpsilon?: number;
  cases?: string | string[];
  extensions?: string | string[];
  requireAll?: boolean;
  worst?: number;
  args?: string[];
}

/** The report `gltf-anim compare --format json` writes. */
export type CompareReport = Record<string, unknown>;

/** Options every repair tool takes (the CLI's shared options of fix, reduce, fit, migrate). */
export interface RepairOptions extends CommonOptions {
  /** The name of a single asset given as bytes. */
  name?: string;
  /** Where the output goes, a path beside the input's files (default: the input's stem with
   *  .fixed, .reduced, .fitted or .migrated before its extension). */
  output?: string;
  /** Replace the input (the written files then include the input's name). */
  inPlace?: boolean;
  /** Report what would change, write nothing. */
  dryRun?: boolean;
  /** Edit an input that has validation errors the tool does not repair. */
  force?: boolean;
  /** More command-line words, exactly as the CLI takes them. */
  args?: string[];
}

export interface FixOptions extends RepairOptions {
  /** Only these repairs (the issue codes they answer); [] or 'none': none (the same bytes). */
  only?: string | string[];
}

export interface BoundOptions extends RepairOptions {
  /** The largest error of any component (translation, scale, weights, pointer values). */
  maxError: number;
  /** The largest rotation angle, radians (default 2 maxError). */
  maxAngle?: number;
}

export interface ReduceOptions extends BoundOptions {
  /** Rotations and weights as normalized integers where the rounding fits in the bound. */
  quantize?: boolean;
  /** Channels sharing a time accessor keep sharing it. */
  keepSharedTimes?: boolean;
}

export interface FitOptions extends BoundOptions {
  to: 'cubicslerp' | 'cubicspline';
  /** false: CUBICSLERP without the LINEAR fallback (EXT_animation_sqlerp required). */
  fallback?: boolean;
}

export interface MigrateOptions extends RepairOptions {
  to: 'khr_animation_pointer' | 'khr_animation2';
}

/** One animation channel in a repair summary. */
export interface RepairChannel {
  channel: string;
  target: string;
  interpolationBefore: string;
  interpolationAfter: string;
  keysBefore: number;
  keysAfter: number;
  bytesBefore: number;
  bytesAfter: number;
  /** The largest component error reached (null when not measured). */
  maxError: number | null;
  /** The largest rotation angle reached, radians (null when not measured). */
  maxAngle: number | null;
  notes: string[];
  [key: string]: unknown;
}

/** The summary a repair tool writes with --format json (docs/TOOLS.md, "The report"). */
export interface RepairSummary {
  tool: 'fix' | 'reduce' | 'fit' | 'migrate';
  input: string;
  output: string | null;
  dryRun: boolean;
  written: boolean;
  exitCode: number;
  message: string;
  bytesBefore: number;
  bytesAfter: number;
  errorsBefore: number;
  errorsAfter: number;
  newErrorCodes: string[];
  repairs: Array<{ code: string; pointer: string; fixed: boolean; action: string; playback: string }>;
  channels: RepairChannel[];
  notes: string[];
  [key: string]: unknown;
}

export interface RepairResult {
  /** 0 written (or would be, with dryRun); 1 the input has errors the tool does not repair
   *  (nothing written; `force` edits it anyway). */
  exitCode: number;
  summary: RepairSummary;
  /** The files written, by path: the asset and any new .bin, the native CLI's bytes. */
  files: Record<string, Uint8Array>;
}

/** A run that ended with exit code 2: usage error, unreadable input, out of memory, or a
 *  repair tool's refusal (`summary` then holds the tool's summary, the reason in `message`). */
export class GltfAnimError extends Error {
  exitCode: number;
  stderr: string;
  summary?: RepairSummary;
}

export interface RunResult {
  exitCode: number;
  stdout: Uint8Array;
  stderr: string;
  stderrBytes: Uint8Array;
  /** The bytes of each path of `read` that the run wrote (a view: its `buffer` may be larger). */
  outputs: Record<string, Uint8Array>;
}

export function init(): Promise<void>;

export function validate(input: Input, options?: ValidateOptions & { format?: 'json' }): Promise<ValidationReport>;
export function validate(input: Input, options: ValidateOptions & { format: 'text' | 'sarif' | 'junit' }): Promise<string>;

export interface KeysOptions extends CommonOptions {
  name?: string;
  animation?: number;
  /** false: --no-extensions (a core-only client's view). */
  extensions?: boolean;
  maxValues?: number;
  args?: string[];
}

/** One stored key: its time, value and (CUBICSPLINE, CUBICSLERP) tangents; null where not finite. */
export interface StoredKey {
  t: number | null;
  value: (number | null)[];
  in?: (number | null)[];
  out?: (number | null)[];
}

export interface KeysChannel {
  animation: number;
  index: number;
  target: string;
  sampler: number;
  interpolation: string;
  measure: string;
  width: number;
  /** Absent when the keys cannot be decoded (then `problem` says why). */
  keys?: StoredKey[];
  /** Why the evaluator refuses this channel (the line `sample` would print). */
  problem?: string;
}

/** `gltf-anim sample --keys`: each channel's keys as stored, decoded. exitCode 1: some channel has a problem. */
export interface KeysFile {
  exitCode: 0 | 1;
  asset: string;
  generator: string;
  channels: KeysChannel[];
}

export function keys(input: Input, options?: KeysOptions): Promise<KeysFile>;

export function sample(input: Input, options?: SampleOptions & { format?: 'json' }): Promise<SamplesFile>;
export function sample(input: Input, options: SampleOptions & { format: 'csv' }): Promise<string>;

export function compare(
  sets: { golden: Files | { files: Files }; actual: Files | { files: Files } },
  options?: CompareOptions & { format?: 'json' },
): Promise<CompareReport>;
export function compare(
  sets: { golden: Files | { files: Files }; actual: Files | { files: Files } },
  options: CompareOptions & { format: 'text' | 'md' | 'junit' | 'html' },
): Promise<string>;

/** Repairs animation data, keyed by the issue codes the repairs answer (`gltf-anim fix`). */
export function fix(input: Input, options?: FixOptions): Promise<RepairResult>;
/** Removes keyframes within a guaranteed bound (`gltf-anim reduce`). */
export function reduce(input: Input, options: ReduceOptions): Promise<RepairResult>;
/** Replaces LINEAR channels by cubic ones within a bound (`gltf-anim fit`). */
export function fit(input: Input, options: FitOptions): Promise<RepairResult>;
/** Moves channels between KHR_animation2 and KHR_animation_pointer (`gltf-anim migrate`). */
export function migrate(input: Input, options: MigrateOptions): Promise<RepairResult>;

/** The CLI on in-memory files: args as after `gltf-anim` on a command line. */
export function run(
  args: string[],
  options?: { files?: Files; read?: string[]; memoryLimitMb?: number },
): Promise<RunResult>;

/**
 * Parses the bytes of a JSON report the CLI wrote (`run()` with `--format json`) into its
 * object, whatever its size: a report past what a JavaScript string holds (a million issues
 * are 600 MB of JSON) has its `messages` arrays parsed apart (always, with `split`).
 */
export function parseReport(bytes: Uint8Array, options?: { split?: boolean }): unknown;

/**
 * Splits the bytes of a JSON report into the report with every `messages` array emptied and
 * those arrays, parsed, in document order (one pass; never one string of the whole report).
 */
export function splitReport(bytes: Uint8Array): { report: unknown; arrays: Message[][] };
