/* unearth — the library's version at run time.
 * The string comes from include/unearth/version.h, which CMake checks against project(VERSION). */
#include "unearth/version.h"

const char *ue_version(void) { return UE_VERSION; }
