/* unearth internal — the model walk of the registry, declared in the advanced tier of the public
 * API (unearth/advanced/model_walk.h). */
#ifndef UE_FORMATS_MODEL_WALK_H
#define UE_FORMATS_MODEL_WALK_H

#include "unearth/advanced/model_walk.h"

#endif
