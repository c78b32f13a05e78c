/* unearth — the structures every kind of DAT root names (docs/formats/hsd-model.md#camera-lights-and-fog, docs/formats/hsd-model.md#scene-data, docs/formats/hsd-animation.md,
 * docs/formats/hsd-animation.md#figatree; fighter data and fog as HSDLib lays them out), checked so that `info` and `validate`
 * say what each root is whatever else the DAT holds. Each struct is checked once, linear work. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "common/collections.h"
#include "hsd/hsd_figatree.h"
#include "hsd/hsd_int.h"
#include "hsd/hsd_roots.h"

#define PATH_MAX_LEN 160

/* One walk over the roots: the reader's context gives the parse context, the DAT and the
 * (kind, offset) map that makes every struct visited once. */
typedef struct root_walk {
    hsd_reader r;
    hsd_figatree_budget budget; /* key streams and FigaTree tables: bounded work */
    uint32_t *stack;            /* tree nodes still to visit */
    size_t stack_count, stack_cap;
    int32_t root;               /* the root being walked: a map row says which root saw a struct */
    const bool *root_failed;    /* classify: the verdicts so far, which a sharing root inherits */
    bool inherited_failure;     /* this root reached a struct an earlier, failed root holds */
} root_walk;

static bool stopped(const root_walk *w) { return hsd_stop(&w->r); }

/* True the first time (kind, offset) is seen; *earlier says whether it was seen under an
 * earlier root (a struct roots share, judged with that root) rather than under this one. */
static bool first_seen(root_walk *w, hsd_kind kind, uint32_t off, bool *earlier) {
    int32_t row = 0;
    *earlier = false;
    if (!hsd_map_find(&w->r.map, kind, off, &row)) return hsd_map_put(&w->r, kind, off, w->root);
    *earlier = row != w->root;
    if (*earlier && w->root_failed && w->root_failed[row]) w->inherited_failure = true;
    return false;
}

static bool first_visit(root_walk *w, hsd_kind kind, uint32_t off) {
    bool earlier = false;
    return first_seen(w, kind, off, &earlier);
}

/* A link of a tree or list to a struct seen before in this root's walk: a cycle or a shared
 * part, which the model reader reports the same way (the runtime would walk it again, or
 * forever). One seen under an earlier root is a struct two roots share, as the runtime loads
 * them: this walk stops there quietly. */
static bool linked_first(root_walk *w, hsd_kind kind, uint32_t field, uint32_t off, const char *code,
                         const char *path) {
    bool earlier = false;
    if (first_seen(w, kind, off, &earlier)) return true;
    if (!earlier && !stopped(w))
        ue_violation(&w->r.c, code, hsd_file_at(field), path,
                     "struct at data offset 0x%x was reached before (a cycle or a shared part)", off);
    return false;
}

/* Follows a pointer field: false for NULL and for a broken pointer (reported). */
static bool follow(root_walk *w, uint32_t field, uint32_t size, bool align4, const char *path,
                   uint32_t *target) {
    return hsd_follow(&w->r, field, size, align4, path, target);
}

/* A pointer field that must be NULL or name `size` readable bytes; what it names is not read. */
static void pointer_only(root_walk *w, uint32_t field, uint32_t size, const char *path) {
    uint32_t target = 0;
    (void)follow(w, field, size, false, path, &target);
}

static void bad_value(root_walk *w, uint32_t off, const char *path, const char *fmt, ...)
    UE_PARSE_PRINTF(4, 5);
static void bad_value(root_walk *w, uint32_t off, const char *path, const char *fmt, ...) {
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ue_violation(&w->r.c, "hsd.root.value", hsd_file_at(off), path, "%s", msg);
}

static void check_finite(root_walk *w, uint32_t off, const char *path, const char *what) {
    float v = hsd_f32(&w->r, off);
    if (!isfinite(v)) bad_value(w, off, path, "%s at data offset 0x%x is not a finite number", what, off);
}

/* ---- key streams (docs/formats/hsd-animation.md#fobj, docs/formats/hsd-animation.md#key-streams), shared by FObjs and FigaTree tracks ---- */

