#include <gltf_anim/io/file_queries.hpp>

namespace gltf_anim::io {

namespace fs = std::filesystem;

namespace {

FileType type_of(const fs::file_status& st) {
  switch (st.type()) {
    case fs::file_type::none: return FileType::kUnknown;
    case fs::file_type::not_found: return FileType::kNotFound;
    case fs::file_type::regular: return FileType::kRegular;
    case fs::file_type::directory: return FileType::kFolder;
    case fs::file_type::symlink: return FileType::kSymlink;
    default: return FileType::kOther;
  }
}

}  // namespace

FileType file_type_of(const fs::path& path, std::error_code& ec) {
  return type_of(fs::status(path, ec));
}

FileType link_type_of(const fs::path& path, std::error_code& ec) {
  return type_of(fs::symlink_status(path, ec));
}

bool name_exists(const fs::path& path) {
  std::error_code ec;
  return fs::exists(fs::symlink_status(path, ec));
}

bool is_folder(const fs::path& path) {
  std::error_code ec;
  return fs::is_directory(path, ec);
}

fs::path absolute_path(const fs::path& path, std::error_code& ec) { return fs::absolute(path, ec); }

fs::path absolute_path(const fs::path& path) { return fs::absolute(path); }

fs::path canonical_path(const fs::path& path, std::error_code& ec) { return fs::canonical(path, ec); }

fs::path weakly_canonical_path(const fs::path& path, std::error_code& ec) {
  return fs::weakly_canonical(path, ec);
}

fs::path weakly_canonical_path(const fs::path& path) { return fs::weakly_canonical(path); }

fs::path relative_path(const fs::path& path, const fs::path& base, std::error_code& ec) {
  return fs::relative(path, base, ec);
}

bool remove_file(const fs::path& path) {
  std::error_code ec;
  return fs::remove(path, ec);
}

TreeListing list_tree(const fs::path& folder, bool follow_links, bool skip_unreadable) {
  TreeListing out;
  std::error_code& ec = out.error;
  const auto options =
      skip_unreadable ? fs::directory_options::skip_permission_denied : fs::directory_options::none;
  for (fs::recursive_directory_iterator it(folder, options, ec), end; !ec && it != end;
       it.increment(ec)) {
    // The entry's own type comes with the listing (d_type); following a link costs a stat.
    const fs::file_status st = follow_links ? it->status(ec) : it->symlink_status(ec);
    if (ec) break;
    out.entries.push_back({it->path(), type_of(st)});
  }
  return out;
}

}  // namespace gltf_anim::io
