#pragma once
// Runs `gltf-anim` (or any program) as a child process without a shell:
// stdout and stderr to files (or stdout to a given path such as /dev/full),
// stdin from a file; measures its wall time, CPU time and peak memory (wait4);
// optional limits (RLIMIT_FSIZE for write failures; RLIMIT_AS for memory
// bounds; RLIMIT_CPU always, so a wrapped "-1" that loops forever ends as a
// signal, not a hung test; a wall-clock kill for a child that blocks without
// burning CPU), and optionally as user nobody (an unreadable folder stays
// unreadable when the tests run as root). Used by tests/cli and tests/hostile.
#include <fcntl.h>
#include <grp.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace cli_process {

namespace fs = std::filesystem;

struct Options {
  std::optional<fs::path> stdout_path;  // default: a scratch file, read back into Run::out
  std::optional<fs::path> stdin_path;   // default: /dev/null
  rlim_t file_size_limit = RLIM_INFINITY;
  rlim_t cpu_seconds = 60;
  rlim_t address_space = RLIM_INFINITY;  // RLIMIT_AS (leave it infinite under ASan)
  std::chrono::seconds kill_after{0};   // SIGKILL after this much wall time; 0: never
  bool as_nobody = false;  // drop to uid/gid 65534 when running as root
  bool stdout_closed_pipe = false;  // stdout a pipe whose reader is already gone
  std::optional<fs::path> cwd;      // the child's current folder (default: the test's)
};

struct Run {
  bool exited = false;
  int exit_code = -1;
  int signal = 0;
  bool killed = false;  // by kill_after
  double seconds = 0;      // wall
  double cpu_seconds = 0;  // user + system (wait4's rusage)
  long max_rss_kib = 0;
  std::string out;
  std::string err;
};

