#pragma once
// The rule framework: rule modules run in fixed phases over one shared context.
//
// validate_asset (validate.hpp) runs, for one loaded asset:
//   1. schema: the embedded JSON Schemas (validator/schemas/) via valijson;
//      a module may accept an enum value the core schema does not know
//      (accepts_value), e.g. path "pointer" when KHR_animation_pointer is used,
//      or excuse a missing or unexpected member (excuses_member);
//   2. link: bufferViews and accessors (the loader's layout checks), then every
//      module's link() in the fixed order of rule_modules(), over the animation
//      model (animation_model.hpp, built once from the loaded asset: what each
//      channel animates, through which sampler and accessors);
//   3. data: one streaming pass per accessor, in accessor order. During link,
//      modules attach ElementCheckers to accessors (DataChecks::attach); each
//      (accessor, key) pair is checked once however many samplers or channels
//      share the accessor, and reports at the pointer of its first user.
// Extension modules (EXT_animation_sqlerp, KHR_animation2,
// KHR_animation_pointer, ...) are more entries of rule_modules(); nothing in the
// core rules names them.
#include <gltf_anim/reference/interpolation.hpp>
#include <gltf_anim/gltf/animation_model.hpp>
#include <gltf_anim/gltf/asset.hpp>
#include <gltf_anim/gltf/issue_collector.hpp>
#include <gltf_anim/gltf/json.hpp>
#include <gltf_anim/gltf/json_access.hpp>

#include <rapidjson/document.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gltf_anim::validator {

namespace rules {
// Rules read the document through gltf/'s tolerant JSON access (member, index_member, ...),
// by its names.
using namespace gltf::json_access;  // NOLINT(google-build-using-namespace)
}  // namespace rules

// Receives the decoded values of one accessor, in order, in chunks.
class ElementChecker {
 public:
  virtual ~ElementChecker() = default;
  // `values` holds elements [first_element, first_element + values.size() / components).
  virtual void consume(std::span<const double> values, std::uint64_t first_element) = 0;
  // Elements [first_element, first_element + n) are all zeros and not stored (an
  // accessor without bufferView, between its sparse substitutions). n may be
  // as large as the declared count, so this must take O(1), not O(n): report a
  // defect of the run once, at its first element.
  virtual void consume_zeros(std::uint64_t first_element, std::uint64_t n) = 0;
  // Called once after the last chunk.
  virtual void finish() {}
};

// The checkers attached to each accessor for the data pass.
class DataChecks {
 public:
  // Attaches `checker` to accessor `index` under `key` unless a checker with the
  // same key is already attached (then `checker` is dropped and false returned):
  // one defect is reported once per accessor, not once per user.
  bool attach(std::size_t accessor, std::string key, std::unique_ptr<ElementChecker> checker);
  // True when a checker with this key is attached.
  bool has(std::size_t accessor, std::string_view key) const;
  // In attach order, per accessor.
  std::vector<ElementChecker*> checkers_of(std::size_t accessor) const;
  // Marks accessor `index` as holding data an extension supplies and we do not
  // decode (KHR_draco_mesh_compression): the data pass skips it, neither its
  // generic checks (min/max, NaN) nor its attached checkers run.
  void exempt(std::size_t accessor) { exempt_.insert(accessor); }
  bool is_exempt(std::size_t accessor) const { return exempt_.count(accessor) != 0; }

 private:
  struct Entry {
    std::string key;
    std::unique_ptr<ElementChecker> checker;
  };
  std::map<std::size_t, std::vector<Entry>> by_accessor_;
  std::set<std::size_t> exempt_;
};

class RuleModule;

// What the rules need to know about a sampler interpolation mode, derived from
// its row of the interpolation table (reference/interpolation.hpp): no module
// declares a mode, an extension's mode is known when the extension is used.
struct InterpolationInfo {
  std::uint32_t outputs_per_key = 1;  // output elements per input key (3 for cubic splines)
  std::uint32_t value_index = 0;      // which of them is the keyframe value (1 for splines)
  // Fewer keys: the core ANIMATION_SAMPLER_INPUT_ACCESSOR_TOO_FEW_ELEMENTS. 0 when
  // the schema's count >= 1 is the minimum, or the mode's extension reports its own.
  std::uint64_t min_keys = 1;
  // The table's row; nullptr for a mode it does not know (the defaults above).
  const reference::InterpolationMode* mode = nullptr;
};

// Shared by every module while one asset is validated.
struct RuleContext {
  const gltf::LoadedAsset& asset;
  const gltf_anim::json::Document& doc;  // never null here
  gltf::IssueCollector& issues;
  DataChecks& data;
  // Usage of each accessor set by the rules so far ("animation input", ...);
  // a second, different usage is ACCESSOR_USAGE_OVERRIDE.
  std::map<std::size_t, std::string> accessor_usage;
  // All modules of this run, in link order (for the declarative queries below).
  std::span<const std::unique_ptr<RuleModule>> modules;
  // The animations, linked (built from `asset` before the phases run).
  const gltf::model::AnimationModel& model;

