/* unearth — internal: Parkan's axis rule, declared in the advanced tier of the public API
 * (unearth/advanced/parkan.h). */
#ifndef UE_PARKAN_AXES_H
#define UE_PARKAN_AXES_H

#include "unearth/advanced/parkan.h"

#endif