static void check_keys(root_walk *w, uint32_t data_field, uint32_t length, uint8_t value_fmt,
                       uint8_t slope_fmt, const char *path) {
    char sub[PATH_MAX_LEN + 8];
    snprintf(sub, sizeof sub, "%s/data", path);
    uint32_t data = 0;
    if (!follow(w, data_field, 0, false, sub, &data)) return;
    if (length > w->r.dat->data_size - data) {
        ue_violation(&w->r.c, "hsd.anim.track.length", hsd_file_at(data_field), sub,
                     "0x%x key bytes at data offset 0x%x run past the 0x%x-byte data block",
                     length, data, w->r.dat->data_size);
        return;
    }
    if (length > w->budget.key_bytes) {
        ue_violation(&w->r.c, "hsd.anim.budget", hsd_file_at(data_field), sub,
                     "key streams add up to more bytes than the file could hold");
        return;
    }
    w->budget.key_bytes -= length;
    ue_hsd_key *keys = NULL;
    size_t n = 0;
    ue_result e = ue_hsd_keys_decode(w->r.dat->data + data, length, value_fmt, slope_fmt, w->r.c.mode,
                                     &keys, &n, w->r.c.d, sub, hsd_file_at(data));
    free(keys);
    if (e == UE_ERR_NOMEM) hsd_nomem(&w->r);
    else if (e != UE_OK) ue_damage_reported(&w->r.c);
}

/* AObjDesc (0x10) and its FObjDesc list (0x14 each). */
static void check_aobj(root_walk *w, uint32_t field, const char *path) {
    char sub[PATH_MAX_LEN + 16];
    snprintf(sub, sizeof sub, "%s/aobj", path);
    uint32_t aobj = 0;
    if (!follow(w, field, 0x10, true, sub, &aobj) || !first_visit(w, HSD_K_AOBJ, aobj)) return;
    float end = hsd_f32(&w->r, aobj + 4);
    if (!(end >= 0.0f && end <= (float)UE_HSD_MAX_FRAMES))
        bad_value(w, aobj + 4, sub, "end frame %g is not a frame count", (double)end);
    uint32_t link = aobj + 8, fobj = 0;
    for (size_t i = 0; !stopped(w); i++, link = fobj) {
        char track[PATH_MAX_LEN + 40];
        snprintf(track, sizeof track, "%s/track[%zu]", sub, i);
        if (!follow(w, link, 0x14, true, track, &fobj) ||
            !linked_first(w, HSD_K_FOBJ, link, fobj, "hsd.anim.track.shared", track))
            return;
        const uint8_t *f = w->r.dat->data + fobj;
        check_keys(w, fobj + 0x10, ue_load_u32be(f + 4), f[0x0D], f[0x0E], track);
    }
}

/* ---- animation trees (docs/formats/hsd-animation.md#tree-shapes): {child, next, …} nodes mirroring a joint tree ---- */

typedef void (*node_fn)(root_walk *w, uint32_t node, const char *path);

static bool push(root_walk *w, uint32_t node) {
    if (ue_array_reserve((void **)&w->stack, &w->stack_cap, w->stack_count + 1, sizeof *w->stack,
                         INT32_MAX) != UE_OK) {
        hsd_nomem(&w->r);
        return false;
    }
    w->stack[w->stack_count++] = node;
    return true;
}

/* Every node once (a shared or cyclic link ends there); children and siblings from a stack. */
static void check_tree(root_walk *w, uint32_t root, hsd_kind kind, uint32_t size, node_fn visit,
                       const char *path) {
    w->stack_count = 0;
    if (!first_visit(w, kind, root) || !push(w, root)) return;
    while (w->stack_count && !stopped(w)) {
        uint32_t node = w->stack[--w->stack_count], next = 0;
        char sub[PATH_MAX_LEN];
        snprintf(sub, sizeof sub, "%s/node@0x%x", path, node);
        visit(w, node, sub);
        for (uint32_t link = 0; link <= 4; link += 4) /* child, then next */
            if (follow(w, node + link, size, true, sub, &next) &&
                linked_first(w, kind, node + link, next, "hsd.anim.shared", sub))
                push(w, next);
    }
}

/* A list of `size`-byte structs linked at +`next_at`, each checked by `item`. */
static void check_list(root_walk *w, uint32_t field, hsd_kind kind, uint32_t size, uint32_t next_at,
                       node_fn item, const char *path, const char *name) {
    uint32_t off = 0;
    for (size_t i = 0; !stopped(w); i++, field = off + next_at) {
        char sub[PATH_MAX_LEN + 40];
        snprintf(sub, sizeof sub, "%s/%s[%zu]", path, name, i);
        const char *code = kind == HSD_K_LIGHT ? "hsd.chain.cycle" : "hsd.anim.shared";
        if (!follow(w, field, size, true, sub, &off) || !linked_first(w, kind, field, off, code, sub)) return;
        item(w, off, sub);
    }
}