inline std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs the program argv[0] (a path; no shell, no PATH search) with argv;
// `scratch` holds the stdout/stderr files.
inline Run run_program(std::vector<std::string> argv, const fs::path& scratch, const Options& o = {}) {
  fs::create_directories(scratch);
  static int calls = 0;
  const std::string tag = "run" + std::to_string(::getpid()) + "_" + std::to_string(calls++);
  const fs::path out = o.stdout_path.value_or(scratch / (tag + ".out"));
  const fs::path err = scratch / (tag + ".err");
  // A child run as nobody cannot read a UBSan suppressions file under a folder only root may
  // enter (a checkout in /root): the sanitizer runtime would stop it before main. Its
  // environment, built before the fork, names none (the suppressions are for RapidJSON's
  // headers, which the paths run this way do not reach; every check still halts).
  std::vector<std::string> env;
  if (o.as_nobody) {
    for (char** e = environ; *e != nullptr; ++e) {
      std::string v = *e;
      if (v.rfind("UBSAN_OPTIONS=", 0) == 0) {
        std::string kept = "UBSAN_OPTIONS=";
        std::stringstream parts(v.substr(14));
        for (std::string part; std::getline(parts, part, ':');) {
          if (!part.empty() && part.rfind("suppressions=", 0) != 0) kept += part + ":";
        }
        v = kept;
      }
      env.push_back(std::move(v));
    }
  }
  std::vector<char*> envp;
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int fo = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int fe = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int fi = ::open(o.stdin_path ? o.stdin_path->c_str() : "/dev/null", O_RDONLY);
    if (fo < 0 || fe < 0 || fi < 0) _exit(125);
    ::dup2(fo, 1);
    ::dup2(fe, 2);
    if (o.stdout_closed_pipe) {
      int p[2];
      if (::pipe(p) != 0) _exit(123);
      ::close(p[0]);
      ::dup2(p[1], 1);
    }
    ::dup2(fi, 0);
    if (o.cwd && ::chdir(o.cwd->c_str()) != 0) _exit(122);
    const rlimit cpu{o.cpu_seconds, o.cpu_seconds};
    const rlimit fsize{o.file_size_limit, o.file_size_limit};
    const rlimit as{o.address_space, o.address_space};
    if (::setrlimit(RLIMIT_CPU, &cpu) != 0 || ::setrlimit(RLIMIT_FSIZE, &fsize) != 0 ||
        ::setrlimit(RLIMIT_AS, &as) != 0) {
      _exit(126);
    }
    if (o.as_nobody && ::geteuid() == 0) {
      if (::setgroups(0, nullptr) != 0 || ::setgid(65534) != 0 || ::setuid(65534) != 0) _exit(124);
    }
    std::vector<char*> cargs;
    for (auto& a : argv) cargs.push_back(a.data());
    cargs.push_back(nullptr);
    if (o.as_nobody) {
      ::execve(cargs[0], cargs.data(), envp.data());
    } else {
      ::execv(cargs[0], cargs.data());
    }
    _exit(127);
  }
  Run r;
  if (pid < 0) return r;
  int status = 0;
  rusage usage{};
  if (o.kill_after.count() == 0) {
    ::wait4(pid, &status, 0, &usage);
  } else {
    while (::wait4(pid, &status, WNOHANG, &usage) != pid) {
      if (std::chrono::steady_clock::now() - start > o.kill_after) {
        ::kill(pid, SIGKILL);
        ::wait4(pid, &status, 0, &usage);
        r.killed = true;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.max_rss_kib = usage.ru_maxrss;
  r.cpu_seconds = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                  static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
  r.exited = WIFEXITED(status) && !r.killed;
  if (r.exited) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  if (!o.stdout_path) r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

// A folder user nobody can reach, holding a copy of the executable: a checkout (and
// so its build) may sit where nobody cannot go (root's home is mode 0700), and then a
// child dropped to nobody could neither start the CLI (execv fails: exit 127) nor reach
// the test's files. Made under the temporary folder (TMPDIR) or else /tmp, the first
// that every user can traverse; removed at the end. ok() false with why() when neither is.
class NobodyArea {
 public:
  explicit NobodyArea(const fs::path& executable = GLTF_ANIM_CLI) {
    std::error_code ec;
    // The first base every user can traverse; the root folder is the last
    // resort, so that a test that needs one always gets one (the tests that
    // run as nobody run as root, which can write there).
    std::vector<fs::path> bases{fs::temp_directory_path(ec), "/tmp", "/var/tmp", "/dev/shm", "/"};
    for (const fs::path& base : bases) {
      if (base.empty() || !traversable_by_all(base)) continue;
      std::string pattern = (base / "gltf-anim-nobody-XXXXXX").string();
      if (::mkdtemp(pattern.data()) == nullptr) continue;
      dir_ = pattern;
      break;
    }
    if (dir_.empty()) {
      why_ =
          "no folder that user nobody can reach could be made (TMPDIR, /tmp, /var/tmp, /dev/shm "
          "and / are not traversable by all, or not writable)";
      return;
    }
    fs::permissions(dir_,
                    fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                        fs::perms::others_read | fs::perms::others_exec,
                    ec);
    fs::copy_file(executable, cli(), ec);
    if (!ec)
      fs::permissions(cli(),
                      fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                          fs::perms::others_read | fs::perms::others_exec,
                      ec);
    if (ec)
      why_ = "cannot copy " + executable.string() + " into " + dir_.string() + ": " + ec.message();
  }
  NobodyArea(const NobodyArea&) = delete;
  NobodyArea& operator=(const NobodyArea&) = delete;
  ~NobodyArea() {
    std::error_code ec;
    if (dir_.empty()) return;
    // A test may leave folders without permissions inside: give them back first.
    for (auto it = fs::recursive_directory_iterator(dir_, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (it->is_directory(ec))
        fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, ec);
    }
    fs::remove_all(dir_, ec);
  }
  bool ok() const { return why_.empty(); }
  const std::string& why() const { return why_; }
  const fs::path& dir() const { return dir_; }
  fs::path cli() const { return dir_ / "gltf-anim"; }

  // Every folder from the root down to `p` lets others search it (o+x).
  static bool traversable_by_all(const fs::path& p) {
    std::error_code ec;
    const fs::path abs = fs::absolute(p, ec);
    if (ec) return false;
    fs::path at = abs.root_path();
    for (const fs::path& part : abs.relative_path()) {
      at /= part;
      struct stat st {};
      if (::stat(at.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || (st.st_mode & S_IXOTH) == 0)
        return false;
    }
    return true;
  }

 private:
  fs::path dir_;
  std::string why_;
};

// Runs GLTF_ANIM_CLI with `args`.
inline Run run(const std::vector<std::string>& args, const fs::path& scratch, const Options& o = {}) {
  std::vector<std::string> argv{GLTF_ANIM_CLI};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_program(std::move(argv), scratch, o);
}

// Every regular file and link beneath `dir` with its bytes (links: "-> target"),
// to show that a run changed nothing (no input touched, no temporary left).
inline std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    const std::string rel = fs::relative(e.path(), dir).generic_string();
    if (e.is_symlink()) out[rel] = "-> " + fs::read_symlink(e.path()).string();
    else if (e.is_regular_file()) out[rel] = slurp(e.path());
  }
  return out;
}

}  // namespace cli_process