  // The interpolation table's row for this name when it is a core mode, or its
  // extension is in extensionsUsed and that extension's module (RuleModule::name)
  // is in `modules`; else nullopt (then the schema phase reported
  // VALUE_NOT_IN_LIST).
  std::optional<InterpolationInfo> interpolation(std::string_view name) const;
};

// Where the schema phase asks a module about a member: `object` (a JSON
// object of the document), described by the schema file `schema` (its $id,
// one of the k...Schema names below), and the name of its `member` in question.
struct SchemaSite {
  std::string_view schema;
  const gltf_anim::json::Value& object;
  std::string_view member;
};

// The schema files whose objects extension modules are asked about.
inline constexpr std::string_view kChannelSchema = "animation.channel.schema.json";
inline constexpr std::string_view kChannelTargetSchema = "animation.channel.target.schema.json";
inline constexpr std::string_view kSamplerSchema = "animation.sampler.schema.json";

class RuleModule {
 public:
  virtual ~RuleModule() = default;
  virtual std::string_view name() const = 0;
  // Schema phase: the core schema rejected `value`, member `site.member` of
  // `site.object`, as not in its list (VALUE_NOT_IN_LIST); return true when
  // this module defines that value.
  virtual bool accepts_value(const RuleContext& /*ctx*/, const SchemaSite& /*site*/,
                             const gltf_anim::json::Value& /*value*/) const {
    return false;
  }
  // Schema phase: the core schema reported `code` (UNDEFINED_PROPERTY or
  // UNEXPECTED_PROPERTY) for member `site.member` of `site.object`; return
  // true when this module defines that shape (e.g. a KHR_animation2 channel
  // has `targetpointer` instead of `target`).
  virtual bool excuses_member(const RuleContext& /*ctx*/, gltf::IssueCode /*code*/,
                              const SchemaSite& /*site*/) const {
    return false;
  }
  // Link phase, asked by the animation module: the index of a sampler of the
  // same animation that `channel` (the model's) references through this
  // module's extension (it then counts as used), or nullopt.
  virtual std::optional<std::uint64_t> extension_sampler(
      const RuleContext& /*ctx*/, const gltf::model::Channel& /*channel*/) const {
    return std::nullopt;
  }
  // Link phase: references, formats, counts; attaches data checkers.
  virtual void link(RuleContext& ctx) = 0;
};

// The modules, in the order their link() runs. Core modules first.
std::vector<std::unique_ptr<RuleModule>> rule_modules();

// Core modules (also listed by rule_modules()).
std::unique_ptr<RuleModule> make_unique_element_rules();  // extensionsUsed, children, ...
std::unique_ptr<RuleModule> make_accessor_rules();   // min/max lengths
std::unique_ptr<RuleModule> make_animation_rules();  // animations, channels, samplers
std::unique_ptr<RuleModule> make_khr_animation_pointer_rules();  // KHR_animation_pointer
std::unique_ptr<RuleModule> make_scene_graph_rules();            // nodes, scenes, skins
std::unique_ptr<RuleModule> make_mesh_rules();            // primitives' references, morph targets
std::unique_ptr<RuleModule> make_skinned_vertex_rules();  // JOINTS_n / WEIGHTS_n of skinned meshes
std::unique_ptr<RuleModule> make_buffer_view_usage_rules();  // one kind of data a bufferView
// Extension modules and lints (after the core modules in rule_modules()).
std::unique_ptr<RuleModule> make_ext_animation_sqlerp_rules();  // EXT_animation_sqlerp
std::unique_ptr<RuleModule> make_khr_animation2_rules();        // KHR_animation2 (draft)
std::unique_ptr<RuleModule> make_khr_accessor_float_rules();    // KHR_accessor_float64/16 (drafts)
std::unique_ptr<RuleModule> make_khr_draco_mesh_compression_rules();  // accessors Draco supplies
std::unique_ptr<RuleModule> make_lint_rules();                  // LINT_* (beyond the specs)

// Schema phase on its own (used by validate_asset; exposed for tests):
// validates `doc` against the embedded schemas and reports mapped issues.
void check_schema(const gltf_anim::json::Value& doc, const RuleContext& ctx,
                  std::span<const std::unique_ptr<RuleModule>> modules);

// Data phase on its own: the generic accessor checks (NaN/Inf of FLOAT data,
// min/max) plus the attached checkers, accessor by accessor.
void run_data_phase(RuleContext& ctx);

}  // namespace gltf_anim::validator
