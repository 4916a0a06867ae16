#pragma once
// The project's one set of RapidJSON types. RapidJSON never checks an
// allocation: its memory pool, its parse stack and its writers' buffers write
// through whatever malloc returned, so under a memory limit a large asset or
// report was a segmentation fault instead of "out of memory". Every type here
// allocates through ThrowingAllocator, which throws std::bad_alloc instead; the
// commands turn that into a clear message and an exit code. The source_layout
// test refuses RapidJSON's own Value, Document, Reader, Writer, StringBuffer and
// Pointer anywhere else (they default to the unchecked allocator).
#include <rapidjson/document.h>
#include <rapidjson/pointer.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/reader.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstddef>
#include <cstdlib>
#include <new>

namespace gltf_anim::json {

// RapidJSON's allocator concept (as its CrtAllocator), failing loudly.
struct ThrowingAllocator {
  // Read by RapidJSON (whether Free must be called).
  [[maybe_unused]] static constexpr bool kNeedFree = true;
  void* Malloc(std::size_t size) {
    if (size == 0) return nullptr;  // as CrtAllocator: malloc(0) is implementation-defined
    void* p = std::malloc(size);
    if (p == nullptr) throw std::bad_alloc();
    return p;
  }
  void* Realloc(void* original, std::size_t /*original_size*/, std::size_t size) {
    if (size == 0) {
      std::free(original);
      return nullptr;
    }
    void* p = std::realloc(original, size);
    if (p == nullptr) throw std::bad_alloc();
    return p;
  }
  static void Free(void* p) { std::free(p); }
};

using Encoding = rapidjson::UTF8<>;
// The DOM's pool takes its chunks from ThrowingAllocator.
using Allocator = rapidjson::MemoryPoolAllocator<ThrowingAllocator>;
using Value = rapidjson::GenericValue<Encoding, Allocator>;
// The document's parse stack grows through ThrowingAllocator too.
using Document = rapidjson::GenericDocument<Encoding, Allocator, ThrowingAllocator>;
// The SAX reader keeps unescaped strings on its stack.
using Reader = rapidjson::GenericReader<Encoding, Encoding, ThrowingAllocator>;
using StringBuffer = rapidjson::GenericStringBuffer<Encoding, ThrowingAllocator>;
using Pointer = rapidjson::GenericPointer<Value, ThrowingAllocator>;
// Writers keep their nesting levels on a stack.
template <class OutputStream>
using Writer = rapidjson::Writer<OutputStream, Encoding, Encoding, ThrowingAllocator>;
template <class OutputStream>
using PrettyWriter = rapidjson::PrettyWriter<OutputStream, Encoding, Encoding, ThrowingAllocator>;

}  // namespace gltf_anim::json
