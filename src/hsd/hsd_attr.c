/* unearth — the vertex descriptor rules of docs/formats/hsd-model.md#vertex-descriptor and docs/formats/hsd-model.md#display-lists that the struct reader and
 * the display-list decoder share: which descriptors GX knows and the bytes each one takes. */
#include "hsd/hsd_int.h"

enum { CLR_RGB565, CLR_RGB8, CLR_RGBX8, CLR_RGBA4, CLR_RGBA6, CLR_RGBA8 };

static const uint32_t COMP_BYTES[5] = {1, 1, 2, 2, 4};          /* U8 S8 U16 S16 F32 */
static const uint32_t COLOR_BYTES[6] = {2, 3, 4, 2, 3, 4};      /* docs/formats/hsd-model.md#vertex-descriptor */

static bool is_matrix_index(uint32_t attr) { return attr <= 8; }
static bool is_tex(uint32_t attr) { return attr >= UE_GX_VA_TEX0 && attr <= UE_GX_VA_TEX0 + 7; }
static bool is_color(uint32_t attr) { return attr == UE_GX_VA_CLR0 || attr == UE_GX_VA_CLR1; }

/* Component layout of POS, NRM/NBT and TEX; false with *why for counts GX does not define. */
static bool component_layout(const ue_hsd_vtx_attr *a, hsd_attr_layout *o, const char **why) {
    if (a->comp_type > 4) {
        *why = "unknown component type";
        return false;
    }
    o->comp_bytes = COMP_BYTES[a->comp_type];
    o->indices = 1;
    if (a->attr == UE_GX_VA_POS && a->comp_count <= 1)
        o->comps = a->comp_count == 0 ? 2 : 3;
    else if (a->attr == UE_GX_VA_NRM && a->comp_count == 0)
        o->comps = 3;
    else if ((a->attr == UE_GX_VA_NRM || a->attr == UE_GX_VA_NBT) &&
             (a->comp_count == 1 || a->comp_count == 2)) {
        o->comps = 9; /* normal, binormal, tangent */
        o->indices = a->comp_count == 2 ? 3 : 1; /* NBT3: one index per vector */
    } else if (is_tex(a->attr) && a->comp_count <= 1)
        o->comps = a->comp_count == 0 ? 1 : 2;
    else {
        *why = "unknown component count";
        return false;
    }
    o->elem_bytes = o->comps / o->indices * o->comp_bytes;
    return true;
}

static bool value_layout(const ue_hsd_vtx_attr *a, hsd_attr_layout *o, const char **why) {
    if (is_matrix_index(a->attr)) {
        o->comp_bytes = o->elem_bytes = 1;
        o->indices = 1;
        return true;
    }
    if (is_color(a->attr)) {
        if (a->comp_count > 1 || a->comp_type > CLR_RGBA8) {
            *why = a->comp_count > 1 ? "unknown colour component count" : "unknown colour format";
            return false;
        }
        o->comp_bytes = o->elem_bytes = COLOR_BYTES[a->comp_type];
        o->indices = 1;
        return true;
    }
    if (a->attr == UE_GX_VA_POS || a->attr == UE_GX_VA_NRM || a->attr == UE_GX_VA_NBT ||
        is_tex(a->attr))
        return component_layout(a, o, why);
    *why = "unknown attribute";
    return false;
}

bool hsd_attr_layout_of(const ue_hsd_vtx_attr *a, hsd_attr_layout *out, const char **why) {
    hsd_attr_layout o = {0, 0, 0, 0, 0};
    *out = o;
    if (a->type > UE_GX_INDEX16) {
        *why = "unknown attribute type";
        return false;
    }
    if (!value_layout(a, &o, why)) return false;
    if (is_matrix_index(a->attr) && a->type != UE_GX_DIRECT && a->type != UE_GX_NONE) {
        *why = "matrix indices are direct bytes only";
        return false;
    }
    if (a->type == UE_GX_DIRECT)
        o.record_bytes = o.indices * o.elem_bytes;
    else if (a->type != UE_GX_NONE)
        o.record_bytes = o.indices * (a->type == UE_GX_INDEX8 ? 1u : 2u);
    *out = o;
    return true;
}
