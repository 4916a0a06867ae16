#pragma once
// The edit path: a session of edits to a loaded glTF asset, written back as
// splices (writer.hpp) so that every byte the edits do not name stays as it
// was: whitespace, number spellings, member order, unknown extensions, extras.
//
// A session holds
//  - JSON edits at JSON pointers: set a value, put a member into an object,
//    append an element to an array (the array member created when absent),
//    remove an object member;
//  - accessor data edits: doubles encoded to a component type (FLOAT, or the
//    normalized BYTE, UNSIGNED_BYTE, SHORT, UNSIGNED_SHORT core glTF allows for
//    rotation and weights outputs) with min/max computed per component, either
//    overwritten in place (same count, no sparse) or given to the accessor as
//    new contents in a new bufferView, or to a new accessor appended to
//    `accessors`. Nothing existing is renumbered or deleted: an unknown
//    extension may name any object by index.
// and builds the output files in memory: a GLB with its JSON and BIN chunks,
// or a .gltf with the bytes of every buffer that changed (a data URI buffer
// re-encoded in place, an external one written beside the output under a new
// name, see OutputNames).
//
// The session reads nothing from disk and parses no JSON: what it needs of
// the asset (its JSON text, container, buffers' bytes, the layout of buffers,
// bufferViews and accessors) is handed over in a Source, which the repair
// module fills from the validator's loaded asset (repair/tool.hpp,
// edit_source).
//
// Compaction (so that an edit that replaces data saves its bytes): when a
// bufferView of the source loses its last user to the edits, its bytes that no
// other bufferView covers are dropped, and the other bufferViews' byteOffsets and
// the buffer's byteLength are rewritten (each kept run of bytes keeps its offset
// modulo 8, so every alignment holds). Only bytes the edits emptied go: a
// bufferView nothing used to begin with keeps its bytes like a used one, and
// bytes no bufferView covers stay. The
// bufferView that lost its users keeps its index and is re-pointed at the
// first bytes of its buffer (byteStride dropped), as small as it may be. The
// source says when bytes must not move (Source::compaction_blocked): the
// repair module blocks it when the asset uses an extension it does not know,
// which might name a buffer and a byte offset directly.
#include <gltf_anim/gltf/asset.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gltf_anim::gltf {

// How an accessor stores its elements.
struct ElementFormat {
  ComponentType component_type = ComponentType::kFloat;
  ElementType type = ElementType::kScalar;  // accessor.type (MATn: FLOAT only)
  bool normalized = false;
  friend bool operator==(const ElementFormat&, const ElementFormat&) = default;
};

// Values encoded for an accessor: tightly packed little-endian elements and
// the per-component bounds as JSON number texts (FLOAT: the float's shortest
// spelling; normalized integers: the stored integers, as the spec's min/max
// of a normalized accessor are).
struct EncodedData {
  ElementFormat format;
  std::uint64_t count = 0;
  std::vector<std::uint8_t> bytes;
  std::vector<std::string> min;
  std::vector<std::string> max;
};

// `values` (count x components, element after element) in `format`. FLOAT
// rounds to nearest float; a normalized type stores round(v x M) for M = 127,
// 255, 32767, 65535 (the inverse of the spec's decoding, 3.11). nullopt with
// the reason when a value is not finite, out of the type's range ([-1, 1]
// signed, [0, 1] unsigned, the float range), the count is not a whole number
// of elements or zero, or the format is none of those above.
std::optional<EncodedData> encode(std::span<const double> values, const ElementFormat& format,
                                  std::string& why);

// A JSON string literal for `text`: the project's one JSON escaping
// (text/escape.hpp: invalid UTF-8 repaired, '"', '\\' and controls escaped).
std::string json_string(std::string_view text);
// A JSON number for `value`: the shortest text that reads back as `value`
// (non-finite values have no JSON form: "null").
std::string json_number(double value);