static void animjoint_node(root_walk *w, uint32_t node, const char *path) {
    check_aobj(w, node + 8, path);
    pointer_only(w, node + 0x0C, 8, path); /* RObjAnimJoint, not read */
}

/* A u32 pointer table of `count` entries, each NULL or a `size`-byte struct. */
static void check_table(root_walk *w, uint32_t field, uint32_t count, uint32_t size, const char *path) {
    uint32_t table = 0;
    if (!follow(w, field, 4 * count, true, path, &table)) return;
    for (uint32_t i = 0; i < count && !stopped(w); i++) pointer_only(w, table + 4 * i, size, path);
}

static void texanim_item(root_walk *w, uint32_t ta, const char *path) {
    check_aobj(w, ta + 8, path);
    check_table(w, ta + 0x0C, hsd_u16(&w->r, ta + 0x14), 0x18, path); /* ImageDescs */
    check_table(w, ta + 0x10, hsd_u16(&w->r, ta + 0x16), 0x10, path); /* TlutDescs */
}

static void matanim_item(root_walk *w, uint32_t ma, const char *path) {
    check_aobj(w, ma + 4, path);
    check_list(w, ma + 8, HSD_K_TEXANIM, 0x18, 0, texanim_item, path, "texanim");
    pointer_only(w, ma + 0x0C, 8, path); /* RenderAnim, not read */
}

static void matanimjoint_node(root_walk *w, uint32_t node, const char *path) {
    check_list(w, node + 8, HSD_K_MATANIM, 0x10, 0, matanim_item, path, "matanim");
}

static void shapeanim_item(root_walk *w, uint32_t sa, const char *path) { check_aobj(w, sa + 4, path); }

static void shapeanim_dobj_item(root_walk *w, uint32_t sd, const char *path) {
    check_list(w, sd + 4, HSD_K_SHAPEANIM, 8, 0, shapeanim_item, path, "shapeanim");
}

static void shapeanimjoint_node(root_walk *w, uint32_t node, const char *path) {
    check_list(w, node + 8, HSD_K_SHAPEANIMDOBJ, 8, 0, shapeanim_dobj_item, path, "dobj");
}

/* ---- FigaTree (docs/formats/hsd-animation.md#figatree): read by the one FigaTree checker, once per struct ---- */

static void check_figatree(root_walk *w, uint32_t off, const char *path) {
    if (!first_visit(w, HSD_K_FIGATREE, off)) return;
    char sub[PATH_MAX_LEN + 16];
    snprintf(sub, sizeof sub, "%s/figatree", path);
    if (!hsd_figatree_check(w->r.dat, off, &w->r.c, &w->budget, sub)) hsd_nomem(&w->r);
}

/* ---- camera, lights, fog (docs/formats/hsd-model.md#camera-lights-and-fog) ------------------ */

static void check_camera(root_walk *w, uint32_t off, const char *path) {
    uint16_t projection = hsd_u16(&w->r, off + 6);
    if (projection < 1 || projection > 3) {
        bad_value(w, off + 6, path, "camera projection %u is none of 1 (perspective), 2 (frustum), "
                  "3 (ortho)", projection);
        return;
    }
    if (projection != 1 && (uint64_t)off + 0x40 > w->r.dat->data_size) {
        ue_violation(&w->r.c, "hsd.struct.truncated", hsd_file_at(off), path,
                     "a frustum or ortho camera (0x40 bytes) runs past the data block");
        return;
    }
    pointer_only(w, off, 0, path);            /* class name */
    pointer_only(w, off + 0x18, 0x14, path);  /* eye WObjDesc */
    pointer_only(w, off + 0x1C, 0x14, path);  /* interest WObjDesc */
    pointer_only(w, off + 0x24, 12, path);    /* up vector */
    check_finite(w, off + 0x20, path, "roll");
    check_finite(w, off + 0x28, path, "near plane");
    check_finite(w, off + 0x2C, path, "far plane");
}

static void light_item(root_walk *w, uint32_t lobj, const char *path) {
    pointer_only(w, lobj, 0, path);            /* class name */
    pointer_only(w, lobj + 0x10, 0x14, path);  /* position WObjDesc */
    pointer_only(w, lobj + 0x14, 0x14, path);  /* interest WObjDesc */
    pointer_only(w, lobj + 0x18, 4, path);     /* type-dependent parameters */
}

