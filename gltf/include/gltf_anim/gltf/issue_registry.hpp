#pragma once
// The registry: every issue code the validator can raise, in one table.
// docs/ISSUE_CODES.md is generated from this table (gltf-anim codes --format md)
// and a test fails when the checked-in copy is stale.
//
// Codes shared with glTF-Validator keep its name, default severity and pointer
// conventions (../shared/specs/validator-codes.md); our own codes say so in `rule`.
//
// The table is in a header so that the compiler sees it where issues are
// raised: an IssueCode is looked up while compiling, and a misspelt code is a
// build error (see IssueCode below), never a surprise at run time.
#include <gltf_anim/gltf/issue.hpp>

#include <cstddef>
#include <span>
#include <string_view>

namespace gltf_anim::gltf {
namespace registry {

using S = Severity;
using P = Phase;

// Keep grouped by phase; within a phase, alphabetical.
inline constexpr IssueType kIssueTypes[] = {
    // ---- io -------------------------------------------------------------
    {"IO_ERROR", S::kError, P::kIo, "Resource cannot be read ({0}).",
     "A file or external resource could not be opened or read; the message gives the "
     "system's reason (No such file or directory, Permission denied, Is a directory, ...).",
     "glTF 2.0 3.6.1 (URIs)"},
    {"DATA_URI_GLB", S::kWarning, P::kIo, "Data URI is used in GLB container.",
     "A buffer of a GLB is a data: URI (glTF-Validator's code); it is read, but the BIN chunk "
     "holds binary data without base64's third more bytes.",
     "glTF 2.0 GLB File Format: an asset could use the GLB container to store JSON and binary "
     "data in one file without base64 encoding"},
    {"FILE_TOO_LARGE", S::kError, P::kIo, "File is {0} bytes, more than the limit of {1} bytes.",
     "Our own: an input or external buffer larger than --max-file-mb is refused before it is "
     "read.",
     "Resource limits (not a glTF rule)"},
    {"GIT_LFS_POINTER", S::kError, P::kIo,
     "{0} is a Git LFS pointer file, not its content ({1}): fetch the content (git lfs pull) or "
     "download the file itself.",
     "Our own: the asset or an external buffer is the small text file Git LFS stores in a "
     "repository in place of a large file (its first line is 'version' and the address of "
     "Git LFS's pointer specification); a clone or an archive without the LFS content holds "
     "only these pointers.",
     "Git LFS pointer files (not a glTF rule): an asset is UTF-8 JSON or a GLB, a buffer its "
     "bytes"},
    {"INTERNAL_ERROR", S::kError, P::kIo, "The asset could not be validated: {0}.",
     "Our own: validating this asset failed inside gltf-anim (out of memory, or a defect); "
     "the other assets of the run are still validated and reported.",
     "Robustness (not a glTF rule): one asset never ends a run"},
    {"INVALID_URI", S::kError, P::kIo, "Invalid URI '{0}'. Parser output: {1}",
     "A buffer URI is not a valid relative reference or data URI (bad percent-encoding, "
     "empty path, data URI without ',').",
     "glTF 2.0 URIs: relative paths (RFC 3986 path-noscheme) or data URIs (RFC 2397)"},
    {"NON_RELATIVE_URI", S::kWarning, P::kIo, "Non-relative URI found: '{0}'.",
     "A buffer URI has a scheme other than data: (http:, https:, file:, ...), as glTF-Validator "
     "warns: allowed, but the asset does not travel with its data. It is not loaded "
     "(URI_SCHEME_NOT_ALLOWED says so).",
     "glTF 2.0 URIs: assets MAY contain at least these two URI types (data URIs, relative paths)"},
    {"NOT_GLTF", S::kError, P::kIo,
     "Not a glTF file: {0}, neither JSON text nor a GLB (no 'glTF' magic).",
     "The input is binary data without the GLB magic, such as a .bin buffer, an image or an "
     "archive given instead of the asset; nothing else is checked.",
     "glTF 2.0 GLB Header (magic) and JSON Encoding: an asset is UTF-8 JSON or a GLB"},
    {"RESOURCE_NOT_REGULAR_FILE", S::kError, P::kIo,
     "'{0}' is not a regular file and was not opened ({1}).",
     "Our own: an external buffer names a FIFO, device, folder or symlink; only regular files "
     "are read (opening a FIFO could block forever).",
     "Hostile input (not a glTF rule)"},
    {"URI_ABSOLUTE_PATH", S::kError, P::kIo,
     "Absolute path '{0}' was not loaded; only paths relative to the asset are.",
     "Our own: a buffer URI (after percent-decoding) is an absolute or network path.",
     "glTF 2.0 URIs: relative paths are path-noscheme, without scheme or authority"},
    {"URI_OUTSIDE_ROOT", S::kError, P::kIo, "'{0}' resolves outside the allowed root '{1}'.",
     "Our own: a relative buffer URI leaves the allowed folder (through '..' or a symlink); "
     "--root widens the folder.",
     "Safety by default (not a glTF rule)"},
    {"URI_GLB", S::kInfo, P::kIo, "URI is used in GLB container.",
     "A buffer of a GLB has a uri (glTF-Validator's code): its data is not in the BIN chunk.",
     "glTF 2.0 GLB-stored Buffer: the BIN chunk holds the buffer without uri"},
    {"URI_SCHEME_NOT_ALLOWED", S::kInfo, P::kIo,
     "URI scheme '{0}:' is not loaded ('{1}'); only data: URIs and relative paths are.",
     "Our own: a buffer URI has a scheme other than data: (http:, file:, ...); nothing is "
     "fetched and no connection is opened, so the data behind it is not checked. Not an error: "
     "the spec allows such URIs (NON_RELATIVE_URI).",
     "glTF 2.0 URIs: assets MAY contain at least these two URI types (data URIs, relative paths)"},
    // ---- glb (loader: src/load/glb.cpp); byte offsets, not pointers --------
    {"GLB_CHUNK_LENGTH_UNALIGNED", S::kError, P::kGlb,
     "Length of {0} chunk is not aligned to 4-byte boundaries.",
     "A chunk length is not a multiple of 4.",
     "glTF 2.0 GLB Chunks: the start and the end of each chunk MUST be aligned to 4 bytes"},
    {"GLB_CHUNK_TOO_BIG", S::kError, P::kGlb, "Chunk ({0}) length ({1}) is too big.",
     "A chunk extends past the GLB length declared in the header.",
     "glTF 2.0 GLB Header: length is the total length of the Binary glTF"},
    {"GLB_DUPLICATE_CHUNK", S::kError, P::kGlb, "Chunk of type {0} has already been used.",
     "A second JSON or BIN chunk; it is ignored.",
     "glTF 2.0 GLB Chunks: JSON occurs exactly once, BIN at most once"},
    {"GLB_EMPTY_CHUNK", S::kError, P::kGlb, "Chunk ({0}) cannot have zero length.",
     "A JSON or BIN chunk has length 0.",
     "glTF 2.0 GLB Binary buffer: an empty BIN chunk SHOULD be omitted; JSON cannot be empty"},
    {"GLB_EXTRA_DATA", S::kWarning, P::kGlb, "Extra data after the end of GLB stream.",
     "The file goes on after the length the GLB header declares; those bytes are not read.",
     "glTF 2.0 GLB Header: length is the total length of the Binary glTF, including header and "
     "all chunks, in bytes"},
    {"GLB_INVALID_MAGIC", S::kError, P::kGlb,
     "Invalid GLB magic value ({0}): not a glTF file but {1}.",
     "A file named .glb does not start with 'glTF' and is not JSON text either; nothing else "
     "is read.",
     "glTF 2.0 GLB Header: magic MUST be equal to 0x46546C67"},
    {"GLB_INVALID_VERSION", S::kError, P::kGlb, "Invalid GLB version value {0}.",
     "The container version is not 2; nothing more is read.",
     "glTF 2.0 GLB Header: version indicates the version of the Binary glTF container format"},
    {"GLB_LENGTH_MISMATCH", S::kError, P::kGlb,
     "Declared length ({0}) does not match GLB length ({1}).",
     "The header length is more than the file size (the file is cut short).",
     "glTF 2.0 GLB Header: length is the total length of the Binary glTF, in bytes"},
    {"GLB_LENGTH_TOO_SMALL", S::kError, P::kGlb, "Declared GLB length ({0}) is too small.",
     "The header length cannot even hold the header and one chunk header (20 bytes).",
     "glTF 2.0 GLB Header"},
    {"GLB_UNEXPECTED_BIN_CHUNK", S::kError, P::kGlb, "BIN chunk must be the second chunk.",
     "A BIN chunk after an unknown chunk, or before the JSON chunk.",
     "glTF 2.0 GLB Binary buffer: this chunk MUST be the second chunk"},
    {"GLB_UNEXPECTED_END_OF_CHUNK_DATA", S::kError, P::kGlb, "Unexpected end of chunk data.",
     "The file ends inside a chunk.", "glTF 2.0 GLB Chunks"},
    {"GLB_UNEXPECTED_END_OF_CHUNK_HEADER", S::kError, P::kGlb, "Unexpected end of chunk header.",
     "Fewer than 8 bytes remain where a chunk header should start.", "glTF 2.0 GLB Chunks"},
    {"GLB_UNEXPECTED_END_OF_HEADER", S::kError, P::kGlb, "Unexpected end of header.",
     "The file is shorter than the 12-byte GLB header.", "glTF 2.0 GLB Header"},
    {"GLB_UNEXPECTED_FIRST_CHUNK", S::kError, P::kGlb,
     "First chunk must be of JSON type. Found {0} instead.",
     "The first chunk is not the JSON chunk.",
     "glTF 2.0 GLB Structured JSON Content: this chunk MUST be the very first chunk"},
    {"GLB_UNKNOWN_CHUNK_TYPE", S::kWarning, P::kGlb, "Unknown GLB chunk type: {0}.",
     "A chunk of a type other than JSON or BIN; it is skipped.",
     "glTF 2.0 GLB Chunks: client implementations MUST ignore chunks with unknown types"},
    // ---- json (loader: src/load/json.cpp) ---------------------------------
    {"INVALID_JSON", S::kError, P::kJson, "Invalid JSON data. Parser output: {0}",
     "The text is not JSON: empty, truncated, a trailing comma, a comment, single quotes, NaN or "
     "Infinity, invalid UTF-8 or UTF-16 text, a NUL or BOM, a number out of double range, or "
     "nested deeper than --max-json-depth. The message gives the line and column.",
     "RFC 8259; glTF 2.0 JSON Encoding: UTF-8 without BOM"},
    {"JSON_DUPLICATE_KEY", S::kWarning, P::kJson,
     "Member '{0}' appears more than once; the first one is used.",
     "Our own: an object has two members with the same name (RFC 8259: names SHOULD be unique; "
     "parsers disagree on which one wins).",
     "RFC 8259 4: the names within an object SHOULD be unique"},
    {"JSON_TOO_MANY_VALUES", S::kError, P::kJson,
     "More than {0} JSON values (at {1}); the document was not kept.",
     "Our own: the JSON holds more values than LoadOptions::max_json_values (default 2^24), "
     "which bounds the memory of the parsed document (real assets keep bulk data in buffers).",
     "Resource limits (not a glTF rule)"},
    // ---- schema (rules engineer: validator/schemas/, schema_check.cpp) ----
    {"ARRAY_LENGTH_NOT_IN_LIST", S::kError, P::kSchema,
     "Invalid array length {0}. Valid lengths are: {1}.",
     "An array with a fixed length (node.matrix/rotation/scale/translation, accessor.min/max "
     "against the accessor type) has another length.",
     "glTF 2.0 5.24 node, 5.1 accessor: min/max length equals the number of components"},
    {"ARRAY_TYPE_MISMATCH", S::kError, P::kSchema,
     "Type mismatch. Array element {0} is not a '{1}'.",
     "An array (other than a top-level collection) holds an element of the wrong JSON type; "
     "reported once, at the array.",
     "glTF 2.0 JSON schema items.type"},
    {"DUPLICATE_ELEMENTS", S::kError, P::kSchema, "Array contains duplicate elements.",
     "An array that must hold unique values (extensionsUsed, node.children, scene.nodes, "
     "skin.joints) repeats one; "
     "reported at the repeated element.",
     "glTF 2.0 JSON schema uniqueItems"},
    {"EMPTY_ENTITY", S::kError, P::kSchema, "Entity cannot be empty.",
     "An array that must not be empty (animations, channels, samplers, ...) is [].",
     "glTF 2.0 JSON schema minItems: 1"},
    {"INVALID_INDEX", S::kError, P::kSchema, "Index must be a non-negative integer.",
     "A glTFid (sampler, node, input, output, bufferView, ...) is negative.",
     "glTF 2.0 glTFid: integer, minimum 0"},
    {"NON_OBJECT_EXTRAS", S::kInfo, P::kSchema, "Prefer JSON Objects for extras.",
     "An extras member is not a JSON object.", "glTF 2.0 3.12: extras SHOULD be a JSON object"},
    {"PATTERN_MISMATCH", S::kError, P::kSchema, "Value {0} does not match regexp pattern {1}.",
     "A string does not match its schema pattern (asset.version, asset.minVersion).",
     "glTF 2.0 5.9 asset.version: <major>.<minor>"},
    {"TYPE_MISMATCH", S::kError, P::kSchema, "Type mismatch. Property value {0} is not a '{1}'.",
     "A member has the wrong JSON type (an index that is not an integer, a path that is not a "
     "string, a target that is not an object, ...).",
     "glTF 2.0 JSON schema type"},
    {"UNDEFINED_PROPERTY", S::kError, P::kSchema, "Property '{0}' must be defined.",
     "A required member is missing; reported at the object that lacks it.",
     "glTF 2.0 JSON schema required (animation: channels, samplers; channel: sampler, target; "
     "target: path; sampler: input, output; accessor: componentType, count, type; ...)"},
    {"UNEXPECTED_PROPERTY", S::kWarning, P::kSchema, "Unexpected property.",
     "An object has a member its schema does not define.",
     "glTF 2.0 3.12: extensions go in 'extensions', application data in 'extras'"},
    {"UNSATISFIED_DEPENDENCY", S::kError, P::kSchema, "Dependency failed. '{0}' must be defined.",
     "A member is present without the member it depends on (accessor.byteOffset without "
     "bufferView, node.weights or node.skin without mesh).",
     "glTF 2.0 JSON schema dependencies"},
    {"VALUE_MULTIPLE_OF", S::kError, P::kSchema, "Value {0} is not a multiple of {1}.",
     "A number is not a multiple of what its schema requires (bufferView.byteStride of 4).",
     "glTF 2.0 5.11 bufferView.byteStride: multiple of 4"},
    {"VALUE_NOT_IN_LIST", S::kWarning, P::kSchema, "Invalid value {0}. Valid values are {1}.",
     "A value is not one of the values the spec lists (target.path, sampler.interpolation, "
     "accessor.componentType/type, ...); the value is kept.",
     "glTF 2.0 5.6 animation.channel.target.path, 5.7 animation.sampler.interpolation"},
    {"VALUE_NOT_IN_RANGE", S::kError, P::kSchema, "Value {0} is out of range.",
     "A number is outside its schema minimum/maximum (accessor.count >= 1, byteLength >= 1, "
     "byteStride 4..252, rotation components in [-1, 1], ...).",
     "glTF 2.0 JSON schema minimum/maximum"},
    // ---- link: buffers, bufferViews, accessors (loader: src/load/) ---------
    {"ACCESSOR_NORMALIZED_INVALID", S::kError, P::kLink,
     "Only (u)byte and (u)short accessors can be normalized.",
     "accessor.normalized is true on a FLOAT or UNSIGNED_INT accessor.",
     "glTF 2.0 3.6.2.1: normalized MUST NOT be set to true for accessors with FLOAT or "
     "UNSIGNED_INT component type"},
    {"ACCESSOR_OFFSET_ALIGNMENT", S::kError, P::kLink,
     "Offset {0} is not a multiple of componentType length {1}.",
     "accessor.byteOffset is not a multiple of the component size.",
     "glTF 2.0 Data Alignment: accessor.byteOffset MUST be a multiple of the size of the component "
     "type"},
    {"ACCESSOR_SMALL_BYTESTRIDE", S::kError, P::kLink,
     "Referenced bufferView's byteStride value {0} is less than accessor element's length {1}.",
     "bufferView.byteStride is smaller than one element of an accessor using it; its data is "
     "not read.",
     "glTF 2.0 Data Alignment: elements MUST NOT overlap (stride at least the element size)"},
    {"ACCESSOR_SPARSE_COUNT_OUT_OF_RANGE", S::kError, P::kLink,
     "Sparse accessor overrides more elements ({0}) than the base accessor contains ({1}).",
     "sparse.count is larger than accessor.count.",
     "glTF 2.0 Sparse Accessors, accessor.sparse.count: MUST be less than or equal to "
     "accessor.count"},
    {"ACCESSOR_TOO_LONG", S::kError, P::kLink,
     "Accessor (offset: {0}, length: {1}) does not fit referenced bufferView [{2}] length {3}.",
     "An accessor's (or its sparse indices'/values') bytes run past the end of the bufferView, "
     "computed without overflow; its data is not read.",
     "glTF 2.0 Data Alignment: byteOffset + stride * (count - 1) + element size <= "
     "bufferView.byteLength"},
    {"ACCESSOR_TOTAL_OFFSET_ALIGNMENT", S::kError, P::kLink,
     "Accessor's total byteOffset {0} isn't a multiple of componentType length {1}.",
     "accessor.byteOffset + bufferView.byteOffset is not a multiple of the component size.",
     "glTF 2.0 Data Alignment: the offset of an accessor into a buffer MUST be a multiple of the "
     "size of "
     "the accessor's component type"},
    {"BUFFER_BYTE_LENGTH_MISMATCH", S::kError, P::kLink,
     "Actual data length {0} does not match the declared buffer byteLength {1}.",
     "A buffer's data is shorter than byteLength (its data is not read), or a data: URI decodes "
     "to another length.",
     "glTF 2.0 Buffers and Buffer Views, buffer.byteLength: the length of the buffer in bytes"},
    {"BUFFER_DATA_URI_MIME_TYPE_INVALID", S::kError, P::kLink,
     "Buffer's Data URI MIME-Type must be 'application/octet-stream' or "
     "'application/gltf-buffer'. Found '{0}' instead.",
     "A buffer's data: URI has another media type.",
     "glTF 2.0 Buffers and Buffer Views: its mediatype field MUST be set to "
     "application/octet-stream or "
     "application/gltf-buffer"},
    {"BUFFER_EXTERNAL_DATA_TOO_LONG", S::kWarning, P::kLink,
     "Buffer file is {0} bytes longer than its byteLength {1}.",
     "Our own: an external buffer file holds more than byteLength + 3 bytes; the excess is "
     "ignored.",
     "glTF 2.0 Buffers and Buffer Views, buffer.byteLength (3 bytes of padding are tolerated as "
     "for GLB)"},
    {"BUFFER_GLB_CHUNK_TOO_BIG", S::kWarning, P::kLink,
     "GLB-stored BIN chunk contains {0} extra padding byte(s).",
     "The BIN chunk is more than 3 bytes longer than buffer 0's byteLength.",
     "glTF 2.0 GLB-stored Buffer: the BIN chunk MAY be up to 3 bytes bigger than "
     "buffer.byteLength"},
    {"BUFFER_MISSING_GLB_DATA", S::kError, P::kLink,
     "Buffer refers to an unresolved GLB binary chunk.",
     "Buffer 0 of a GLB has no uri but the file has no BIN chunk.",
     "glTF 2.0 GLB-stored Buffer: when such a buffer exists, a BIN chunk MUST be present"},
    {"BUFFER_VIEW_PLACEHOLDER_DATA", S::kInfo, P::kLink,
     "Accessor data is read from buffer {0}, which has no uri and is not the GLB-stored buffer: "
     "it has no data, so the accessors of this bufferView are not checked or sampled.",
     "Our own: an accessor reads an uncompressed bufferView (or a compression extension reads "
     "its compressed bytes) from a buffer without uri that is not a GLB's buffers[0]. The spec "
     "leaves such buffers to extensions; glTF-Validator reports nothing for the buffer itself, "
     "and neither do we until data is read from it; then only as information, since "
     "glTF-Validator's own tests read such buffers as valid layouts.",
     "glTF 2.0 GLB-stored Buffer: any glTF buffer with undefined buffer.uri property that is not "
     "the first element of buffers array does not refer to the GLB-stored BIN chunk, and the "
     "behavior of such buffers is left undefined"},
    {"BUFFER_VIEW_TOO_BIG_BYTE_STRIDE", S::kError, P::kLink,
     "Buffer view's byteStride ({0}) is greater than byteLength ({1}).",
     "bufferView.byteStride exceeds bufferView.byteLength.", "glTF 2.0 Data Alignment"},
    {"BUFFER_VIEW_TOO_LONG", S::kError, P::kLink,
     "BufferView does not fit buffer ({0}) byteLength ({1}).",
     "bufferView.byteOffset + byteLength exceeds its buffer's byteLength (checked without "
     "overflow); data through it is not read.",
     "glTF 2.0 Buffers and Buffer Views: the bufferView lies within its buffer"},
    {"DATA_URI_INVALID_BASE64", S::kError, P::kLink,
     "Data URI holds invalid base64 at character {0}.",
     "Our own: the payload of a base64 data: URI is not strict RFC 4648 base64 (alphabet, '=' "
     "padding, length a multiple of 4); the buffer is not loaded.",
     "RFC 2397 / RFC 4648 4"},
    // ---- link: EXT_meshopt_compression, KHR_meshopt_compression (loader:
    // src/load/meshopt.cpp); {0} of each message is the extension's name --------
    {"MESHOPT_BYTE_LENGTH_MISMATCH", S::kError, P::kLink,
     "{0}: count ({1}) times byteStride ({2}) is {3}, not the bufferView's byteLength ({4}).",
     "Our own (EXT_/KHR_meshopt_compression): a compressed bufferView decodes to count x "
     "byteStride bytes, which must be exactly its byteLength; its accessors are not read.",
     "EXT_meshopt_compression / KHR_meshopt_compression: the parent bufferView.byteLength is equal "
     "to byteStride times count"},
    {"MESHOPT_BYTE_STRIDE_INVALID", S::kError, P::kLink,
     "{0}: byteStride {1} is not allowed with mode {2} and filter {3}: {4}.",
     "Our own (EXT_/KHR_meshopt_compression): the extension's byteStride breaks a rule of its mode "
     "or filter (ATTRIBUTES: a multiple of 4 up to 256, and at least 4 for KHR; TRIANGLES and "
     "INDICES: 2 or 4; OCTAHEDRAL and COLOR: 4 or 8; QUATERNION: 8; EXPONENTIAL: a multiple of 4); "
     "the view is not decoded.",
     "EXT_meshopt_compression / KHR_meshopt_compression: for the extension object to be valid, the "
     "following must hold (byteStride per mode and filter)"},
    {"MESHOPT_BYTE_STRIDE_MISMATCH", S::kError, P::kLink,
     "{0}: bufferView.byteStride ({1}) differs from the extension's byteStride ({2}).",
     "Our own (EXT_meshopt_compression): the bufferView has a byteStride other than the "
     "extension's (the KHR extension dropped this rule). The data is still decoded and read with "
     "the bufferView's stride.",
     "EXT_meshopt_compression: when parent bufferView has byteStride defined, it matches "
     "byteStride in the extension JSON"},
    {"MESHOPT_COMPRESSED_DATA_TOO_LONG", S::kError, P::kLink,
     "{0}: compressed data (byteOffset {1}, byteLength {2}) does not fit buffer {3} byteLength "
     "({4}).",
     "Our own (EXT_/KHR_meshopt_compression): the extension's byteOffset + byteLength run past the "
     "end of its buffer (computed without overflow); the view is not decoded.",
     "EXT_meshopt_compression / KHR_meshopt_compression: buffer, byteOffset and byteLength give "
     "the compressed data's range in a buffer"},
    {"MESHOPT_DECODE_FAILED", S::kError, P::kLink,
     "{0}: the compressed {1} stream of {2} bytes does not decode to {3} elements of {4} bytes: "
     "{5}.",
     "Our own (EXT_/KHR_meshopt_compression): the compressed bytes are not a valid stream of the "
     "mode: a wrong header byte or version, a stream that ends early or has bytes left over before "
     "its tail, or one too short to hold what the bufferView declares. The accessors of the view "
     "are not read.",
     "EXT_meshopt_compression / KHR_meshopt_compression Appendix A (Bitstream): the input stream "
     "must be correctly sized (using byteLength) so that the tail block can be found"},
    {"MESHOPT_DECODED_TOO_LARGE", S::kError, P::kLink,
     "{0}: decoding this bufferView would bring the decoded data of the asset to {1} bytes, more "
     "than the limit of {2} bytes.",
     "Our own: the compressed bufferViews that accessors read decode to more than --max-file-mb "
     "bytes together; the ones past the limit are not decoded.",
     "Resource limits (not a glTF rule)"},
    {"MESHOPT_EXTENSIONS_EXCLUSIVE", S::kError, P::kLink,
     "KHR_meshopt_compression must not be used on an object that also uses "
     "EXT_meshopt_compression.",
     "Our own (EXT_/KHR_meshopt_compression): a bufferView or buffer has both extensions; the KHR "
     "one is read.",
     "KHR_meshopt_compression, Exclusions: this extension must not be used on a buffer view (or "
     "buffer) that also uses EXT_meshopt_compression"},
    {"MESHOPT_FALLBACK_BUFFER_COMPRESSED_SOURCE", S::kError, P::kLink,
     "{0}: compressed data cannot come from buffer {1}, a fallback buffer.",
     "Our own (EXT_/KHR_meshopt_compression): the extension's buffer is tagged fallback: true; the "
     "view is not decoded.",
     "EXT_meshopt_compression / KHR_meshopt_compression, Fallback buffers: no references to the "
     "buffer may come from the extension JSON"},
    {"MESHOPT_FALLBACK_BUFFER_NOT_REQUIRED", S::kError, P::kLink,
     "Fallback buffer has no data (no uri, not the GLB-stored buffer), so {0} must be in "
     "extensionsRequired.",
     "Our own (EXT_/KHR_meshopt_compression): a fallback buffer has no data of its own, so a "
     "loader without the extension cannot read the asset: the extension must be required.",
     "EXT_meshopt_compression / KHR_meshopt_compression, Fallback buffers: if a fallback buffer "
     "doesn't have a URI and doesn't refer to the GLB binary chunk, it follows that the extension "
     "must be a required extension"},
    {"MESHOPT_FALLBACK_BUFFER_UNCOMPRESSED_VIEW", S::kError, P::kLink,
     "BufferView without {0} refers to buffer {1}, a fallback buffer.",
     "Our own (EXT_/KHR_meshopt_compression): a bufferView without the compression extension names "
     "a buffer tagged fallback: true; when that buffer has no data, its accessors are not read.",
     "EXT_meshopt_compression / KHR_meshopt_compression, Fallback buffers: all references to the "
     "buffer must come from bufferViews that have the extension specified"},
    {"MESHOPT_FILTER_NOT_ALLOWED", S::kError, P::kLink,
     "{0}: filter {1} is not allowed with mode {2}.",
     "Our own (EXT_/KHR_meshopt_compression): a TRIANGLES or INDICES view has a filter other than "
     "NONE; the view is not decoded.",
     "EXT_meshopt_compression / KHR_meshopt_compression: when mode is TRIANGLES or INDICES, filter "
     "must be equal to NONE or omitted"},
    {"MESHOPT_TRIANGLES_COUNT", S::kError, P::kLink,
     "{0}: count ({1}) of a TRIANGLES view is not a multiple of 3.",
     "Our own (EXT_/KHR_meshopt_compression): a TRIANGLES view's count is not a whole number of "
     "triangles; the view is not decoded.",
     "EXT_meshopt_compression / KHR_meshopt_compression: when mode is TRIANGLES, count must be "
     "divisible by 3"},
    // ---- link: animations (rules engineer: rules/animation.cpp) -----------
    {"ACCESSOR_USAGE_OVERRIDE", S::kError, P::kLink,
     "Override of previously set accessor usage. Initial: '{0}', new: '{1}'.",
     "One accessor is used for two kinds of data (e.g. an animation input reused as an output).",
     "glTF 2.0 3.6.2: an accessor's data is interpreted by its one usage"},
    {"ANIMATION_CHANNEL_TARGET_NODE_MATRIX", S::kError, P::kLink,
     "Animation channel cannot target TRS properties of a node with defined matrix.",
     "A translation, rotation or scale channel targets a node that has a matrix.",
     "glTF 2.0 3.5.3: when a node is targeted for animation, matrix MUST NOT be present"},
    {"ANIMATION_CHANNEL_TARGET_NODE_SKIN", S::kWarning, P::kLink,
     "Animation channel should not target TRS properties of a skinned node.",
     "A translation, rotation or scale channel targets a node that has a skin (its transform is "
     "ignored).",
     "glTF 2.0 3.7.3.3: only the joint transforms affect a skinned mesh"},
    {"ANIMATION_CHANNEL_TARGET_NODE_WEIGHTS_NO_MORPHS", S::kError, P::kLink,
     "Animation channel cannot target WEIGHTS when mesh does not have morph targets.",
     "A weights channel targets a node without a mesh, or whose mesh's first primitive has no "
     "targets.",
     "glTF 2.0 3.11: weights animate the morph targets of the node's mesh"},
    {"ANIMATION_DUPLICATE_TARGETS", S::kError, P::kLink,
     "Animation channel has the same target as channel {0}.",
     "Two channels of one animation target the same node and path; reported on the earlier "
     "channel of each consecutive pair.",
     "glTF 2.0 3.11: within one animation, each target MUST NOT be used more than once"},
    {"ANIMATION_SAMPLER_ACCESSOR_WITH_BYTESTRIDE", S::kError, P::kLink,
     "bufferView.byteStride must not be defined for buffer views used by animation sampler "
     "accessors.",
     "A sampler's input or output accessor lives in a bufferView with byteStride.",
     "glTF 2.0 3.6.2.1: accessors not used for vertex attributes are tightly packed"},
    {"ANIMATION_SAMPLER_INPUT_ACCESSOR_INVALID_FORMAT", S::kError, P::kLink,
     "Invalid animation sampler input accessor format '{0}'. Must be one of {1}.",
     "A sampler input accessor is not SCALAR FLOAT (its data is then not checked).",
     "glTF 2.0 3.11: input is a set of floating-point scalar values"},
    {"ANIMATION_SAMPLER_INPUT_ACCESSOR_TOO_FEW_ELEMENTS", S::kError, P::kLink,
     "Animation sampler input accessor with '{0}' interpolation must have at least {1} "
     "elements. Got {2}.",
     "A CUBICSPLINE sampler's input has fewer than 2 keyframes (glTF-Validator's message says "
     "'output'; it is the input).",
     "glTF 2.0 Appendix C: a cubic spline sampler MUST have at least 2 keyframes"},
    {"ANIMATION_SAMPLER_INPUT_ACCESSOR_WITHOUT_BOUNDS", S::kError, P::kLink,
     "accessor.min and accessor.max must be defined for animation input accessor.",
     "A sampler input accessor lacks min or max.",
     "glTF 2.0 3.11: the input accessor MUST have its min and max properties defined"},
    {"ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT", S::kError, P::kLink,
     "Animation sampler output accessor of count {0} expected. Found {1}.",
     "output.count differs from input.count x (3 for CUBICSPLINE) x (the morph-target count for "
     "weights).",
     "glTF 2.0 3.11 and Appendix C: one output per key (three for cubic splines, one per morph "
     "target for weights)"},
    {"ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_FORMAT", S::kError, P::kLink,
     "Invalid animation sampler output accessor format '{0}' for path '{1}'. Must be one of "
     "{2}.",
     "The output accessor's type and componentType are not allowed for the channel's path.",
     "glTF 2.0 3.11, table of output accessor types per path"},
    {"BUFFER_VIEW_TARGET_OVERRIDE", S::kError, P::kLink,
     "Override of previously set bufferView target or usage. Initial: '{0}', new: '{1}'.",
     "A bufferView holds two kinds of data (vertex attributes, vertex indices, inverse bind "
     "matrices, image bytes, other data such as animation keys), or data other than its target "
     "says: e.g. animation keys in a vertex buffer.",
     "glTF 2.0 3.6.1: target is only for vertex attribute and index data; a bufferView holds one "
     "kind of data"},
    {"MESH_PRIMITIVE_ACCESSOR_WITHOUT_BYTESTRIDE", S::kError, P::kLink,
     "bufferView.byteStride must be defined when two or more accessors use the same buffer view.",
     "Two vertex attribute accessors share a bufferView that has no byteStride.",
     "glTF 2.0 3.6.2.1: when two or more vertex attribute accessors use the same bufferView, "
     "its byteStride MUST be defined"},
    {"UNRESOLVED_REFERENCE", S::kError, P::kLink, "Unresolved reference: {0}.",
     "An index points past the end of the array it refers to.",
     "glTF 2.0 3.4: indices refer to existing objects"},
    {"UNUSED_OBJECT", S::kInfo, P::kLink, "This object may be unused.",
     "An animation sampler is not used by any channel of its animation.",
     "glTF 2.0 3.11: samplers are referenced by channels"},
    // ---- data: sparse indices (loader: src/load/accessor_reader.cpp) ------
    // ---- link: EXT_animation_sqlerp (rules/ext_animation_sqlerp.cpp) -------
    {"EXT_ANIMATION_SQLERP_INVALID_OUTPUT_COUNT", S::kError, P::kLink,
     "CUBICSLERP output accessor must have {0} elements (3 per keyframe), not {1}.",
     "Our own (EXT_animation_sqlerp): a CUBICSLERP sampler's output count is not 3 x its input "
     "count (in-tangent, value, out-tangent per key); reported at the sampler's output.",
     "EXT_animation_sqlerp: the number of output elements must equal three times the number of "
     "input elements"},
    {"EXT_ANIMATION_SQLERP_INVALID_SAMPLER_INTERPOLATION", S::kError, P::kLink,
     "EXT_animation_sqlerp sampler {0} has interpolation '{1}', not 'CUBICSLERP'.",
     "Our own (EXT_animation_sqlerp): a channel's extension object names a sampler whose "
     "interpolation is not CUBICSLERP (a client with the extension would play it as CUBICSLERP "
     "data); reported at the extension's sampler.",
     "EXT_animation_sqlerp: the sampler property references an animation.sampler which defines "
     "animation data using the new CUBICSLERP interpolation type"},
    {"EXT_ANIMATION_SQLERP_INVALID_TARGET_PATH", S::kError, P::kLink,
     "CUBICSLERP can only animate rotation, not '{0}'.",
     "Our own (EXT_animation_sqlerp): a channel reaches a CUBICSLERP sampler (through the "
     "extension or its core sampler) and its target is not a rotation (a core path other than "
     "rotation, or a pointer to a property that is not a quaternion).",
     "EXT_animation_sqlerp: this interpolation mode is only valid when targeting a rotation"},
    {"EXT_ANIMATION_SQLERP_MISSING_FALLBACK", S::kError, P::kLink,
     "Channel has no core fallback for CUBICSLERP: {0}.",
     "Our own (EXT_animation_sqlerp): a channel with the extension has no core `sampler` while "
     "EXT_animation_sqlerp is not in extensionsRequired, or a channel's core `sampler` is itself "
     "CUBICSLERP (a client without the extension has nothing to play); at the channel.",
     "EXT_animation_sqlerp: the channel's sampler is the fallback; to use CUBICSLERP without a "
     "fallback, define the extension in both extensionsUsed and extensionsRequired"},
    {"EXT_ANIMATION_SQLERP_TOO_FEW_KEYFRAMES", S::kError, P::kLink,
     "CUBICSLERP needs at least 2 keyframes; the input accessor has {0}.",
     "Our own (EXT_animation_sqlerp): a CUBICSLERP sampler's input has fewer than 2 elements; "
     "reported at the sampler's input.",
     "EXT_animation_sqlerp: there must be at least two keyframes when using this interpolation"},
    {"UNDECLARED_EXTENSION", S::kError, P::kLink,
     "Extension '{0}' was not declared in extensionsUsed.",
     "An extension object is present but its name is not in extensionsUsed (glTF-Validator's "
     "code), at `extensions/NAME` of the object: every object of the core schema (root, "
     "asset, each top-level array's objects and the objects nested in them), never inside "
     "extras or an extension's own object.",
     "glTF 2.0 3.12: all extensions used in a glTF asset MUST be listed in extensionsUsed"},
    // ---- link, semantic, data: what animation depends on: nodes, scenes, skins,
    // meshes (rules/scene_graph.cpp, rules/meshes.cpp); glTF-Validator's codes
    {"INVALID_IBM_ACCESSOR_COUNT", S::kError, P::kLink,
     "IBM accessor must have at least {0} elements. Found {1}.",
     "A skin's inverseBindMatrices accessor has fewer elements than the skin has joints.",
     "glTF 2.0 Skins: the number of elements of the accessor referenced by inverseBindMatrices "
     "MUST be greater than or equal to the number of joints elements"},
    {"NODE_LOOP", S::kError, P::kLink, "Node is a part of a node loop.",
     "Following the parents (from children) from this node comes back to it; reported for every "
     "node of the loop, found in one pass with no recursion.",
     "glTF 2.0 Nodes and Hierarchy: the node hierarchy MUST NOT contain cycles"},
    {"NODE_PARENT_OVERRIDE", S::kError, P::kLink, "Value overrides parent of node {0}.",
     "A node is a child of two nodes; reported at the later children entry (the parent it gets, "
     "as in glTF-Validator).",
     "glTF 2.0 Nodes and Hierarchy: each node MUST have zero or one parent node"},
    {"NODE_WEIGHTS_INVALID", S::kError, P::kLink,
     "The length of weights array ({0}) does not match the number of morph targets ({1}).",
     "A node's weights has another length than its mesh's first primitive has morph targets.",
     "glTF 2.0 node.weights: the number of array elements MUST match the number of morph targets "
     "of the referenced mesh"},
    {"SCENE_NON_ROOT_NODE", S::kError, P::kLink, "Node {0} is not a root node.",
     "A scene lists a node that is some node's child.",
     "glTF 2.0 Scenes: all nodes listed in scene.nodes array MUST be root nodes"},
    {"SKIN_IBM_ACCESSOR_WITH_BYTESTRIDE", S::kError, P::kLink,
     "bufferView.byteStride must not be defined for buffer views used by inverse bind matrices "
     "accessors.",
     "The inverseBindMatrices accessor's bufferView defines byteStride.",
     "glTF 2.0 Buffers and Buffer Views: buffer views with other types of data [than vertex "
     "attributes] MUST NOT define byteStride"},
    {"SKIN_IBM_INVALID_FORMAT", S::kError, P::kLink,
     "Invalid IBM accessor format '{0}'. Must be one of ('{1}').",
     "The inverseBindMatrices accessor is not MAT4 of FLOAT; its data is not checked.",
     "glTF 2.0 Skins: an accessor referenced by inverseBindMatrices MUST have floating-point "
     "components of MAT4 type"},
    {"MESH_INVALID_WEIGHTS_COUNT", S::kError, P::kSemantic,
     "The length of weights array ({0}) does not match the number of morph targets ({1}).",
     "A mesh's weights has another length than its first primitive has morph targets.",
     "glTF 2.0 mesh.weights: the number of array elements MUST match the number of morph targets"},
    {"MESH_PRIMITIVES_UNEQUAL_TARGETS_COUNT", S::kError, P::kSemantic,
     "All primitives must have the same number of morph targets.",
     "A primitive has another number of morph targets than the mesh's first primitive.",
     "glTF 2.0 Morph Targets: all primitives MUST have the same number of morph targets in the "
     "same order"},
    {"NODE_MATRIX_NON_TRS", S::kError, P::kSemantic, "Matrix must be decomposable to TRS.",
     "A node's matrix has a last row other than (0, 0, 0, 1), a zero determinant, or columns "
     "that are not orthogonal (|c_i . c_j| > 5e-5 |c_i| |c_j|): no translation, rotation and "
     "scale give it.",
     "glTF 2.0 Transformations: when matrix is defined, it MUST be decomposable to TRS "
     "properties"},
    {"NODE_MATRIX_TRS", S::kError, P::kSemantic,
     "A node can have either a matrix or any combination of translation/rotation/scale (TRS) "
     "properties.",
     "A node has matrix and also translation, rotation or scale.",
     "glTF 2.0 node: a node MAY have either a matrix or any combination of "
     "translation/rotation/scale (TRS) properties (the schema's not anyOf)"},
    {"ROTATION_NON_UNIT", S::kError, P::kSemantic, "Rotation quaternion must be normalized.",
     "A node's rotation has |length - 1| > 0.00769 (glTF-Validator's threshold, as for rotation "
     "keyframes).",
     "glTF 2.0 Transformations: rotation is a unit quaternion value, XYZW"},
    {"SKIN_NO_COMMON_ROOT", S::kError, P::kSemantic, "Joints do not have a common root.",
     "A skin's joints are not all in one tree of the node hierarchy (or none resolves).",
     "glTF 2.0 Joint Hierarchy: each skin's joints MUST have a common parent node (direct or "
     "indirect) called common root"},
    {"SKIN_SKELETON_INVALID", S::kError, P::kSemantic, "Skeleton node is not a common root.",
     "A skin's skeleton is not an ancestor (or itself one) of every joint.",
     "glTF 2.0 Skins: skeleton points to the node that is the common root of a joints hierarchy "
     "or to a direct or indirect parent node of the common root"},
    {"ACCESSOR_JOINTS_INDEX_DUPLICATE", S::kError, P::kData,
     "Joints accessor element at index {0} (component index {1}) has value {2} that is already "
     "in use for the vertex.",
     "A vertex gives one joint two non-zero weights (over all its JOINTS_n / WEIGHTS_n sets).",
     "glTF 2.0 Skinned Mesh Attributes: joints MUST NOT contain more than one non-zero weight for "
     "a given vertex"},
    {"ACCESSOR_JOINTS_INDEX_OOB", S::kError, P::kData,
     "Joints accessor element at index {0} (component index {1}) has value {2} that is greater "
     "than the maximum joint index ({3}) set by skin {4}.",
     "A JOINTS_n value is not an index into the joints of the smallest skin a node uses the mesh "
     "with.",
     "glTF 2.0 Skins: JOINTS_n contains the indices of the joints from the corresponding "
     "skin.joints array"},
    {"ACCESSOR_WEIGHTS_NEGATIVE", S::kError, P::kData,
     "Weights accessor element at index {0} (component index {1}) has negative value {2}.",
     "A WEIGHTS_n value is negative.",
     "glTF 2.0 Skinned Mesh Attributes: the joint weights for each vertex MUST NOT be negative"},
    {"ACCESSOR_WEIGHTS_NON_NORMALIZED", S::kError, P::kData,
     "Weights accessor elements (at indices {0}..{1}) have non-normalized sum: {2}.",
     "A vertex's weights (all sets, a joint counted once) do not sum to 1 within 2e-7 per weight, "
     "summed in float32 as glTF-Validator does; one message per WEIGHTS_n set.",
     "glTF 2.0 Skinned Mesh Attributes: the linear sum of normalized weights MUST be 255 or 65535 "
     "before normalization; float weights SHOULD sum as close as reasonably possible to 1.0"},
    {"ACCESSOR_INVALID_IBM", S::kError, P::kData,
     "Matrix element at index {0} (component index {1}) contains invalid value: {2}.",
     "An inverse-bind matrix's last row is not (0, 0, 0, 1): components 3, 7 and 11 are 0 and 15 "
     "is 1. Implicit zeros (no bufferView) are not checked, as in glTF-Validator.",
     "glTF 2.0 Skins: the fourth row of each matrix MUST be set to [0.0, 0.0, 0.0, 1.0]"},
    // ---- link: KHR_draco_mesh_compression (rules/khr_draco_mesh_compression.cpp)
    {"KHR_DRACO_MESH_COMPRESSION_DATA_NOT_DECODED", S::kInfo, P::kLink,
     "Data supplied by KHR_draco_mesh_compression ({0}) is not decoded; its values are not "
     "checked.",
     "Our own: an accessor without bufferView that a primitive's Draco extension names (an "
     "attribute of its `attributes`, or the primitive's indices) holds decoded Draco data, not "
     "zeros; the data checks (min/max, NaN) skip it.",
     "KHR_draco_mesh_compression: if a primitive ... defines its KHR_draco_mesh_compression "
     "property, then the Draco geometry compression must be used"},
    // ---- link: KHR_animation2 (rules/khr_animation2.cpp) ---------------------
    {"KHR_ANIMATION2_INVALID_INTERPOLATION", S::kError, P::kLink,
     "Interpolation {0} is not valid for a {1} target.",
     "Our own (KHR_animation2): the draft's validity table: quaternions STEP or SLERP only, "
     "SLERP only for quaternions, LINEAR and CUBICSPLINE not for quaternions; at the channel's "
     "sampler.",
     "KHR_animation2: Valid interpolations (table)"},
    {"KHR_ANIMATION2_INVALID_OUTPUT_TYPE", S::kError, P::kLink,
     "Output accessor format {0} does not match the {1} target; expected {2}.",
     "Our own (KHR_animation2): the output accessor's type/componentType does not fit the "
     "targeted property (scalar: SCALAR, vecN: VECN, float[]: SCALAR, all FLOAT; quat: like "
     "node rotation); at the channel's sampler.",
     "KHR_animation2: the output values replace the targeted property (scalar or array)"},
    {"KHR_ANIMATION2_INVALID_POINTER", S::kError, P::kLink, "Invalid targetpointer '{0}': {1}.",
     "Our own (KHR_animation2): targetpointer is not a string, is empty, or has a '~' not "
     "followed by 0 or 1.",
     "KHR_animation2: the output values are mapped using a JSON Pointer (RFC 6901)"},
    {"KHR_ANIMATION2_POINTER_WITHOUT_LEADING_SLASH", S::kWarning, P::kLink,
     "targetpointer '{0}' does not start with '/'; read as '/{0}'.",
     "Our own (KHR_animation2): an RFC 6901 pointer starts with '/', but the draft's own example "
     "(\"nodes/0/rotation\") has none; accepted and resolved as if it had.",
     "RFC 6901 section 3: a JSON Pointer is a sequence of zero or more '/' reference-tokens"},
    {"KHR_ANIMATION2_SUPERSEDED", S::kInfo, P::kLink,
     "KHR_animation2 is an experimental draft superseded by KHR_animation_pointer.",
     "Our own: the asset uses KHR_animation2; reported once, at its extensionsUsed entry.",
     "KHR_animation2 Status: Experimental; KHR_animation_pointer is the ratified successor"},
    {"KHR_ANIMATION2_UNRESOLVED_POINTER", S::kError, P::kLink,
     "targetpointer '{0}' does not resolve to an animatable property: {1}.",
     "Our own (KHR_animation2): the pointer matches no mutable Object Model template (nor a "
     "component of a vector one), or the property is not defined in the asset (absent without "
     "a default in a present object), or it is a float4x4.",
     "KHR_animation2: the JSON Pointer targets the glTF property, which is replaced by the "
     "interpolated value"},
    {"ACCESSOR_SPARSE_INDEX_OOB", S::kError, P::kData,
     "Accessor sparse indices element at index {0} is greater than or equal to the number of "
     "accessor elements: {1} >= {2}.",
     "A sparse index is not below accessor.count; the accessor's data is not read.",
     "glTF 2.0 Sparse Accessors: indices MUST be less than accessor.count"},
    {"ACCESSOR_SPARSE_INDICES_NON_INCREASING", S::kError, P::kData,
     "Accessor sparse indices element at index {0} is less than or equal to previous: {1} <= {2}.",
     "Sparse indices are not strictly increasing; the accessor's data is not read.",
     "glTF 2.0 Sparse Accessors: indices MUST strictly increase"},
    // ---- link: KHR_animation_pointer (rules/khr_animation_pointer.cpp) ----
    {"KHR_ACCESSOR_FLOAT_NOT_REQUIRED", S::kError, P::kLink,
     "{0} is used but not listed in extensionsRequired.",
     "Our own (KHR_accessor_float64/float16 drafts): an accessor has componentType 5130 or "
     "5131 and the draft defining it is in extensionsUsed but not in extensionsRequired; once, "
     "at its extensionsUsed entry.",
     "KHR_accessor_float64/float16 (drafts): assets that use this extension MUST specify it in "
     "the extensionsRequired array"},
    {"KHR_ACCESSOR_FLOAT_UNDECLARED", S::kError, P::kLink,
     "componentType {0} ({1}) is defined by the draft extension {2}, which extensionsUsed does "
     "not list.",
     "Our own (KHR_accessor_float64/float16 drafts): an accessor has componentType 5130 "
     "(DOUBLE) or 5131 (HALF_FLOAT) and the asset does not declare the draft that defines it; "
     "its data is still read and checked as floating-point data (no format error follows); at "
     "the componentType.",
     "KHR_accessor_float64/float16 (drafts): the component types are valid when the extension "
     "is supported; glTF 2.0 3.12: extensions used MUST be listed in extensionsUsed"},
    {"KHR_ANIMATION_POINTER_ANIMATION_CHANNEL_TARGET_MISSING_POINTER", S::kError, P::kLink,
     "Animation channel target path is 'pointer' but the KHR_animation_pointer object is "
     "missing.",
     "Our own (KHR_animation_pointer): target.path is \"pointer\" without "
     "target.extensions.KHR_animation_pointer; at the target.",
     "KHR_animation_pointer Extension Usage: the JSON pointer is provided in the extension "
     "object's pointer property"},
    {"KHR_ANIMATION_POINTER_ANIMATION_CHANNEL_TARGET_NODE", S::kError, P::kLink,
     "This extension requires the animation channel target node to be undefined.",
     "A target with a KHR_animation_pointer object also has a node (that resolves; an "
     "unresolved one is UNRESOLVED_REFERENCE only, as glTF-Validator); at the extension object.",
     "KHR_animation_pointer Extension Usage: the animation channel node property MUST NOT be set"},
    {"KHR_ANIMATION_POINTER_ANIMATION_CHANNEL_TARGET_PATH", S::kError, P::kLink,
     "This extension requires the animation channel target path to be 'pointer'. Found '{0}' "
     "instead.",
     "A target with a KHR_animation_pointer object has a path other than \"pointer\"; at the "
     "extension object.",
     "KHR_animation_pointer Extension Usage: the animation channel target path MUST be set to "
     "\"pointer\""},
    {"KHR_ANIMATION_POINTER_EXTRAS_TARGET", S::kInfo, P::kLink,
     "Pointer '{0}' animates an application-specific extras value ({1}); it fits the output "
     "accessor, and nothing else is checked.",
     "Our own (KHR_animation_pointer): the pointer names a value inside an extras object, which "
     "the Object Model does not type; its JSON shape fits the output accessor (a number: "
     "SCALAR; an array of n numbers: n components or n SCALARs per key; a boolean: SCALAR "
     "UNSIGNED_BYTE with STEP); at the pointer.",
     "KHR_animation_pointer extras: properties in extras MAY be targeted; validity and "
     "interpretation of the animated values is entirely application specific"},
    {"KHR_ANIMATION_POINTER_EXTRAS_VALUE_MISMATCH", S::kWarning, P::kLink,
     "Pointer '{0}' animates an extras value ({1}) that the output accessor does not fit: {2}.",
     "Our own (KHR_animation_pointer): the extras value the pointer names is not a number, an "
     "array of numbers or a boolean, or the output accessor's type, count, component type or "
     "interpolation does not fit its JSON shape (as for an Object Model property of that type); "
     "a warning, since extras are application specific; at the pointer.",
     "KHR_animation_pointer: the output accessor MUST be compatible with the animated property "
     "(extras: validity is application specific)"},
    {"KHR_ANIMATION_POINTER_INTERPOLATION_NOT_STEP", S::kError, P::kLink,
     "Interpolation {0} cannot animate '{1}' of type {2}; only STEP can.",
     "Our own (KHR_animation_pointer): the pointer's Object Model type is int or bool and the "
     "sampler's interpolation is not STEP; at the channel's sampler.",
     "KHR_animation_pointer: samplers used with int or bool types MUST use STEP interpolation"},
    {"KHR_ANIMATION_POINTER_READ_ONLY_TARGET", S::kError, P::kLink,
     "Pointer '{0}' is read-only in the glTF Object Model.",
     "Our own (KHR_animation_pointer): the pointer matches a read-only Object Model template "
     "(/nodes/{}/matrix, /nodes/{}/mesh, /materials/{}/doubleSided, *.length, ...); at the "
     "pointer.",
     "KHR_animation_pointer Operation: the property being animated MUST be mutable as defined "
     "by the Object Model"},
    {"KHR_ANIMATION_POINTER_TARGET_EXTENSION_NOT_USED", S::kError, P::kLink,
     "Pointer '{0}' targets a property of {1}, which is not in extensionsUsed.",
     "Our own (KHR_animation_pointer): the pointer's Object Model template belongs to an "
     "extension (each name after an 'extensions' segment) the asset does not list as used; at "
     "the pointer.",
     "KHR_animation_pointer: the pointer MUST point to a property defined in the asset; glTF "
     "2.0 3.12: extensions used MUST be listed in extensionsUsed"},
    {"KHR_ANIMATION_POINTER_UNDEFINED_TARGET", S::kError, P::kLink,
     "Pointer '{0}' does not point to a property defined in the asset.",
     "Our own (KHR_animation_pointer): the pointer matches an Object Model template (or names "
     "an extras value) but an index is out of range, an enclosing object is absent, or the "
     "property is absent and has no default (camera zfar/aspectRatio, light range); an absent "
     "material pbrMetallicRoughness is present with its defaults (its textures are not); at "
     "the pointer.",
     "KHR_animation_pointer Operation: a property is defined if present, or if it has a default "
     "value and its enclosing object is present"},
    {"UNEXPECTED_EXTENSION_OBJECT", S::kError, P::kLink, "Unexpected location for this extension.",
     "A KHR_animation_pointer object on an animation, channel or sampler instead of the "
     "channel's target (glTF-Validator's code; raised by the pointer module for its own "
     "object); it is not read.",
     "KHR_animation_pointer glTF Schema Updates: the extension object extends "
     "animation.channel.target"},
    {"KHR_ANIMATION_POINTER_UNKNOWN_TARGET", S::kError, P::kLink,
     "Pointer '{0}' is not a property of the glTF Object Model.",
     "Our own (KHR_animation_pointer): the pointer names no property of the glTF Object Model "
     "(nor an extras value), e.g. a vector component or a member the Object Model does not "
     "define; at the pointer.",
     "KHR_animation_pointer Operation: the property being animated MUST be mutable as defined "
     "by the glTF 2.0 Asset Object Model"},
    // ---- data: accessor values (rules engineer: rules/data_phase.cpp) -----
    {"ACCESSOR_ANIMATION_INPUT_NEGATIVE", S::kError, P::kData,
     "Animation input accessor element at index {0} is negative: {1}.",
     "An animation input time is negative; reported once per accessor however many samplers "
     "share it.",
     "glTF 2.0 3.11: inputs are times in seconds relative to t = 0"},
    {"ACCESSOR_ANIMATION_INPUT_NON_INCREASING", S::kError, P::kData,
     "Animation input accessor element at index {0} is less than or equal to previous: {1} <= "
     "{2}.",
     "An animation input time is not greater than the element before it (the first element has "
     "no predecessor; glTF-Validator compares it with 0).",
     "glTF 2.0 3.11: input values MUST be strictly increasing"},
    {"ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION", S::kError, P::kData,
     "Animation sampler output accessor element at indices {0}..{1} is not of unit length: {2}.",
     "A rotation keyframe value has |length - 1| > 0.00769 (cubic splines: values only, not "
     "tangents); indices are flat component indices.",
     "glTF 2.0 3.11: rotations are unit quaternions"},
    {"ACCESSOR_ELEMENT_OUT_OF_MAX_BOUND", S::kError, P::kData,
     "Accessor contains {0} element(s) greater than declared maximum value {1}.",
     "Elements exceed accessor.max (raised with ACCESSOR_MAX_MISMATCH).",
     "glTF 2.0 3.6.2.5: min and max MUST match the data"},
    {"ACCESSOR_ELEMENT_OUT_OF_MIN_BOUND", S::kError, P::kData,
     "Accessor contains {0} element(s) less than declared minimum value {1}.",
     "Elements are below accessor.min (raised with ACCESSOR_MIN_MISMATCH).",
     "glTF 2.0 3.6.2.5: min and max MUST match the data"},
    {"ACCESSOR_INVALID_FLOAT", S::kError, P::kData,
     "Accessor element at index {0} is NaN or Infinity.",
     "A FLOAT accessor holds NaN or an infinity; the index is the flat component index.",
     "glTF 2.0 3.6.2.2: floating-point data MUST NOT contain NaN or infinities"},
    {"ACCESSOR_MAX_MISMATCH", S::kError, P::kData,
     "Declared maximum value for this component ({0}) does not match actual maximum ({1}).",
     "accessor.max differs from the data's maximum (after sparse substitution; FLOAT bounds "
     "rounded to float32 first).",
     "glTF 2.0 3.6.2.5: values stored in JSON MUST match the binary values"},
    {"ACCESSOR_MIN_MISMATCH", S::kError, P::kData,
     "Declared minimum value for this component ({0}) does not match actual minimum ({1}).",
     "accessor.min differs from the data's minimum (after sparse substitution; FLOAT bounds "
     "rounded to float32 first).",
     "glTF 2.0 3.6.2.5: values stored in JSON MUST match the binary values"},
    // ---- data: EXT_animation_sqlerp --------------------------------------
    {"EXT_ANIMATION_SQLERP_NONZERO_END_TANGENT", S::kWarning, P::kData,
     "The CUBICSLERP {0} (output element {1}) is not zero.",
     "Our own (EXT_animation_sqlerp): the first in-tangent or the last out-tangent of a "
     "CUBICSLERP output is not the zero quaternion; reported at the sampler's output.",
     "EXT_animation_sqlerp: the first in-tangent a_1 and last out-tangent b_n should be zeros as "
     "they are not used"},
    // ---- lint: beyond the specs (rules/lints.cpp) ----------------------------
    {"LINT_ANIMATION_STARTS_AFTER_ZERO", S::kInfo, P::kLint,
     "Every input of this animation starts after 0 (first key at {0}).",
     "Our own lint: the smallest first keyframe time over the animation's samplers is above 0; "
     "before it every channel holds its first value, and players disagree on whether the "
     "animation starts at 0 or at its first key.",
     "glTF 2.0 3.11: the animation's time range; not a rule (information)"},
    {"LINT_CHANNEL_WITHOUT_NODE", S::kWarning, P::kLint,
     "Channel targets path '{0}' without a node; it animates nothing.",
     "Our own lint: a channel's target has a core path (translation, rotation, scale, weights) "
     "but no node, and no extension defines the target.",
     "glTF 2.0 animation.channel.target.node: when undefined, the animated object MAY be "
     "defined by an extension"},
    {"LINT_CUBIC_ROTATION_NEGATIVE_DOT", S::kWarning, P::kLint,
     "CUBICSPLINE rotation keys {0} and {1} have a negative dot product ({2}); {3} such pair(s).",
     "Our own lint: consecutive CUBICSPLINE rotation values v_k . v_k+1 < 0 (opposite values "
     "excepted: LINT_CUBIC_ROTATION_OPPOSITE_KEYS). The spline is interpolated per component "
     "with no shortest path, so it turns the long way between the keys, where a reader that "
     "converts the keys first (Euler angles, a sign-aligned key chain) turns the short way. One "
     "message per output, at the first channel's sampler.",
     "glTF 2.0 Appendix C.5: cubic spline rotations are interpolated per component, then "
     "normalized (no shortest-path rule)"},
    {"LINT_CUBIC_ROTATION_OPPOSITE_KEYS", S::kWarning, P::kLint,
     "Rotation keys {0} and {1} are opposite quaternions (v_k = -v_k+1).",
     "Our own lint: consecutive CUBICSPLINE rotation values with v_k + v_k+1 = 0 within 1e-6 "
     "per component; the componentwise spline passes through or near the zero quaternion.",
     "glTF 2.0 Appendix C: cubic spline rotations are interpolated per component, then "
     "normalized"},
    {"LINT_CUBICSPLINE_NONZERO_END_TANGENT", S::kWarning, P::kLint,
     "The CUBICSPLINE {0} is not zero.",
     "Our own lint: the first in-tangent or the last out-tangent of a core CUBICSPLINE output "
     "has a nonzero component; reported at the sampler's output.",
     "glTF 2.0 Appendix C: the first in-tangent a_1 and last out-tangent b_n SHOULD be zeros as "
     "they are not used"},
    {"LINT_REDUNDANT_KEYFRAME", S::kInfo, P::kLint,
     "{0} keyframe(s) are reproduced by their neighbours' interpolation (first: key {1}).",
     "Our own lint, opt-in (--enable): an interior STEP or LINEAR key whose value the "
     "reference evaluator gives at its time from the previous and next keys alone, every "
     "component within 1e-6 x max(1, |v|) (rotations: q or -q); one message per sampler.",
     "Not a glTF rule: the key can be removed without changing the animation", Enablement::kOptIn},
    {"LINT_ROTATION_NEGATIVE_DOT", S::kWarning, P::kLint,
     "Rotation keys {0} and {1} have a negative dot product ({2}); {3} such pair(s).",
     "Our own lint: consecutive LINEAR rotation keys q_k . q_k+1 < 0; Appendix C slerps the "
     "short way, clients without the shortest-path rule (plain slerp) the long way. One "
     "message per output, at the first channel's sampler.",
     "glTF 2.0 Appendix C: slerp with the shortest path (dot < 0 negates a key)"},
    {"LINT_STEP_KEY_AFTER_FRAME", S::kWarning, P::kLint,
     "STEP key {0} at {1} s is after frame {2} at {3} fps ({4} s); {5} such key(s).",
     "Our own lint: every key time of a STEP input is the float32 of a frame k / fps of one "
     "frame rate (the smallest of 24, 25, 30, 48, 50, 60, 90, 120 that fits), and some are "
     "stored above their frame: a player sampling that frame at k / fps shows the previous "
     "key. One message per input, at the first channel's sampler input.",
     "glTF 2.0 Appendix C.1: a key's value is used at its own timestamp (the stored float32 "
     "time, not the frame it was authored at)"},
};

}  // namespace registry

// Whether `s` is one line of text: no control character (a new line, a tab, a
// carriage return...) and none of Unicode's line breaks (U+0085, U+2028,
// U+2029). Every report and `gltf-anim codes` shows templates one per line.
constexpr bool one_line_text(std::string_view s) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == 0x7f) return false;
    if (c == 0xc2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0x85) return false;
    if (c == 0xe2 && i + 2 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0x80 &&
        (static_cast<unsigned char>(s[i + 2]) == 0xa8 ||
         static_cast<unsigned char>(s[i + 2]) == 0xa9)) {
      return false;
    }
  }
  return true;
}