// What the session needs of the asset, from the loader (repair/tool.hpp).
// Its spans and views point into the loaded asset, which must outlive the
// session.
struct SourceBuffer {
  std::optional<std::string> uri;  // as written; absent: the GLB's BIN chunk
  // The buffer's bytes, exactly byteLength long; nullopt when not loaded.
  std::optional<std::span<const std::uint8_t>> bytes;
};
// Indices are size_t (an index past SIZE_MAX names nothing: edit_source
// saturates it); byte offsets and lengths are the file's 64-bit numbers, and
// fit a size_t wherever the object is readable (its bytes are in memory).
struct SourceBufferView {
  std::size_t buffer = 0;
  std::uint64_t byte_offset = 0;
  std::uint64_t byte_length = 0;
  std::optional<std::uint64_t> byte_stride;
  bool readable = false;  // the loader checked it against its buffer's bytes
  // Something other than an accessor names this bufferView (an image, a
  // mesh-compression extension): never re-pointed, always kept.
  bool used_elsewhere = false;
};
struct SourceAccessor {
  std::optional<std::size_t> buffer_view;
  std::uint64_t byte_offset = 0;
  ElementFormat format;
  std::uint64_t count = 0;
  // The bufferViews of sparse indices and values, when sparse.
  std::vector<std::size_t> sparse_views;
  bool readable = false;  // the loader checked its layout (only those are edited)
};
enum class Container { kGltf, kGlb };
struct Source {
  Container container = Container::kGltf;
  std::span<const std::uint8_t> file_bytes;  // the whole input (a GLB is rewritten from it)
  std::string_view json_text;
  std::uint64_t json_offset = 0;  // where json_text starts in file_bytes (a GLB: 20)
  std::vector<SourceBuffer> buffers;
  std::vector<SourceBufferView> buffer_views;
  std::vector<SourceAccessor> accessors;
  // Why no byte of a buffer may move (compaction off), or nullopt.
  std::optional<std::string> compaction_blocked;
};

// Names of the files a .gltf output writes beside itself.
struct OutputNames {
  // The output's file name without its extension: a changed external buffer
  // is written as "<stem>.bin" (when it is the only one) or "<stem>_<i>.bin"
  // (buffer i), its uri re-pointed there.
  std::string stem;
  // True for a name that must not be used (an input's file in the output's
  // folder): the next candidate, "<stem>_<i>.bin" then "<stem>_<i>_<k>.bin"
  // for k = 1, 2, ..., is taken instead.
  std::function<bool(std::string_view)> taken;
  // The output goes to another folder than the input's: every loaded external buffer is
  // written beside it, an unchanged one as a copy of its bytes (only its uri changes), so
  // that the output names no buffer of the input's folder.
  bool every_buffer = false;
};

// The files of an edited asset: the main one (.gltf text or .glb) and, for a
// .gltf, each new external buffer by file name (relative to the main file's
// folder), plus what the session did that a report should say.
struct EditOutput {
  std::vector<std::uint8_t> main;
  std::map<std::string, std::vector<std::uint8_t>> buffers;
  // The asset still names the input's external buffers by relative URI (a
  // buffer left unchanged): only valid in the input's folder.
  bool keeps_input_buffers = false;
  // Bytes dropped by compaction, per buffer index that was compacted.
  std::map<std::size_t, std::uint64_t> dropped_bytes;
  // Why compaction did not run although a bufferView lost its users.
  std::optional<std::string> compaction_skipped;
};

class Edit {
 public:
  explicit Edit(Source source);

  // JSON edits, applied at build(). A pointer names a value of the source's
  // JSON (not one another edit adds). `value` is JSON text, written as given.
  // Conflicting edits (two to one value, one inside a value another replaces
  // or removes) make build() fail with both pointers.
  void set(std::string pointer, std::string value);
  // The member `name` of the object at `object`: set when present, inserted
  // (at the end of the object) when absent.
  void put_member(std::string object, std::string name, std::string value);
  // An element at the end of the array at `array`; when the source has no
  // value there, the array is created as a member of its parent object.
  void append(std::string array, std::string value);
  // The object member at `pointer`, name, value and one separating comma.
  void remove(std::string pointer);

