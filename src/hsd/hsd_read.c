/* unearth — the HSD struct reader (docs/formats/dat.md#root-names, docs/formats/hsd-model.md#joint, docs/formats/hsd-model.md#scene-data): model sets from `scene_data`
 * and `*_joint` roots, the joint trees in pre-order, the offset map that reads each struct once. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsd/hsd_int.h"
#include "common/bytes.h"
#include "common/collections.h"

/* ---- the offset → row map ------------------------------------------------------------------ */

static uint64_t map_key(hsd_kind kind, uint32_t offset) {
    return (((uint64_t)kind << 32) | offset) + 1; /* never 0, the empty mark */
}

static size_t map_slot(const hsd_map *map, uint64_t key) {
    uint64_t h = key * 0x9E3779B97F4A7C15ull; /* Fibonacci hashing spreads aligned offsets */
    return (size_t)(h >> 17) & (map->cap - 1);
}

bool hsd_map_find(const hsd_map *map, hsd_kind kind, uint32_t offset, int32_t *row) {
    if (map->cap == 0) return false;
    uint64_t key = map_key(kind, offset);
    for (size_t i = map_slot(map, key);; i = (i + 1) & (map->cap - 1)) {
        if (map->keys[i] == 0) return false;
        if (map->keys[i] == key) {
            *row = map->rows[i];
            return true;
        }
    }
}

static void map_insert(hsd_map *map, uint64_t key, int32_t row) {
    size_t i = map_slot(map, key);
    while (map->keys[i] != 0 && map->keys[i] != key) i = (i + 1) & (map->cap - 1);
    if (map->keys[i] == 0) map->count++;
    map->keys[i] = key;
    map->rows[i] = row;
}

/* Doubles the table when it is half full, so probes stay short. */
static bool map_grow(hsd_map *map) {
    size_t cap = map->cap ? map->cap * 2 : 64;
    hsd_map grown = {calloc(cap, sizeof *grown.keys), calloc(cap, sizeof *grown.rows), cap, 0};
    if (!grown.keys || !grown.rows) {
        hsd_map_free(&grown);
        return false;
    }
    for (size_t i = 0; i < map->cap; i++)
        if (map->keys[i]) map_insert(&grown, map->keys[i], map->rows[i]);
    hsd_map_free(map);
    *map = grown;
    return true;
}

bool hsd_map_put(hsd_reader *r, hsd_kind kind, uint32_t offset, int32_t row) {
    if (2 * (r->map.count + 1) > r->map.cap && !map_grow(&r->map)) {
        hsd_nomem(r);
        return false;
    }
    map_insert(&r->map, map_key(kind, offset), row);
    return true;
}

void hsd_map_free(hsd_map *map) {
    free(map->keys);
    free(map->rows);
    memset(map, 0, sizeof *map);
}

/* ---- bounded reads ------------------------------------------------------------------------- */

void hsd_nomem(hsd_reader *r) { ue_parse_fail(&r->c, UE_ERR_NOMEM); }

bool hsd_stop(const hsd_reader *r) { return ue_parse_failed(&r->c); }

uint32_t hsd_u32(const hsd_reader *r, uint32_t off) {
    uint32_t v = 0;
    ue_dat_read_u32(r->dat, off, &v);
    return v;
}

uint16_t hsd_u16(const hsd_reader *r, uint32_t off) {
    if ((uint64_t)off + 2 > r->dat->data_size) return 0;
    return ue_load_u16be(r->dat->data + off);
}

float hsd_f32(const hsd_reader *r, uint32_t off) {
    float v = 0.0f;
    ue_dat_read_f32(r->dat, off, &v);
    return v;
}

