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
  /** The values of the code's message template arguments ({0}, {1}, ...: `gltf-anim codes`),
   * in order, as strings; absent on a finding of glTF-Validator's alone. */
  arguments?: string[];
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
  /** --max-times: at most this many default or `rate` times per animation, else this many
   * evenly spaced over the clip (what a plot this many pixels wide can show). */
  maxTimes?: number;
  animation?: number;
  /** false: --no-extensions (a core-only client's view). */
  extensions?: boolean;
  /** false: --no-keyframes (each channel's key times left out of the JSON file). */
  keyframes?: boolean;
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

/** A number of the compare report: null where it is not finite (NaN, an infinity). */
export type ReportNumber = number | null;
/** A case's outcome (docs/CONFORMANCE.md, "gltf-anim compare"). */
export type CaseOutcome = 'passed' | 'failed' | 'nothing compared' | 'not run' | 'excluded';
/** A case's error statistics of one measure (absolute or angle). */
export interface ErrorStats {
  samples: number;
  max: ReportNumber;
  mean: ReportNumber;
  worstT: ReportNumber;
  worstAnimation: number;
  worstTarget: string;
}
/** A failing channel's sample: golden and actual values, and the error. */
export interface WorstSample {
  t: ReportNumber;
  golden: ReportNumber[];
  actual: ReportNumber[];
  error: ReportNumber;
}
/** A variant or known divergence a failing channel's values match, in full or in part. */
export interface AlternativeMatch {
  name: string;
  kind: 'variant' | 'knownDivergence';
  times: number;
  firstTimes: ReportNumber[];
  otherFailing: number;
  firstOtherTimes: ReportNumber[];
  partial: boolean;
  differs: number;
  firstDiffers: ReportNumber[];
  differsWhere: string;
  description: string;
  breaks: string;
  /** The report's sentence: "your values match known divergence ... at all 4 of its times; ...". */
  sentence: string;
}
export interface ChannelResult {
  animation: number;
  channel: number;
  target: string;
  interpolation: string;
  measure: 'angle' | 'absolute';
  tolerance: ReportNumber;
  passed: boolean;
  missing: boolean;
  /** The feature the adapter declared unsupported, or "". */
  unsupported: string;
  width: number;
  actualWidth: number;
  goldenSamples: number;
  compared: number;
  overTolerance: number;
  missingSamples: number;
  extraSamples: number;
  /** Rotations (measure 'angle') only. */
  lengthTolerance?: ReportNumber;
  lengthFailures?: number;
  /** When lengthFailures > 0. */
  worstLength?: { t: ReportNumber; actual: ReportNumber; expected: ReportNumber };
  /** null when nothing was compared. */
  max: ReportNumber;
  mean: ReportNumber;
  worstT: ReportNumber;
  /** Why the channel fails, "" when it passes. */
  problem: string;
  worstSamples: WorstSample[];
  alternatives: AlternativeMatch[];
}
export interface CaseResult {
  id: string;
  asset: string;
  /** The golden and actual samples files compared ("" when none). */
  golden: string;
  actual: string;
  passed: boolean;
  outcome: CaseOutcome;
  /** Why the case failed, was not run or excluded; "" otherwise. */
  problem: string;
  matchedVariant: string;
  matchedDivergence: string;
  /** The features its adapter declared unsupported, when not run for them. */
  unsupported: string[];
  /** What its missing channels need, when it fails only on those. */
  missingOnly: string[];
  features: string[];
  clauses: string[];
  notes: string;
  tolerance: ReportNumber;
  angleTolerance: ReportNumber;
  /** null when no sample of that measure was compared. */
  absolute: ErrorStats | null;
  angle: ErrorStats | null;
  channels: ChannelResult[];
  warnings: string[];
}
/** The report `gltf-anim compare --format json` writes (reports/src/compare_reports.cpp). */
export interface CompareReport {
  generator: string;
  golden: string;
  actual: string;
  summary: {
    cases: number;
    passed: number;
    failed: number;
    notRun: number;
    excluded: number;
    nothingCompared: number;
    /** What to declare for cases failing only on missing channels; "" when none. */
    advice: string;
  };
  /** The --cases given ([] for all). */
  selection: string[];
  /** The --extensions given; null when not given (all). */
  extensions: string[] | null;
  cases: CaseResult[];
  warnings: string[];
  /** "77 passed, 2 failed, 9 not run (unsupported: morph weights 9)". */
  summaryLine: string;
}

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

