// The two resource readers: a folder on disk (confined) and names in memory.
#include <gltf_anim/io/resource_reader.hpp>

#include <gltf_anim/text/words.hpp>

#include <algorithm>
#include <cerrno>
#include <system_error>

namespace gltf_anim::io {

namespace fs = std::filesystem;

namespace {

// Canonical form of a folder, without a trailing empty component.
fs::path canonical_dir(const fs::path& p) {
  std::error_code ec;
  fs::path c = fs::weakly_canonical(p.empty() ? fs::path(".") : p, ec);
  if (ec) c = fs::absolute(p, ec).lexically_normal();
  if (c.has_filename() == false && c.has_parent_path() && c != c.root_path()) c = c.parent_path();
  return c;
}

// Component-wise prefix test ("/a/b" is not inside "/a/bc").
bool is_inside(const fs::path& path, const fs::path& root) {
  auto p = path.begin();
  for (auto r = root.begin(); r != root.end(); ++r, ++p) {
    if (r->empty()) continue;  // trailing separator of the root
    if (p == path.end() || *p != *r) return false;
  }
  return true;
}

ReadResult refusal(ReadResult::Failure failure, std::string detail) {
  ReadResult r;
  r.failure = failure;
  r.detail = std::move(detail);
  return r;
}

}  // namespace

FolderReader::FolderReader(fs::path base, fs::path root, InputFiles* inputs)
    : base_(base.empty() ? fs::path(".") : std::move(base)),
      root_(root.empty() ? base_ : std::move(root)),
      inputs_(inputs) {}

ReadResult FolderReader::read(const fs::path& relative, std::uint64_t max_bytes) const {
  const fs::path root = canonical_dir(root_);
  std::error_code ec;
  // weakly_canonical resolves every symlink of the existing part, so a link
  // pointing out of the root is caught by the prefix test below, with a verdict
  // that names the problem; the open itself is confined to the root by the
  // kernel, so a folder or link swapped in between the two cannot lead outside.
  const fs::path target = fs::weakly_canonical(fs::absolute(base_, ec) / relative, ec);
  if (ec) {
    // A name the system cannot resolve (ENAMETOOLONG, ELOOP, EACCES on a
    // folder...) is an I/O failure with its reason, not a confinement verdict.
    return refusal(ReadResult::Failure::kOpen, ec.message());
  }
  if (!is_inside(target, root)) return refusal(ReadResult::Failure::kOutsideRoot, root.string());
  ReadResult r = read_file_beneath(root, target.lexically_relative(root), max_bytes);
  if (r.failure == ReadResult::Failure::kOutsideRoot) r.detail = root.string();
  if (r.failure == ReadResult::Failure::kNone && inputs_ != nullptr && r.identity) {
    inputs_->record(*r.identity, target.string());
  }
  return r;
}

void MemoryReader::add(const std::string& name, std::vector<std::uint8_t> bytes) {
  files_[fs::path(name).lexically_normal().generic_string()] =
      std::make_shared<const std::vector<std::uint8_t>>(std::move(bytes));
}

ReadResult MemoryReader::read(const fs::path& relative, std::uint64_t max_bytes) const {
  const fs::path name = relative.lexically_normal();
  if (relative.empty() || name.has_root_name() || name.has_root_directory() ||
      (!name.empty() && *name.begin() == "..")) {
    return refusal(ReadResult::Failure::kOutsideRoot, where());
  }
  const auto it = files_.find(name.generic_string());
  if (it == files_.end()) return refusal(ReadResult::Failure::kOpen, text::errno_text(ENOENT));
  ReadResult r;
  r.size = it->second->size();
  if (r.size > max_bytes) {
    r.failure = ReadResult::Failure::kTooLarge;
    return r;
  }
  r.storage = ByteStorage::from_shared(it->second);
  return r;
}

bool is_relative_without_dotdot(const fs::path& relative) {
  if (relative.empty() || relative.is_absolute() || relative.has_root_name() ||
      relative.has_root_directory()) {
    return false;
  }
  return std::none_of(relative.begin(), relative.end(),
                      [](const fs::path& part) { return part == ".."; });
}

std::optional<std::string> read_file_confined(const ResourceReader& reader,
                                              const fs::path& relative, std::uint64_t max_bytes,
                                              std::string& why) {
  if (!is_relative_without_dotdot(relative)) {
    why = "not a relative path inside " + reader.where() + " (absolute, empty or with \"..\")";
    return std::nullopt;
  }
  const ReadResult r = reader.read(relative, max_bytes);
  switch (r.failure) {
    case ReadResult::Failure::kNone: {
      const auto bytes = r.storage->bytes();
      return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    }
    case ReadResult::Failure::kOutsideRoot: why = "resolves outside " + reader.where(); break;
    case ReadResult::Failure::kTooLarge:
      why = "file is " + std::to_string(r.size) + " bytes, more than the limit of " +
            std::to_string(max_bytes);
      break;
    default: why = "cannot read: " + r.detail; break;
  }
  return std::nullopt;
}

}  // namespace gltf_anim::io