/* A NULL-terminated array of LightSets {LightDesc*, LightAnim**}, as SceneDesc +0x08 holds. */
static void check_lights(root_walk *w, uint32_t off, const char *path) {
    if (!first_visit(w, HSD_K_LIGHTSETS, off)) return; /* shared by roots: judged with the first */
    for (uint32_t slot = off, set = 0; !stopped(w); slot += 4) {
        char sub[PATH_MAX_LEN + 24];
        snprintf(sub, sizeof sub, "%s/set[%u]", path, (slot - off) / 4);
        if (!follow(w, slot, 8, true, sub, &set)) return;
        check_list(w, set, HSD_K_LIGHT, 0x1C, 4, light_item, sub, "light");
        pointer_only(w, set + 4, 4, sub);
        if ((uint64_t)slot + 8 > w->r.dat->data_size) {
            ue_violation(&w->r.c, "hsd.struct.truncated", hsd_file_at(slot), path,
                         "light set array has no NULL end inside the data block");
            return;
        }
    }
}

static bool gx_fog_type(uint32_t t) { return t == 0 || t == 2 || (t >= 4 && t <= 7) || t == 0x0A || (t >= 0x0C && t <= 0x0F); }

static void check_fog(root_walk *w, uint32_t off, const char *path) {
    uint32_t type = hsd_u32(&w->r, off);
    if (!gx_fog_type(type)) bad_value(w, off, path, "fog type 0x%x is no GX fog type", type);
    pointer_only(w, off + 4, 4, path); /* FogAdjDesc */
    check_finite(w, off + 8, path, "fog start");
    check_finite(w, off + 0x0C, path, "fog end");
}

/* ---- the other kinds --------------------------------------------------------------------------- */

/* Melee fighter data: 24 pointer fields (HSDLib SBM_FighterData), each NULL or inside the block;
 * the last one is the shadow model's joint. */
static void check_fighter(root_walk *w, uint32_t off, const char *path) {
    for (uint32_t f = 0; f < 0x5C && !stopped(w); f += 4) pointer_only(w, off + f, 0, path);
    pointer_only(w, off + 0x5C, 0x40, path);
}

/* A NULL-terminated array of JObjDesc pointers. */
static void check_scene_models(root_walk *w, uint32_t off, const char *path) {
    uint32_t joint = 0;
    if (!first_visit(w, HSD_K_MODELARRAY, off)) return; /* shared by roots: judged with the first */
    for (uint32_t slot = off; !stopped(w) && follow(w, slot, 0x40, true, path, &joint); slot += 4)
        if ((uint64_t)slot + 8 > w->r.dat->data_size) {
            ue_violation(&w->r.c, "hsd.struct.truncated", hsd_file_at(slot), path,
                         "joint array has no NULL end inside the data block");
            return;
        }
}

static void check_joint(root_walk *w, uint32_t off, const char *path) {
    for (uint32_t f = 8; f <= 0x10; f += 4) pointer_only(w, off + f, 0, path); /* child, next, DObj */
}

static void check_scene(root_walk *w, uint32_t off, const char *path) { pointer_only(w, off, 4, path); }
static void check_image(root_walk *w, uint32_t off, const char *path) { pointer_only(w, off, 0, path); }

static void check_animjoint(root_walk *w, uint32_t off, const char *path) {
    check_tree(w, off, HSD_K_ANIMJOINT, 0x14, animjoint_node, path);
}
static void check_matanimjoint(root_walk *w, uint32_t off, const char *path) {
    check_tree(w, off, HSD_K_MATANIMJOINT, 0x0C, matanimjoint_node, path);
}
static void check_shapeanimjoint(root_walk *w, uint32_t off, const char *path) {
    check_tree(w, off, HSD_K_SHAPEANIMJOINT, 0x0C, shapeanimjoint_node, path);
}
static void check_nothing(root_walk *w, uint32_t off, const char *path) { (void)w, (void)off, (void)path; }

typedef struct kind_shape {
    uint32_t size; /* bytes of the struct the root names */
    node_fn check;
} kind_shape;