/** Files, or {files, name}: `name` (the folder they came from) goes before their paths in messages. */
export type FileSet = Files | { files: Files; name?: string };
export function compare(sets: { golden: FileSet; actual: FileSet }, options?: CompareOptions & { format?: 'json' }): Promise<CompareReport>;
export function compare(
  sets: { golden: FileSet; actual: FileSet },
  options: CompareOptions & { format: 'text' | 'md' | 'junit' | 'html' },
): Promise<string>;
/** An entry of the suite's manifest.json (docs/CONFORMANCE.md, "The manifest fields compare reads"). */
export interface ManifestEntry {
  id: string;
  /** The asset, relative to the manifest: valid/<id>.gltf or .glb. */
  file: string;
  /** Its golden samples file, relative to the manifest. */
  samples: string;
  group?: string;
  features: string[];
  clauses: string[];
  extensions: string[];
  tolerance?: number;
  angleTolerance?: number;
  notes?: string;
  [key: string]: unknown;
}
export interface Manifest {
  suite: string;
  generator: string;
  assets: ManifestEntry[];
  [key: string]: unknown;
}
export interface GenerateOptions extends CommonOptions {
  /** Your own assets (.gltf/.glb with their resources) instead of the suite: `generate --from`. */
  from?: Input;
  /** Node: also write the suite under this folder (made if missing). */
  out?: string;
}
export interface Suite {
  /** 0 written, 1 (with `from`) some asset skipped: `stderr` says why. */
  exitCode: number;
  /** Every file by path: manifest.json, valid/<case>.gltf|.glb (+ .bin), valid/<case>.samples.json. */
  files: Record<string, Uint8Array>;
  manifest: Manifest;
  stderr: string;
}
/** The conformance suite (`gltf-anim generate`): the native CLI's files (a few golden rotation values may differ in their last bits: emscripten's libm). */
export function generate(options?: GenerateOptions): Promise<Suite>;
/** The asset a sampler is asked about; the same object for every channel of a case. */
export interface ConformanceAsset {
  /** The case's id (manifest). */
  id: string;
  /** Its path in the suite: valid/<id>.gltf or .glb. */
  file: string;
  /** The .gltf or .glb file's bytes. */
  bytes: Uint8Array;
  /** Its glTF JSON, parsed (a .glb's JSON chunk); null when it cannot be parsed. */
  gltf: any;
  /** Every file of the suite by path (an external .bin: the folder of `file` + its uri). */
  files: Map<string, Uint8Array>;
  /** The case's manifest entry. */
  entry: ManifestEntry;
}
export interface ConformanceChannel {
  /** The channel's index in the animation. */
  index: number;
  /** JSON pointer of the animated property (/nodes/0/rotation, or KHR_animation_pointer's pointer). */
  target: string;
  interpolation: string;
  /** The sampler evaluated (EXT_animation_sqlerp: the CUBICSLERP one). */
  sampler: number;
  /** Components per value: 3 translation/scale, 4 rotation (x, y, z, w), morph target count for weights. */
  width: number;
}
/**
 * Your engine's values for one channel at `times` (seconds): one array of `width` numbers per
 * time (a number per time for a scalar channel), or one flat array of times.length * width
 * numbers (a Float32Array will do); NaN for a value that is not a number. Or
 * {unsupported: 'FEATURE'}: your engine cannot play the channel (its case is then not run).
 * A throw fails the case with the message (the engine failed on this asset).
 */
export type ConformanceSampler = (
  asset: ConformanceAsset,
  animation: { index: number; name?: string },
  channel: ConformanceChannel,
  times: number[],
) => SamplerValues | Promise<SamplerValues>;
export type SamplerValues = ArrayLike<number> | ArrayLike<ArrayLike<number>> | { unsupported: string };
export interface ConformanceOptions extends CompareOptions {
  sampler: ConformanceSampler;
  /** The suite: a Suite or {files} (generate()), a folder path (Node), or absent: generate() now. */
  suite?: string | Suite | { files: Files } | Files;
  /** The actual samples files' "generator" (default "gltf-anim conformance()"). */
  generator?: string;
}
export interface ConformanceResult<R> {
  report: R;
  /** The actual samples files written, by path (valid/<id>.samples.json): what `gltf-anim compare --actual` reads. */
  actual: Record<string, Uint8Array>;
  /** compare's exit code: 0 no case failed, 1 a case failed (or, with requireAll, was not run). */
  exitCode: number;
}
/** A conformance run: `sampler` over every case of the suite, compared with the golden samples by the CLI's compare. */
export function conformance(options: ConformanceOptions & { format?: 'json' }): Promise<ConformanceResult<CompareReport>>;
export function conformance(
  options: ConformanceOptions & { format: 'text' | 'md' | 'junit' | 'html' },
): Promise<ConformanceResult<string>>;

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