bool hsd_follow(hsd_reader *r, uint32_t field, uint32_t size, bool align4, const char *path,
                uint32_t *target) {
    bool present = false;
    r->steps++;
    if (ue_dat_read_pointer(r->dat, field, &present, target) != UE_OK) {
        ue_violation(&r->c, "hsd.pointer.outside", hsd_file_at(field), path,
                     "pointer field at data offset 0x%x is not a pointer into the 0x%x-byte "
                     "data block", field, r->dat->data_size);
        return false;
    }
    if (!present) return false;
    if (align4 && *target % 4 != 0) {
        ue_violation(&r->c, "hsd.pointer.misaligned", hsd_file_at(field), path,
                     "struct pointer 0x%x is not 4-aligned", *target);
        return false;
    }
    if ((uint64_t)*target + size > r->dat->data_size) {
        ue_violation(&r->c, "hsd.struct.truncated", hsd_file_at(*target), path,
                     "a 0x%x-byte struct at data offset 0x%x runs past the 0x%x-byte data block",
                     size, *target, r->dat->data_size);
        return false;
    }
    return true;
}

uint32_t hsd_raw_pointer(hsd_reader *r, uint32_t field, const char *path) {
    uint32_t target = 0;
    return hsd_follow(r, field, 0, false, path, &target) ? target : 0;
}

const char *hsd_read_name(hsd_reader *r, uint32_t field, const char *path) {
    uint32_t at = 0;
    if (!hsd_follow(r, field, 0, false, path, &at)) return NULL;
    size_t room = r->dat->data_size - at;
    if (room > HSD_MAX_NAME + 1) room = HSD_MAX_NAME + 1; /* bounded: a name costs ≤ 1 KiB */
    const char *s = (const char *)r->dat->data + at;
    if (!memchr(s, 0, room)) {
        ue_violation(&r->c, "hsd.name", hsd_file_at(at), path,
                     "name at data offset 0x%x has no NUL within %zu bytes", at, room);
        return NULL;
    }
    return s;
}

/* ---- joints (docs/formats/hsd-model.md#joint) ---------------------------------------------- */

/* A link still to follow: the pointer field, the joint row it belongs to and how it links. */
typedef enum { LINK_CHILD, LINK_SIBLING } link_kind;
typedef struct pending_link {
    uint32_t field;
    int32_t from;
    link_kind kind;
} pending_link;

/* Appends n bytes of s at out[at], as far as cap - 1 bytes allow; returns the new length. */
static size_t path_put(char *out, size_t cap, size_t at, const char *s, size_t n) {
    size_t room = cap - 1 - at;
    if (n > room) n = room;
    memcpy(out + at, s, n);
    return at + n;
}

void hsd_path_cat(char *out, size_t cap, const char *base, const char *suffix) {
    if (cap == 0) return;
    size_t at = path_put(out, cap, 0, base, strlen(base));
    out[path_put(out, cap, at, suffix, strlen(suffix))] = '\0';
}

void hsd_path_index(char *out, size_t cap, const char *base, const char *name, size_t index) {
    if (cap == 0) return;
    char digits[24];
    size_t d = sizeof digits;
    digits[--d] = ']';
    do digits[--d] = (char)('0' + index % 10), index /= 10;
    while (index);
    digits[--d] = '[';
    size_t at = path_put(out, cap, 0, base, strlen(base));
    at = path_put(out, cap, at, name, strlen(name));
    out[path_put(out, cap, at, digits + d, sizeof digits - d)] = '\0';
}

static void joint_path(char *out, size_t n, int32_t j, const char *field) {
    snprintf(out, n, "dat/joint[%d]%s%s", (int)j, field ? "/" : "", field ? field : "");
}

