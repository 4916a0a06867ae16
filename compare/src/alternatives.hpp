// Inside compare/: a failing case judged against its manifest alternatives.
#pragma once

#include "manifest.hpp"
#include "pairing.hpp"

#include <gltf_anim/compare/compare.hpp>

namespace gltf_anim::compare::detail {

// A failing case against its manifest alternatives: a variant the actual
// samples match makes it pass; every alternative is tried on each failing
// channel; a case whose failing channels each match a variant passes as those.
void judge_alternatives(CaseResult& c, const Loaded& g, const Loaded& a, const ManifestFiles& files,
                        const Tolerances& tol, const CompareOptions& options);

}  // namespace gltf_anim::compare::detail
