#include "cli_common.hpp"

#include <gltf_anim/text/words.hpp>

#include <charconv>
#include <cmath>
#include <iostream>
#include <new>
#include <sstream>

namespace gltf_anim::cli {

namespace {

// Whether the option written `name` (after its dashes; a long name may be
// abbreviated, as Boost allows) takes the next word as its value.
bool takes_next_word(const po::options_description& options, const std::string& name,
                     bool is_short) {
  const po::option_description* d =
      is_short ? options.find_nothrow("-" + name, false, false, false)
               : options.find_nothrow(name, /*approx=*/true, false, false);
  if (d == nullptr) return false;  // Boost names the unknown option
  // An option whose value is optional (an implicit value) takes none from the next word.
  return d->semantic()->min_tokens() > 0;
}

// The words of `args` that are positional (after "--", "-", or no dash), in
// order, and the others for Boost, one option (its word, and its value's when
// that is the next word) at a time. Boost.Program_options would find them
// itself, but its parser erases each word from the front of its list, a
// quadratic pass (100,000 paths took 25 s, 20,000 `--ignore` 6 s); this one is
// linear, and Boost still parses every option.
void split_positional(const po::options_description& options, const std::vector<std::string>& args,
                      std::vector<std::vector<std::string>>& option_words,
                      std::vector<std::string>& positional) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") {
      positional.insert(positional.end(), args.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                        args.end());
      return;
    }
    if (a.size() < 2 || a[0] != '-') {
      positional.push_back(a);
      continue;
    }
    option_words.push_back({a});
    const bool is_long = a[1] == '-';
    // "--name=value" and "-xVALUE" carry their value; "--name" and "-x" may take the next word.
    const bool bare = is_long ? a.find('=') == std::string::npos : a.size() == 2;
    if (bare && i + 1 < args.size() &&
        takes_next_word(options, a.substr(is_long ? 2 : 1), !is_long)) {
      option_words.back().push_back(args[++i]);
    }
  }
}

}  // namespace

