// glTF-Validator's own test corpus (../shared/khronos-validator-tests: every
// X.gltf / X.glb with its expected report X.gltf.report.json), when present:
//   (a) no file its expected report finds error-free gets an error from us;
//   (b) every file under base/data/{skin,skin_data,node,mesh,mesh_data,scene,
//       accessor_data} its report finds an error in gets one from us too.
// The expected reports are glTF-Validator's, not our output. Differences are
// listed below, each with its reason (docs/VALIDATOR.md, "Differences from
// glTF-Validator"); an entry that no longer differs fails, so the list stays
// true. One documented difference is counted as such, not listed: the data
// of an accessor without bufferView (nor sparse, nor extension) is checked
// as the zeros it holds (glTF-Validator skips it), so an error at that
// accessor, or at a sampler input/output naming it, is not a false error
// (counted as ../shared/hooks/before-stop counts it).
#include <gltf_anim/gltf/json.hpp>
#include <gltf_anim/gltf/json_access.hpp>
#include <gltf_anim/gltf/load.hpp>
#include <gltf_anim/validator/validate.hpp>

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "optional_data.hpp"

namespace {

namespace fs = std::filesystem;
using gltf_anim::gltf::json_access::array_member;
using gltf_anim::gltf::json_access::as_uint;
using gltf_anim::gltf::json_access::has;
using gltf_anim::gltf::json_access::index_member;
using gltf_anim::gltf::json_access::member;
using gltf_anim::gltf::json_access::object_at;

const fs::path kTests =
    fs::path(GLTF_ANIM_SOURCE_DIR) / ".." / "shared" / "khronos-validator-tests";

// Folders of base/data/ where every error glTF-Validator finds must be found.
const std::set<std::string> kMustFind = {"skin",      "skin_data", "node",         "mesh",
                                         "mesh_data", "scene",     "accessor_data"};

struct Difference {
  const char* file;  // relative to the corpus
  const char* why;   // what docs/VALIDATOR.md says
};
// (a): error-free for glTF-Validator, an error for us. (Vectors, so that a
// list may become empty.)
const std::vector<Difference> kOurErrors = {};
// (b): an error for glTF-Validator, none for us.
const std::vector<Difference> kTheirErrors = {
    {"base/data/mesh/position_accessor_no_bounds.gltf",
     "MESH_PRIMITIVE_POSITION_ACCESSOR_WITHOUT_BOUNDS: a rendering rule (bounding boxes)"},
};

std::string read_report_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The accessor an issue's pointer is about, when it names one directly
// (/accessors/i/...) or through a sampler's input/output.
const gltf_anim::json::Value* accessor_of(const gltf_anim::json::Value& doc,
                                          const std::string& pointer) {
  std::vector<std::string> t;
  for (std::size_t at = 1; at <= pointer.size() && !pointer.empty();) {
    const std::size_t end = std::min(pointer.find('/', at), pointer.size());
    t.push_back(pointer.substr(at, end - at));
    at = end + 1;
  }
  const auto number = [](const std::string& s) -> std::uint64_t {
    return s.empty() || s.find_first_not_of("0123456789") != std::string::npos ? ~0ull
                                                                               : std::stoull(s);
  };
  const gltf_anim::json::Value* accessors = array_member(doc, "accessors");
  std::optional<std::uint64_t> index;
  if (t.size() >= 2 && t[0] == "accessors") {
    index = number(t[1]);
  } else if (t.size() == 5 && t[0] == "animations" && t[2] == "samplers" &&
             (t[4] == "input" || t[4] == "output")) {
    const auto* a = object_at(array_member(doc, "animations"), number(t[1]));
    const auto* s = a != nullptr ? object_at(array_member(*a, "samplers"), number(t[3])) : nullptr;
    if (s != nullptr) index = index_member(*s, t[4]);
  }
  return index ? object_at(accessors, *index) : nullptr;
}

bool zeros_difference(const gltf_anim::json::Value* doc, const gltf_anim::gltf::Issue& issue) {
  if (doc == nullptr) return false;
  const gltf_anim::json::Value* a = accessor_of(*doc, issue.pointer);
  return a != nullptr && !has(*a, "bufferView") && !has(*a, "sparse") && !has(*a, "extensions");
}

void NoFalseErrorsAndNoMissedErrors() {
  std::map<std::string, std::string> ours_only;    // file -> our error codes
  std::map<std::string, std::string> theirs_only;  // file -> their error codes
  std::size_t files = 0;
  for (const auto& e : fs::recursive_directory_iterator(kTests)) {
    const fs::path& p = e.path();
    if (p.extension() != ".gltf" && p.extension() != ".glb") continue;
    const fs::path expected_path = p.string() + ".report.json";
    if (!fs::exists(expected_path)) continue;
    ++files;
    const std::string rel = fs::relative(p, kTests).generic_string();
    gltf_anim::json::Document expected;
    const std::string text = read_report_text(expected_path);
    expected.Parse(text.data(), text.size());
    ASSERT_FALSE(expected.HasParseError()) << rel;
    std::set<std::string> their_errors;
    for (const auto& m : expected["issues"]["messages"].GetArray()) {
      if (m["severity"].GetInt() == 0) their_errors.insert(m["code"].GetString());
    }
    const gltf_anim::validator::ValidationReport report =
        gltf_anim::validator::validate_file(p, gltf_anim::validator::ValidateOptions{});
    gltf_anim::gltf::IssueCollector load_issues;
    const gltf_anim::gltf::LoadedAsset asset = gltf_anim::gltf::load_file(p, {}, load_issues);
    std::set<std::string> our_errors;
    bool any_error = false;
    for (const auto& i : report.issues) {
      if (i.severity != gltf_anim::gltf::Severity::kError) continue;
      any_error = true;
      if (!zeros_difference(asset.document.get(), i)) our_errors.insert(std::string(i.code));
    }
    const auto join = [](const std::set<std::string>& s) {
      std::string out;
      for (const auto& c : s) out += (out.empty() ? "" : ",") + c;
      return out;
    };
    if (their_errors.empty() && !our_errors.empty()) ours_only[rel] = join(our_errors);
    const auto parts = fs::path(rel);
    auto it = parts.begin();
    const std::string top = it != parts.end() ? (it++)->string() : "";
    const std::string data = it != parts.end() ? (it++)->string() : "";
    const std::string folder = it != parts.end() ? it->string() : "";
    if (top == "base" && data == "data" && kMustFind.count(folder) != 0 && !their_errors.empty() &&
        !any_error) {
      theirs_only[rel] = join(their_errors);
    }
  }
  EXPECT_GE(files, 300u) << "the corpus holds 372 files with reports";
  for (const auto& [list, found, what] :
       {std::tuple{std::span<const Difference>(kOurErrors), &ours_only,
                   "error-free for glTF-Validator, we report"},
        std::tuple{std::span<const Difference>(kTheirErrors), &theirs_only,
                   "glTF-Validator finds an error, we find none:"}}) {
    std::set<std::string> allowed;
    for (const Difference& d : list) {
      allowed.insert(d.file);
      EXPECT_EQ(found->count(d.file), 1u)
          << d.file << " is listed as a difference (" << d.why << ") but no longer differs";
    }
    for (const auto& [file, codes] : *found) {
      EXPECT_EQ(allowed.count(file), 1u) << file << ": " << what << " " << codes;
    }
  }
}

[[maybe_unused]] const bool kKhronosTests =
    gltf_anim::test::register_if_exists("KhronosValidatorTests", "NoFalseErrorsAndNoMissedErrors",
                                        kTests, NoFalseErrorsAndNoMissedErrors, __FILE__, __LINE__);

}  // namespace
