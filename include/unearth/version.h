/* unearth — the library's version, at compile time (macros) and at run time (ue_version).
 * CMake refuses to configure when these numbers differ from project(VERSION) in CMakeLists.txt. */
#ifndef UNEARTH_VERSION_H
#define UNEARTH_VERSION_H

#include "unearth/export.h"

#ifdef __cplusplus
extern "C" {
#endif

#define UE_VERSION_MAJOR 0
#define UE_VERSION_MINOR 3
#define UE_VERSION_PATCH 0
#define UE_VERSION "0.3.0"
/* One comparable number: MAJOR × 10000 + MINOR × 100 + PATCH (0.3.0 → 300). */
#define UE_VERSION_NUMBER (UE_VERSION_MAJOR * 10000 + UE_VERSION_MINOR * 100 + UE_VERSION_PATCH)

/* The version of the library actually linked, e.g. "0.3.0"; compare it with UE_VERSION to
 * detect a program built against other headers. A static string: never free it. */
UE_API const char *ue_version(void);

#ifdef __cplusplus
}
#endif
#endif