std::optional<po::variables_map> parse_command_line(
    const CommandHelp& help, po::options_description options,
    const po::positional_options_description& positional,
    const std::vector<std::string>& args, int& exit_code) {
  options.add_options()("help,h", "show this help and exit");
  po::variables_map vm;
  try {
    std::vector<std::vector<std::string>> option_words;
    std::vector<std::string> words;
    split_positional(options, args, option_words, words);
    // The options with Boost, one at a time (no positional words left for it
    // to find), then the positional words stored as Boost would, one option
    // per run of positions of the same name.
    po::parsed_options parsed(&options);
    for (const std::vector<std::string>& one : option_words) {
      po::parsed_options o = po::command_line_parser(one).options(options).run();
      for (po::option& opt : o.options) parsed.options.push_back(std::move(opt));
    }
    if (words.size() > positional.max_total_count()) {
      throw po::too_many_positional_options_error();
    }
    for (std::size_t i = 0; i < words.size();) {
      const std::string& name = positional.name_for_position(static_cast<unsigned>(i));
      po::option o(name, {});
      for (; i < words.size() && positional.name_for_position(static_cast<unsigned>(i)) == name;
           ++i) {
        o.value.push_back(std::move(words[i]));
      }
      o.original_tokens = {o.value.front()};
      parsed.options.push_back(std::move(o));
    }
    po::store(parsed, vm);
    if (vm.count("help")) {
      std::cout << "Usage: " << help.usage << "\n\n"
                << help.summary << "\n\n"
                << options << "\nExample:\n  " << help.example << "\n";
      exit_code = kExitOk;
      return std::nullopt;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "gltf-anim " << help.name << ": " << e.what() << "\n"
              << "Try 'gltf-anim " << help.name << " --help'.\n";
    exit_code = kExitUsage;
    return std::nullopt;
  }
  return vm;
}

namespace {

bool range_error(const CommandHelp& help, const char* name, const std::string& range,
                 const std::string& value) {
  std::cerr << "gltf-anim " << help.name << ": --" << name << " must be " << range << ", got '"
            << value << "'\n"
            << "Try 'gltf-anim " << help.name << " --help'.\n";
  return false;
}

template <typename T>
std::string text(T v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

}  // namespace

bool integer_option(const po::variables_map& vm, const CommandHelp& help, const char* name,
                    std::uint64_t min, std::uint64_t max, std::optional<std::uint64_t>& out) {
  out.reset();
  if (!vm.count(name)) return true;
  const std::string value = vm[name].as<std::string>();
  std::uint64_t v = 0;
  const char* end = value.data() + value.size();
  // Digits only: from_chars takes no '+', and a '-' is refused here, not wrapped.
  const auto [stop, ec] = std::from_chars(value.data(), end, v);
  if (value.empty() || value[0] == '-' || ec != std::errc() || stop != end || v < min || v > max) {
    return range_error(help, name, "an integer from " + text(min) + " to " + text(max), value);
  }
  out = v;
  return true;
}

bool number_option(const po::variables_map& vm, const CommandHelp& help, const char* name,
                   double min, double max, bool min_exclusive, std::optional<double>& out) {
  out.reset();
  if (!vm.count(name)) return true;
  const std::string value = vm[name].as<std::string>();
  double v = 0.0;
  const char* end = value.data() + value.size();
  const auto [stop, ec] = std::from_chars(value.data(), end, v, std::chars_format::general);
  const bool below = min_exclusive ? !(v > min) : !(v >= min);
  if (value.empty() || ec != std::errc() || stop != end || !std::isfinite(v) || below || v > max) {
    return range_error(help, name,
                       std::string("a number ") + (min_exclusive ? "above " : "from ") + text(min) +
                           (min_exclusive ? " up to " : " to ") + text(max),
                       value);
  }
  out = v;
  return true;
}

// ---------------------------------------------------------------- CommandOutput

CommandOutput::CommandOutput(const CommandHelp& help, std::optional<std::string> path)
    : help_(help),
      path_(std::move(path)),
      inputs_(path_ ? io::file_identity(*path_) : std::nullopt) {}

bool CommandOutput::refused(const std::vector<std::string>& paths) {
  for (const std::string& p : paths) inputs_.record(std::filesystem::path(p));
  const auto clash = inputs_.clash();
  if (!clash) return false;
  std::cerr << "gltf-anim " << help_.name << ": refusing to write '" << *path_
            << "': it is the input '" << *clash << "' (same file); nothing written\n";
  return true;
}

bool CommandOutput::open() {
  if (!path_) {
    stdout_.emplace(STDOUT_FILENO);
    return true;
  }
  try {
    file_.emplace(*path_);
  } catch (const io::OutputError& e) {
    std::cerr << "gltf-anim " << help_.name << ": " << e.what() << "\n";
    return false;
  }
  return true;
}

std::filesystem::path CommandOutput::folder() const {
  if (!path_) return {};
  const std::filesystem::path parent = std::filesystem::path(*path_).parent_path();
  return parent.empty() ? std::filesystem::path(".") : parent;
}

std::ostream& CommandOutput::stream() {
  if (file_) return file_->stream();
  if (!stdout_) stdout_.emplace(STDOUT_FILENO);
  return *stdout_;
}

int CommandOutput::finish(int exit_code) {
  if (discarded_) return kExitUsage;  // the command said why
  if (refused()) {
    discard();
    return kExitUsage;
  }
  if (file_) {
    try {
      file_->commit();
    } catch (const io::OutputError& e) {
      std::cerr << "gltf-anim " << help_.name << ": " << e.what() << "\n";
      return kExitUsage;
    }
    return exit_code;
  }
  if (stdout_) {
    if (const int e = stdout_->finish(); e != 0) {
      std::cerr << "gltf-anim " << help_.name << ": cannot write standard output: "
                << text::errno_text(e) << "\n";
      return kExitUsage;
    }
  }
  return exit_code;
}

void CommandOutput::discard() {
  discarded_ = true;
  if (file_) file_->discard();
  if (stdout_) stdout_->setstate(std::ios::badbit);
}

std::string failure_reason(const std::exception& e) {
  if (dynamic_cast<const std::bad_alloc*>(&e) != nullptr) {
    return "out of memory (the run needs more memory than this process may allocate)";
  }
  return e.what();
}

}  // namespace gltf_anim::cli
