#pragma once
// Alternatives that can apply to any case (generator-internal): for each, the
// cases with a channel it moves by more than the case's tolerance list it,
// complete, as a variant (allowed by the specs) or a known divergence.
#include <gltf_anim/sampler/sample.hpp>
#include <gltf_anim/suite/suite.hpp>
#include <gltf_anim/suite/tolerance.hpp>

#include <vector>

namespace gltf_anim::suite {

// c.variants plus the suite-wide alternatives that matter for this case (by
// name, a case's own alternative of the same name takes precedence).
std::vector<Variant> case_alternatives(const Case& c, const std::vector<sampler::DecodedChannel>& channels,
                                       const samples::SamplesFile& golden, const CaseTolerances& tolerances);

}  // namespace gltf_anim::suite