static void read_joint_fields(hsd_reader *r, int32_t j) {
    ue_hsd_joint *jt = &r->m->joints[j];
    uint32_t off = jt->offset;
    char path[64];
    jt->flags = hsd_u32(r, off + 0x04);
    joint_path(path, sizeof path, j, "name");
    jt->class_name = hsd_read_name(r, off + 0x00, path);
    for (uint32_t k = 0; k < 3; k++) {
        jt->rotation[k] = hsd_f32(r, off + 0x14 + 4 * k);
        jt->scale[k] = hsd_f32(r, off + 0x20 + 4 * k);
        jt->translation[k] = hsd_f32(r, off + 0x2C + 4 * k);
    }
    uint32_t ib = 0;
    joint_path(path, sizeof path, j, "inverse_bind");
    jt->has_inverse_bind = hsd_follow(r, off + 0x38, 48, true, path, &ib);
    for (uint32_t k = 0; jt->has_inverse_bind && k < 12; k++)
        jt->inverse_bind[k] = hsd_f32(r, ib + 4 * k);
    joint_path(path, sizeof path, j, "robj");
    jt->robj_offset = hsd_raw_pointer(r, off + 0x3C, path);
    if (jt->flags & (UE_JOBJ_SPLINE | UE_JOBJ_PTCL)) {
        joint_path(path, sizeof path, j, "extra");
        jt->extra_offset = hsd_raw_pointer(r, off + 0x10, path);
    }
    if (jt->flags & UE_JOBJ_INSTANCE) {
        joint_path(path, sizeof path, j, "instance");
        jt->instance_offset = hsd_raw_pointer(r, off + 0x08, path);
    }
}

/* A new joint row at `off` (already checked to hold 0x40 bytes), its fields read. */
static int32_t new_joint(hsd_reader *r, uint32_t off, int32_t parent, uint32_t depth) {
    ue_hsd_model *m = r->m;
    if (ue_array_make_room((void **)&m->joints, m->joint_count, sizeof *m->joints,
                           INT32_MAX) != UE_OK) {
        hsd_nomem(r);
        return UE_HSD_NONE;
    }
    int32_t j = (int32_t)m->joint_count++;
    ue_hsd_joint *jt = &m->joints[j];
    memset(jt, 0, sizeof *jt);
    jt->offset = off;
    jt->parent = parent;
    jt->first_child = jt->next_sibling = jt->first_dobj = UE_HSD_NONE;
    jt->depth = depth;
    if (!hsd_map_put(r, HSD_K_JOINT, off, j)) return UE_HSD_NONE;
    read_joint_fields(r, j);
    return j;
}

/* Follows one child or sibling link: a joint reached before (a shared sub-tree, a cycle or a
 * self-reference) or one past the depth cap is a violation and the link is dropped. */
static int32_t follow_link(hsd_reader *r, const pending_link *l) {
    const ue_hsd_joint *from = &r->m->joints[l->from];
    bool child = l->kind == LINK_CHILD;
    char path[64];
    joint_path(path, sizeof path, l->from, child ? "child" : "next");
    uint32_t off = 0;
    if (!hsd_follow(r, l->field, 0x40, true, path, &off)) return UE_HSD_NONE;
    int32_t seen = 0;
    if (hsd_map_find(&r->map, HSD_K_JOINT, off, &seen)) {
        ue_violation(&r->c, "hsd.joint.shared", hsd_file_at(l->field), path,
                     "joint at data offset 0x%x was reached before (a shared sub-tree or a "
                     "cycle); the link is dropped", off);
        return UE_HSD_NONE;
    }
    uint32_t depth = from->depth + (child ? 1u : 0u);
    if (depth > HSD_MAX_DEPTH) {
        ue_violation(&r->c, "hsd.joint.depth", hsd_file_at(l->field), path,
                     "joint tree deeper than %u levels; the link is dropped", HSD_MAX_DEPTH);
        return UE_HSD_NONE;
    }
    int32_t j = new_joint(r, off, child ? l->from : from->parent, depth);
    if (j < 0) return j;
    if (child)
        r->m->joints[l->from].first_child = j;
    else
        r->m->joints[l->from].next_sibling = j;
    return j;
}

/* Queues joint j's links: the sibling first, so that the child (and its whole sub-tree) is
 * read before it — depth-first pre-order with an explicit stack, whatever the depth. */
