// Heap-allocation counter for allocation-free checks: interposes malloc (glibc only; Eigen
// allocates through malloc, not operator new). Not available under sanitizers, which interpose
// malloc themselves. Include this header in exactly ONE source file of a test binary (it
// defines malloc); other files of the binary may declare `long saltus_malloc_calls();`.
#pragma once

#include <atomic>
#include <cstddef>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define SALTUS_TEST_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define SALTUS_TEST_SANITIZED 1
#endif

#if defined(__GLIBC__) && !defined(SALTUS_TEST_SANITIZED)
#define SALTUS_TEST_COUNTS_MALLOC 1
namespace saltus::testing {
inline std::atomic<long> g_malloc_calls{0};
}
extern "C" void* __libc_malloc(std::size_t size);     // NOLINT: glibc's implementation
extern "C" void* malloc(std::size_t size) noexcept {  // NOLINT: interposed for counting
  saltus::testing::g_malloc_calls.fetch_add(1, std::memory_order_relaxed);
  return __libc_malloc(size);
}
#endif

namespace saltus::testing {
// Number of malloc calls so far (0 when counting is unavailable).
inline long malloc_calls() {
#ifdef SALTUS_TEST_COUNTS_MALLOC
  return g_malloc_calls.load(std::memory_order_relaxed);
#else
  return 0;
#endif
}
inline constexpr bool kCountsMalloc =
#ifdef SALTUS_TEST_COUNTS_MALLOC
    true;
#else
    false;
#endif
}  // namespace saltus::testing
