#pragma once
// What a name on disk is, and the folders' listings: the questions the libraries
// ask of the file system besides reading (resource_reader.hpp, regular_file.hpp)
// and writing (output_file.hpp). Behind io/ like every other file call, so that
// the libraries compile to WebAssembly and a program can stand in for the disk.
// Each answers as the std::filesystem call it names does, error codes included:
// the callers' messages and decisions are those of that call.
#include <filesystem>
#include <system_error>
#include <vector>

namespace gltf_anim::io {

// What a name is. kUnknown: it cannot be learnt (no permission to look, say); kOther: a
// FIFO, socket, device, or a type the system does not say.
enum class FileType { kUnknown, kNotFound, kRegular, kFolder, kSymlink, kOther };

// The type of what `path` names, following symbolic links (std::filesystem::status):
// kNotFound (with `ec` set) when absent, kUnknown (with `ec` set) when it cannot be learnt.
FileType file_type_of(const std::filesystem::path& path, std::error_code& ec);
// The type of the name itself, a symbolic link not followed (std::filesystem::symlink_status).
FileType link_type_of(const std::filesystem::path& path, std::error_code& ec);
// The name exists, a dangling symbolic link included.
bool name_exists(const std::filesystem::path& path);
// `path` names a folder (following symbolic links); false when it cannot be known.
bool is_folder(const std::filesystem::path& path);

// `path` against the current folder (std::filesystem::absolute).
std::filesystem::path absolute_path(const std::filesystem::path& path, std::error_code& ec);
std::filesystem::path absolute_path(const std::filesystem::path& path);  // throws on failure
// Every link and dot resolved; the name must exist (std::filesystem::canonical).
std::filesystem::path canonical_path(const std::filesystem::path& path, std::error_code& ec);
// As canonical_path for the part that exists, the rest appended lexically
// (std::filesystem::weakly_canonical).
std::filesystem::path weakly_canonical_path(const std::filesystem::path& path, std::error_code& ec);
std::filesystem::path weakly_canonical_path(const std::filesystem::path& path);  // throws on failure
// `path` relative to `base`, both resolved on disk first (std::filesystem::relative).
std::filesystem::path relative_path(const std::filesystem::path& path,
                                    const std::filesystem::path& base, std::error_code& ec);

// Removes the file `path` names (not a folder with files in it); false when it could not.
bool remove_file(const std::filesystem::path& path);

// One name found beneath a folder, with its type: of what a symbolic link points to
// when the listing follows links, else of the name itself.
struct TreeEntry {
  std::filesystem::path path;
  FileType type = FileType::kUnknown;
};
struct TreeListing {
  std::vector<TreeEntry> entries;  // in the order the system lists them
  std::error_code error;           // set when the listing stopped early
};
// Everything beneath `folder`, its subfolders included (a symbolic link to a folder is
// listed, not entered). Stops at the first failure, to list a folder or to learn an
// entry's type, with it in `error` and the entries listed so far. With
// skip_unreadable, a folder that may not be opened is left out instead.
TreeListing list_tree(const std::filesystem::path& folder, bool follow_links, bool skip_unreadable);

}  // namespace gltf_anim::io
