/* unearth — UE_API, the mark on every function and object the shared library exports.
 * libunearth is built with hidden visibility: what a public header does not mark stays inside. */
#ifndef UNEARTH_EXPORT_H
#define UNEARTH_EXPORT_H

/* Put UE_API in front of each declaration in the public headers (functions and extern data);
 * never on internal headers under src/. The static library ignores it: tests, fuzzers and
 * benchmarks link that one and still reach internal functions. */
#if defined(_WIN32) || defined(__CYGWIN__)
#  if defined(UE_BUILDING_SHARED)
#    define UE_API __declspec(dllexport)
#  elif defined(UE_USING_SHARED)
#    define UE_API __declspec(dllimport)
#  else
#    define UE_API
#  endif
#elif defined(__GNUC__) || defined(__clang__)
#  define UE_API __attribute__((visibility("default")))
#else
#  define UE_API
#endif

#endif
