#pragma once
// The heap's free memory given back to the system.

namespace gltf_anim::io {

// Returns the heap's free pages to the system (glibc's malloc_trim). glibc keeps the pages
// of many small blocks freed in the middle of its heap: a repair tool that frees the
// decoded tracks of a large asset (a few hundred MB in blocks of tens of KB) before
// building its output would hold them all the same. Nothing where the allocator has no
// such call (WebAssembly, whose heap reuses them for the output instead).
void release_free_memory();

}  // namespace gltf_anim::io
