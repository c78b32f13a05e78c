/* unearth internal — the small PNG reader of texture import, declared in the advanced tier of the
 * public API (unearth/advanced/png.h). */
#ifndef UE_IMPORT_PNG_READ_H
#define UE_IMPORT_PNG_READ_H

#include "unearth/advanced/png.h"

#endif