typedef struct link_stack {
    pending_link *items;
    size_t count, cap;
} link_stack;

static bool push_links(hsd_reader *r, link_stack *st, int32_t j) {
    const ue_hsd_joint *jt = &r->m->joints[j];
    for (int k = 0; k < 2; k++) {
        bool child = k == 1;
        if (child && (jt->flags & UE_JOBJ_INSTANCE)) continue; /* an instance, not a child */
        /* an explicit capacity: pushes and pops around a power of two must not reallocate */
        if (ue_array_reserve((void **)&st->items, &st->cap, st->count + 1, sizeof *st->items,
                             SIZE_MAX / 2) != UE_OK) {
            hsd_nomem(r);
            return false;
        }
        st->items[st->count++] = (pending_link){jt->offset + (child ? 0x08u : 0x0Cu), j,
                                                child ? LINK_CHILD : LINK_SIBLING};
    }
    return true;
}

/* Reads the tree whose root joint sits at `off` (checked by the caller); its row, or -1. */
static int32_t read_joint_tree(hsd_reader *r, uint32_t off) {
    int32_t root = 0;
    if (hsd_map_find(&r->map, HSD_K_JOINT, off, &root)) return root; /* named by two roots */
    root = new_joint(r, off, UE_HSD_NONE, 0);
    link_stack st = {NULL, 0, 0};
    if (root >= 0) push_links(r, &st, root);
    while (st.count > 0 && !hsd_stop(r)) {
        pending_link l = st.items[--st.count];
        int32_t j = follow_link(r, &l);
        if (j >= 0 && !push_links(r, &st, j)) break;
    }
    free(st.items);
    return root;
}

/* ---- model sets (docs/formats/hsd-model.md#scene-data, docs/formats/dat.md#root-names) ----- */

static void add_set(hsd_reader *r, const ue_hsd_model_set *set) {
    ue_hsd_model *m = r->m;
    if (set->root_joint < 0) return;
    if (ue_array_make_room((void **)&m->sets, m->set_count, sizeof *m->sets, INT32_MAX) !=
        UE_OK) {
        hsd_nomem(r);
        return;
    }
    m->sets[m->set_count++] = *set;
}

static void read_model_set(hsd_reader *r, uint32_t ms, const char *root_name, size_t i) {
    int32_t seen = 0;
    if (hsd_map_find(&r->map, HSD_K_MODELSET, ms, &seen) ||
        !hsd_map_put(r, HSD_K_MODELSET, ms, 0))
        return;
    char path[64];
    snprintf(path, sizeof path, "dat/scene/model[%zu]/joint", i);
    ue_hsd_model_set set = {UE_HSD_NONE, root_name, ms, 0, 0, 0};
    uint32_t joint = 0;
    if (hsd_follow(r, ms, 0x40, true, path, &joint))
        set.root_joint = read_joint_tree(r, joint);
    else if (!hsd_stop(r))
        ue_violation(&r->c, "hsd.modelset.joint", hsd_file_at(ms), path,
                     "model set at data offset 0x%x has no root joint", ms);
    snprintf(path, sizeof path, "dat/scene/model[%zu]/anims", i);
    set.anim_joints_offset = hsd_raw_pointer(r, ms + 0x04, path);
    set.matanim_joints_offset = hsd_raw_pointer(r, ms + 0x08, path);
    set.shapeanim_joints_offset = hsd_raw_pointer(r, ms + 0x0C, path);
    add_set(r, &set);
}

/* SceneDesc → NULL-terminated ModelSet* array. Each array slot is walked once, whatever
 * number of SceneDescs share the array. */