// The first rule of the registry's shape that `types` breaks, in words, or ""
// when there is none. A lint is advice: its code starts
// with LINT_ exactly when its phase is kLint (so --ignore 'LINT_*' means the
// lints), it is never an error (a valid asset never fails because of one), and
// only a lint can be opt-in. A message, rule or spec is one line of text (a
// line break would split a text report's line or a table row). Checked on the
// registry while compiling.
constexpr std::string_view registry_problem(std::span<const IssueType> types) {
  for (const IssueType& t : types) {
    if (!one_line_text(t.message) || !one_line_text(t.rule) || !one_line_text(t.spec)) {
      return "a message, rule or spec is not one line of text";
    }
    const bool lint = t.phase == Phase::kLint;
    if (t.code.starts_with("LINT_") != lint) {
      return lint ? "a lint's code does not start with LINT_"
                  : "a code starting with LINT_ is not a lint";
    }
    if (lint && t.severity == Severity::kError) return "a lint has severity error";
    if (!lint && t.enablement == Enablement::kOptIn) {
      return "an issue type that is not a lint is opt-in";
    }
  }
  return "";
}
static_assert(registry_problem(registry::kIssueTypes).empty(),
              "the issue registry breaks a rule of registry_problem()");

// Deliberately not constexpr and never defined: IssueCode's constructor calls
// it only for a code that is not in the registry, which makes the compiler
// reject that code with this name in its error message.
void unregistered_issue_code();

// A registered issue code: a reference to its registry row, made from a string
// literal while compiling, so call sites read ctx.issues.add("UNUSED_OBJECT",
// ...) and a typo does not build. Codes chosen at run time are IssueCode
// values picked among literals.
class IssueCode {
 public:
  template <std::size_t N>
  consteval IssueCode(const char (&code)[N])  // NOLINT: implicit on purpose
      : type_(&lookup(std::string_view(code, N - 1))) {}

  constexpr const IssueType& type() const { return *type_; }
  constexpr std::string_view name() const { return type_->code; }
  friend constexpr bool operator==(IssueCode a, IssueCode b) { return a.type_ == b.type_; }

 private:
  static consteval const IssueType& lookup(std::string_view code) {
    for (const IssueType& t : registry::kIssueTypes) {
      if (t.code == code) return t;
    }
    unregistered_issue_code();
    return registry::kIssueTypes[0];  // not reached: the call above is not a constant expression
  }

  const IssueType* type_;
};

}  // namespace gltf_anim::gltf