static kind_shape shape_of(ue_hsd_root_kind kind) {
    switch (kind) {
    case UE_HSD_ROOT_SCENE_DATA: return (kind_shape){0x10, check_scene};
    case UE_HSD_ROOT_SCENE_MODELS: return (kind_shape){4, check_scene_models};
    case UE_HSD_ROOT_BOUND_BOX: return (kind_shape){8, check_nothing};
    case UE_HSD_ROOT_JOINT: return (kind_shape){0x40, check_joint};
    case UE_HSD_ROOT_ANIMJOINT: return (kind_shape){0x14, check_animjoint};
    case UE_HSD_ROOT_MATANIM_JOINT: return (kind_shape){0x0C, check_matanimjoint};
    case UE_HSD_ROOT_SHAPEANIM_JOINT: return (kind_shape){0x0C, check_shapeanimjoint};
    case UE_HSD_ROOT_CAMERA: return (kind_shape){0x38, check_camera};
    case UE_HSD_ROOT_LIGHTS: return (kind_shape){4, check_lights};
    case UE_HSD_ROOT_FIGATREE: return (kind_shape){0x14, check_figatree};
    case UE_HSD_ROOT_IMAGE: return (kind_shape){0x18, check_image};
    case UE_HSD_ROOT_TLUT: return (kind_shape){0x10, check_image};
    case UE_HSD_ROOT_FIGHTER_DATA: return (kind_shape){0x60, check_fighter};
    case UE_HSD_ROOT_FOG: return (kind_shape){0x14, check_fog};
    case UE_HSD_ROOT_UNKNOWN: break;
    }
    return (kind_shape){0, NULL};
}

static bool model_read_kind(ue_hsd_root_kind k) {
    return k == UE_HSD_ROOT_SCENE_DATA || k == UE_HSD_ROOT_JOINT || k == UE_HSD_ROOT_ANIMJOINT ||
           k == UE_HSD_ROOT_MATANIM_JOINT;
}

/* Root `i`'s struct and everything under it, as its name's kind lays it out. */
static void check_root(root_walk *w, size_t i) {
    const ue_dat_symbol *root = &w->r.dat->roots[i];
    kind_shape shape = shape_of(ue_hsd_root_kind_of(root->name));
    if (root->damaged || !shape.check) return;
    char path[PATH_MAX_LEN];
    snprintf(path, sizeof path, "dat/root[%zu]", i);
    uint32_t off = root->data_offset;
    if (off % 4 != 0 || (uint64_t)off + shape.size > w->r.dat->data_size) {
        ue_violation(&w->r.c, "hsd.root", hsd_file_at(off), path,
                     "root \"%s\" names data offset 0x%x, not a 4-aligned 0x%x-byte struct inside "
                     "the data block", root->name, off, shape.size);
        return;
    }
    shape.check(w, off, path);
}

static void walk_begin(root_walk *w, const ue_dat *dat, ue_mode mode, ue_diag *d) {
    memset(w, 0, sizeof *w);
    w->r = (hsd_reader){ue_parse_begin(mode, d), dat, NULL, {0}, 0};
    w->budget = hsd_figatree_budget_of(dat);
}

static void walk_end(root_walk *w) {
    hsd_map_free(&w->r.map);
    free(w->stack);
}

/* One walk for all roots, so the work stays linear however many roots share a tree: a struct
 * two roots share is judged with the first. */
ue_result hsd_roots_classify(const ue_dat *dat, ue_hsd_root_kind *kinds) {
    root_walk w;
    walk_begin(&w, dat, UE_MODE_STRICT, NULL);
    bool *failed = ue_calloc_items(dat->root_count, sizeof *failed);
    ue_result r = failed ? UE_OK : UE_ERR_NOMEM;
    w.root_failed = failed;
    for (size_t i = 0; i < dat->root_count && r == UE_OK; i++) {
        w.r.c.failure = UE_OK; /* each root's verdict is its own, or the one of a root it shares with */
        w.inherited_failure = false;
        w.root = (int32_t)i;
        check_root(&w, i);
        if (w.r.c.failure == UE_ERR_NOMEM) r = UE_ERR_NOMEM;
        failed[i] = w.r.c.failure != UE_OK || w.inherited_failure || dat->roots[i].damaged;
        kinds[i] = failed[i] ? UE_HSD_ROOT_UNKNOWN : ue_hsd_root_kind_of(dat->roots[i].name);
    }
    free(failed);
    walk_end(&w);
    return r;
}

ue_result hsd_roots_check(const ue_dat *dat, ue_mode mode, bool skip_model_roots, ue_diag *d) {
    root_walk w;
    walk_begin(&w, dat, mode, d);
    for (size_t i = 0; i < dat->root_count && !stopped(&w); i++) {
        w.root = (int32_t)i;
        if (!skip_model_roots || !model_read_kind(ue_hsd_root_kind_of(dat->roots[i].name))) check_root(&w, i);
    }
    ue_result r = w.r.c.failure;
    walk_end(&w);
    return r;
}