static void read_scene(hsd_reader *r, uint32_t off, const char *root_name) {
    int32_t seen = 0;
    if (hsd_map_find(&r->map, HSD_K_SCENE, off, &seen) || !hsd_map_put(r, HSD_K_SCENE, off, 0))
        return;
    uint32_t array = 0;
    if (!hsd_follow(r, off, 4, true, "dat/scene/models", &array)) return;
    for (size_t i = 0; !hsd_stop(r); i++) {
        uint32_t slot = array + 4 * (uint32_t)i, ms = 0;
        if (hsd_map_find(&r->map, HSD_K_SETSLOT, slot, &seen)) return;
        if (!hsd_map_put(r, HSD_K_SETSLOT, slot, 0)) return;
        char path[64];
        snprintf(path, sizeof path, "dat/scene/model[%zu]", i);
        if (!hsd_follow(r, slot, 0x10, true, path, &ms)) return;
        read_model_set(r, ms, root_name, i);
    }
}

static void read_roots(hsd_reader *r) {
    const ue_dat *dat = r->dat;
    for (size_t i = 0; i < dat->root_count && !hsd_stop(r); i++) {
        const ue_dat_symbol *root = &dat->roots[i];
        ue_hsd_root_kind kind = ue_hsd_root_kind_of(root->name);
        if (root->damaged || (kind != UE_HSD_ROOT_SCENE_DATA && kind != UE_HSD_ROOT_JOINT))
            continue;
        uint32_t off = root->data_offset;
        uint32_t size = kind == UE_HSD_ROOT_JOINT ? 0x40u : 0x10u;
        char path[48];
        snprintf(path, sizeof path, "dat/root[%zu]", i);
        if (off % 4 != 0 || (uint64_t)off + size > dat->data_size) {
            ue_violation(&r->c, "hsd.root", hsd_file_at(off), path,
                         "root \"%s\" names data offset 0x%x, not a 4-aligned 0x%x-byte struct "
                         "inside the data block", root->name, off, size);
            continue;
        }
        if (kind == UE_HSD_ROOT_SCENE_DATA) {
            read_scene(r, off, root->name);
            continue;
        }
        ue_hsd_model_set set = {read_joint_tree(r, off), root->name, off, 0, 0, 0};
        add_set(r, &set);
    }
}

/* ---- entry points -------------------------------------------------------------------------- */

ue_result hsd_model_read_counted(const ue_dat *dat, ue_mode mode, ue_hsd_model *m, ue_diag *d,
                                 size_t *steps) {
    memset(m, 0, sizeof *m);
    m->dat = dat;
    hsd_reader r = {ue_parse_begin(mode, d), dat, m, {0}, 0};
    read_roots(&r);
    /* Every joint row exists before any mesh is read, so envelope joints resolve at once. */
    size_t joints = m->joint_count;
    for (size_t j = 0; j < joints && !hsd_stop(&r); j++) hsd_read_joint_meshes(&r, (int32_t)j);
    /* Animations bind to joints, DObjs and TObjs, so they are read once all of those exist. */
    if (!hsd_stop(&r)) hsd_read_anims(&r);
    if (!hsd_stop(&r) && m->set_count == 0)
        ue_parse_error(&r.c, "hsd.no_model", UE_NO_OFFSET, "dat",
                       "no scene_data or *_joint root names a readable joint tree");
    hsd_map_free(&r.map);
    if (steps) *steps = r.steps;
    return r.c.failure;
}

ue_result ue_hsd_model_read(const ue_dat *dat, ue_mode mode, ue_hsd_model *m, ue_diag *d) {
    return hsd_model_read_counted(dat, mode, m, d, NULL);
}

void ue_hsd_model_free(ue_hsd_model *m) {
    if (!m) return;
    free(m->sets);
    free(m->joints);
    free(m->dobjs);
    free(m->mobjs);
    free(m->tobjs);
    free(m->images);
    free(m->tluts);
    free(m->pobjs);
    free(m->attrs);
    free(m->envelopes);
    free(m->weights);
    hsd_anims_free(&m->anims);
    memset(m, 0, sizeof *m);
}
