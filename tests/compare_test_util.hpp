#pragma once
// Helpers of the compare tests (tests/compare, tests/reports): scratch
// folders, writing samples files and manifests, finding a case by id.
#include "scratch.hpp"
#include <gltf_anim/compare/compare.hpp>
#include <gltf_anim/samples/samples.hpp>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace compare_test {

// An empty folder group/name in the process's scratch folder (scratch.hpp).
inline std::filesystem::path fresh_dir(const std::string& group, const std::string& name) {
  const std::filesystem::path dir = gltf_anim_test::scratch_root() / group / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

inline void write(const std::filesystem::path& p, const std::string& text) {
  std::filesystem::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

inline void save(const std::filesystem::path& p, const gltf_anim::samples::SamplesFile& f) {
  std::filesystem::create_directories(p.parent_path());
  gltf_anim::samples::write_samples_file(p, f);
}

// A file of `asset` with one rotation channel of node 0, measured by angle (as
// `gltf-anim sample` writes a quaternion's channel), sampled at each (t, q).
inline gltf_anim::samples::SamplesFile rotation_samples(
    const std::string& asset, const std::vector<std::pair<double, std::vector<double>>>& samples) {
  gltf_anim::samples::SamplesFile f;
  f.asset = asset;
  auto& c = f.animations.emplace_back().channels.emplace_back();
  c.target = "/nodes/0/rotation";
  c.measure = gltf_anim::samples::Measure::kAngle;
  for (const auto& [t, q] : samples) c.add_sample(t, q);
  return f;
}

inline const gltf_anim::compare::CaseResult& find_case(const gltf_anim::compare::CompareReport& r,
                                                       const std::string& id) {
  for (const auto& c : r.cases) {
    if (c.id == id) return c;
  }
  throw std::runtime_error("no case " + id);
}

}  // namespace compare_test