  // The accessor's elements become `values` in its own format, overwritten in
  // place with its byteStride; min and max rewritten where the accessor has
  // them (require_bounds: added where it has not). false with the reason when the
  // accessor is not readable, is sparse or has no bufferView, the count
  // differs, a value does not fit its format, or its bytes are shared with
  // another accessor or a bufferView used elsewhere (use replace_accessor).
  bool overwrite_accessor(std::size_t accessor, std::span<const double> values, std::string& why);
  // The accessor gets new contents: `values` in `format`, in a bufferView
  // appended to `bufferViews` (bytes appended to the buffer it used, else the
  // first loaded buffer), with bufferView, byteOffset, count, componentType,
  // normalized, type, min and max written and sparse removed.
  bool replace_accessor(std::size_t accessor, std::span<const double> values,
                        const ElementFormat& format, std::string& why);
  // A new accessor appended to `accessors` with `values` in `format`; its index.
  std::optional<std::size_t> add_accessor(std::span<const double> values,
                                          const ElementFormat& format, std::string& why);
  // The accessor reads `with`'s data: the bufferView this session made for `with`
  // (replace_accessor or add_accessor), its count, format, min and max. For an accessor
  // whose contents equal `with`'s and whose users now name `with`: its own bytes lose it
  // as a user, so compaction drops them once nothing else uses them. Later new contents
  // for either one get a bufferView of their own. false with the reason when `with` has
  // no data of this session, or `accessor` has (its bytes would be written unread).
  bool share_accessor(std::size_t accessor, std::size_t with, std::string& why);

  // The accessor as the edits so far left it (its source's, re-pointed by
  // replace_accessor, or added); nullptr past the last.
  const SourceAccessor* accessor(std::size_t index) const;
  // Whether the session computes the accessor's min and max (its data was
  // overwritten or replaced): a caller then leaves them to it.
  bool writes_bounds(std::size_t accessor) const;
  // min and max of an overwritten accessor written even when it had none
  // (replaced and added accessors always get them).
  void require_bounds(std::size_t accessor);
  // How many accessors / bufferViews there are with the ones this session added.
  std::size_t accessor_count() const;
  std::size_t buffer_view_count() const;
  // Whether anything was asked of the session.
  bool empty() const;

  // The output files. With no edit, `main` is the input's bytes and no buffer
  // is written. nullopt with the reason when an edit conflicts or names no
  // value, or the output cannot be formed.
  std::optional<EditOutput> build(const OutputNames& names, std::string& why) const;

 private:
  struct JsonOp {
    enum class Kind { kSet, kPut, kAppend, kRemove } kind = Kind::kSet;
    std::string pointer;  // the value; for kPut the object
    std::string name;     // kPut: the member
    std::string value;
  };
  struct NewView {
    std::size_t buffer = 0;
    std::vector<std::uint8_t> bytes;
  };
  struct AccessorState {
    SourceAccessor now;
    bool rewritten = false;     // JSON members to write at build
    bool force_bounds = false;  // min/max written even where absent
    bool shares_view = false;   // its bufferView of this session is read by another accessor
    std::vector<std::string> min, max;
  };
  // build()'s steps, in order, and the state they share (edit.cpp).
  struct Build;
  void find_emptied_buffer_views(Build& state) const;
  void compact_buffer(Build& state, std::size_t buffer) const;
  void place_new_buffer_views(Build& state) const;
  void edit_accessors(Build& state) const;
  void edit_buffer_views(Build& state) const;
  bool edit_buffers(Build& state, std::string& why) const;
  bool resolve_json_edits(Build& state, std::string& why) const;
  std::optional<std::string> splice_json(Build& state, std::string& why) const;
  bool write_main_file(Build& state, const std::string& text, std::string& why) const;
  bool aliased(std::size_t accessor) const;
  std::optional<std::size_t> target_buffer(std::size_t accessor) const;
  void note_bounds(AccessorState& state, const EncodedData& data);

  Source source_;
  std::vector<JsonOp> ops_;
  std::vector<AccessorState> accessors_;  // source's, then added ones
  std::size_t source_accessors_ = 0;
  std::vector<NewView> new_views_;  // indexed from source_.buffer_views.size()
  // Elements overwritten in place, per buffer in the order written: the session holds the
  // changed bytes only, and the buffer is copied once, when the output is built.
  struct Patch {
    std::uint64_t first = 0;   // byte of the first element in the buffer
    std::uint64_t stride = 0;  // bytes from one element to the next
    std::vector<std::uint8_t> elements;  // packed, `element` bytes each
    std::size_t element = 0;
  };
  std::vector<std::vector<Patch>> overwritten_;  // per buffer
  std::vector<bool> aliased_;                                          // per source accessor
};

}  // namespace gltf_anim::gltf
