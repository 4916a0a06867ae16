#pragma once
// Every subcommand: `int run_<name>(const std::vector<std::string>& args)`,
// where args are the words after the subcommand's name. Each lives in
// cmd_<name>.cpp and is listed once in the table of main.cpp.
#include <string>
#include <vector>

namespace gltf_anim::cli {

int run_codes(const std::vector<std::string>& args);
int run_compare(const std::vector<std::string>& args);
int run_fit(const std::vector<std::string>& args);
int run_fix(const std::vector<std::string>& args);
int run_generate(const std::vector<std::string>& args);
int run_merge(const std::vector<std::string>& args);
int run_migrate(const std::vector<std::string>& args);
int run_reduce(const std::vector<std::string>& args);
int run_sample(const std::vector<std::string>& args);
int run_squad_report(const std::vector<std::string>& args);
int run_validate(const std::vector<std::string>& args);

}  // namespace gltf_anim::cli
