/* unearth — the glTF reader's JSON getters: each checks a property's type and range and reports
 * at its glTF path, plus names and extras (unearth_source, unearth_clip, user pairs). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/text.h"
#include "import/gltf_read_int.h"

static void key_path(char *out, size_t cap, const char *path, const char *key) {
    snprintf(out, cap, "%s/%s", path, key);
}

const ue_jv *gr_array(gr_ctx *c, const ue_jv *obj, const char *key, const char *path, bool *ok) {
    const ue_jv *v = ue_jv_get(obj, key);
    if (!v) return NULL;
    if (ue_jv_is(v, UE_JV_ARRAY)) return v;
    char p[160];
    key_path(p, sizeof p, path, key);
    *ok = gr_fail(c, "gltf.json.type", UE_NO_OFFSET, p, "expected an array");
    return NULL;
}

const ue_jv *gr_object(gr_ctx *c, const ue_jv *obj, const char *key, const char *path, bool *ok) {
    const ue_jv *v = ue_jv_get(obj, key);
    if (!v) return NULL;
    if (ue_jv_is(v, UE_JV_OBJECT)) return v;
    char p[160];
    key_path(p, sizeof p, path, key);
    *ok = gr_fail(c, "gltf.json.type", UE_NO_OFFSET, p, "expected an object");
    return NULL;
}

bool gr_uint(gr_ctx *c, const ue_jv *obj, const char *key, uint64_t max, uint64_t def, bool required,
             const char *path, uint64_t *out) {
    const ue_jv *v = ue_jv_get(obj, key);
    char p[160];
    key_path(p, sizeof p, path, key);
    *out = def;
    if (!v) {
        if (required) return gr_fail(c, "gltf.json.missing", UE_NO_OFFSET, p, "required");
        return true;
    }
    if (!ue_jv_is(v, UE_JV_INTEGER) || ue_jv_integer(v) < 0 ||
        (uint64_t)ue_jv_integer(v) > max)
        return gr_fail(c, "gltf.json.range", UE_NO_OFFSET, p,
                       "expected an integer in 0..%llu", (unsigned long long)max);
    *out = (uint64_t)ue_jv_integer(v);
    return true;
}

bool gr_index(gr_ctx *c, const ue_jv *obj, const char *key, size_t limit, bool required,
              const char *path, int32_t *out) {
    const ue_jv *v = ue_jv_get(obj, key);
    char p[160];
    key_path(p, sizeof p, path, key);
    *out = -1;
    if (!v) {
        if (required) return gr_fail(c, "gltf.json.missing", UE_NO_OFFSET, p, "required");
        return true;
    }
    if (!ue_jv_is(v, UE_JV_INTEGER) || ue_jv_integer(v) < 0 ||
        (uint64_t)ue_jv_integer(v) >= (uint64_t)limit)
        return gr_fail(c, "gltf.index.range", UE_NO_OFFSET, p,
                       "expected an index below %zu (the number of objects it names)", limit);
    *out = (int32_t)ue_jv_integer(v);
    return true;
}

bool gr_number(gr_ctx *c, const ue_jv *obj, const char *key, double def, const char *path, double *out) {
    const ue_jv *v = ue_jv_get(obj, key);
    *out = def;
    if (!v) return true;
    if (!ue_jv_is_number(v) || !isfinite(ue_jv_number(v))) {
        char p[160];
        key_path(p, sizeof p, path, key);
        return gr_fail(c, "gltf.json.type", UE_NO_OFFSET, p, "expected a finite number");
    }
    *out = ue_jv_number(v);
    return true;
}

bool gr_floats(gr_ctx *c, const ue_jv *obj, const char *key, size_t n, const char *path, float *out,
               bool *present) {
    const ue_jv *v = ue_jv_get(obj, key);
    if (present) *present = v != NULL;
    if (!v) return true;
    char p[160];
    key_path(p, sizeof p, path, key);
    if (!ue_jv_is(v, UE_JV_ARRAY) || ue_jv_items(v) != n)
        return gr_fail(c, "gltf.json.type", UE_NO_OFFSET, p, "expected an array of %zu numbers", n);
    for (size_t i = 0; i < n; i++) {
        const ue_jv *e = ue_jv_at(v, i);
        double x = ue_jv_is_number(e) ? ue_jv_number(e) : NAN;
        if (!isfinite(x) || fabs(x) > 3.0e38)
            return gr_fail(c, "gltf.json.type", UE_NO_OFFSET, p,
                           "element %zu is not a finite float", i);
        out[i] = (float)x;
    }
    return true;
}

bool gr_string(gr_ctx *c, const ue_jv *obj, const char *key, const char *def, const char *path,
               const char **out) {
    const ue_jv *v = ue_jv_get(obj, key);
    *out = def;
    if (!v) return true;
    if (!ue_jv_is(v, UE_JV_STRING)) {
        char p[160];
        key_path(p, sizeof p, path, key);
        return gr_fail(c, "gltf.json.type", UE_NO_OFFSET, p, "expected a string");
    }
    *out = ue_jv_string(v);
    return true;
}

bool gr_bool(gr_ctx *c, const ue_jv *obj, const char *key, bool def, const char *path, bool *out) {
    const ue_jv *v = ue_jv_get(obj, key);
    *out = def;
    if (!v) return true;
    if (!ue_jv_is_bool(v)) {
        char p[160];
        key_path(p, sizeof p, path, key);
        return gr_fail(c, "gltf.json.type", UE_NO_OFFSET, p, "expected true or false");
    }
    *out = ue_jv_is(v, UE_JV_TRUE);
    return true;
}

bool gr_name(gr_ctx *c, const ue_jv *obj, const char *path, char out[64]) {
    const char *name;
    out[0] = 0;
    if (!gr_string(c, obj, "name", "", path, &name)) return false;
    size_t n = ue_utf8_copy(name, out, 64);
    if (n < strlen(name)) {
        char p[160];
        key_path(p, sizeof p, path, "name");
        gr_warn(c, "gltf.name.cut", p, "name cut to %zu bytes (the IR holds 63)", n);
    }
    return true;
}

/* extras.unearth_source: {"format", "type", "index", optional "offset"}. */
static bool read_source(gr_ctx *c, const ue_jv *v, const char *path, ue_source_id *src) {
    const char *format;
    uint64_t type, index, offset;
    if (!ue_jv_is(v, UE_JV_OBJECT))
        return gr_fail(c, "gltf.json.type", UE_NO_OFFSET, path, "expected an object");
    if (!gr_string(c, v, "format", "", path, &format) ||
        !gr_uint(c, v, "type", UINT32_MAX, 0, true, path, &type) ||
        !gr_uint(c, v, "index", UINT32_MAX, 0, true, path, &index) ||
        !gr_uint(c, v, "offset", UINT64_MAX, UINT64_MAX, false, path, &offset))
        return false;
    if (strlen(format) >= sizeof src->format)
        return gr_fail(c, "gltf.extras.source", UE_NO_OFFSET, path,
                       "format \"%s\" is longer than 7 bytes", format);
    memset(src, 0, sizeof *src);
    snprintf(src->format, sizeof src->format, "%s", format);
    src->type = (uint32_t)type;
    src->index = (uint32_t)index;
    src->offset = offset;
    return true;
}

/* extras.unearth_clip: {"fps", "start_frame", "end_frame", "loop"}. */
static bool read_clip(gr_ctx *c, const ue_jv *v, const char *path, ue_scene_animation *clip) {
    double fps, start, end;
    bool loop;
    if (!ue_jv_is(v, UE_JV_OBJECT))
        return gr_fail(c, "gltf.json.type", UE_NO_OFFSET, path, "expected an object");
    if (!gr_number(c, v, "fps", clip->fps, path, &fps) || !gr_number(c, v, "start_frame", 0, path, &start) ||
        !gr_number(c, v, "end_frame", 0, path, &end) || !gr_bool(c, v, "loop", false, path, &loop))
        return false;
    clip->fps = (float)fps;
    clip->start_frame = (float)start;
    clip->end_frame = (float)end;
    clip->loop = loop;
    return true;
}

/* One user pair: numbers and strings are kept; anything else is reported and left out. */
static bool read_pair(gr_ctx *c, const char *key, const ue_jv *v, const char *path, ue_extras *x) {
    ue_result r = UE_OK;
    if (strlen(key) == 0 || strlen(key) >= sizeof ((ue_extra *)0)->key) {
        gr_warn(c, "gltf.extras.skipped", path, "key of %zu bytes left out (1..47 fit)", strlen(key));
        return true;
    }
    if (ue_jv_is_number(v) && isfinite(ue_jv_number(v)))
        r = ue_extras_set_number(x, key, ue_jv_number(v));
    else if (ue_jv_is(v, UE_JV_STRING))
        r = ue_extras_set_string(x, key, ue_jv_string(v));
    else
        gr_warn(c, "gltf.extras.skipped", path, "\"%s\" is not a number or string: left out", key);
    if (r == UE_ERR_NOMEM) {
        ue_parse_fail(&c->pc, UE_ERR_NOMEM);
        return false;
    }
    if (r == UE_ERR_USAGE) /* a key the exporter reserves ("fps" outside a clip) */
        gr_warn(c, "gltf.extras.skipped", path, "reserved key \"%s\" left out", key);
    return true;
}

/* A LOD or group as convert writes it: a whole number 0..99 or "all". */
static bool selection_choice(const ue_jv *v, int *out) {
    if (ue_jv_is(v, UE_JV_STRING) && !strcmp(ue_jv_string(v), "all")) return *out = UE_SELECTION_ALL, true;
    if (!ue_jv_is(v, UE_JV_INTEGER) || ue_jv_integer(v) < 0 || ue_jv_integer(v) > 99) return false;
    *out = (int)ue_jv_integer(v);
    return true;
}

static bool selection_text(const ue_jv *v, char *out, size_t cap) {
    if (!ue_jv_is(v, UE_JV_STRING) || strlen(ue_jv_string(v)) >= cap) return false;
    snprintf(out, cap, "%s", ue_jv_string(v));
    return true;
}

static bool selection_number(const ue_jv *v, double lo, double hi, double *out) {
    if (!ue_jv_is_number(v) || !(ue_jv_number(v) > lo && ue_jv_number(v) <= hi)) return false;
    *out = ue_jv_number(v);
    return true;
}

void gr_selection(gr_ctx *c, const ue_jv *asset) {
    const ue_jv *ex = ue_jv_get(asset, "extras"), *sel = ex ? ue_jv_get(ex, "unearth_selection") : NULL;
    if (!sel) return;
    ue_scene_selection got = {0};
    const ue_jv *lod = ue_jv_get(sel, "lod"), *group = ue_jv_get(sel, "group"), *v;
    double fps = 0, scale = 0;
    bool ok = ue_jv_is(sel, UE_JV_OBJECT) && (!lod) == (!group);
    if (ok && (v = ue_jv_get(sel, "format"))) ok = selection_text(v, got.format, sizeof got.format);
    if (ok && (v = ue_jv_get(sel, "file"))) ok = selection_text(v, got.file, sizeof got.file);
    if (ok && (v = ue_jv_get(sel, "entry"))) ok = selection_text(v, got.entry, sizeof got.entry);
    if (ok && lod) ok = selection_choice(lod, &got.lod) && selection_choice(group, &got.group);
    if (ok && (v = ue_jv_get(sel, "fps"))) ok = selection_number(v, 0, 1000, &fps);
    if (ok && (v = ue_jv_get(sel, "scale"))) ok = selection_number(v, 0, 1e6, &scale);
    if (!ok) {
        gr_warn(c, "gltf.extras.selection", "/asset/extras/unearth_selection",
                "not what convert writes (format, file, entry: strings; lod and group: both, each 0..99 or "
                "\"all\"; fps in (0, 1000]; scale > 0): left out");
        return;
    }
    got.recorded = true;
    got.has_lod = lod != NULL;
    got.fps = (float)fps;
    got.scale = scale;
    c->s->selection = got;
}

bool gr_extras(gr_ctx *c, const ue_jv *obj, const char *path, ue_source_id *src, ue_extras *x,
               ue_scene_animation *clip) {
    bool ok = true;
    const ue_jv *ex = ue_jv_get(obj, "extras");
    if (!ex) return true;
    char p[160];
    key_path(p, sizeof p, path, "extras");
    if (!ue_jv_is(ex, UE_JV_OBJECT)) {
        gr_warn(c, "gltf.extras.skipped", p, "extras that are not an object are left out");
        return true;
    }
    UE_JV_FOR_MEMBERS(ex, m) {
        const char *key = m->key;
        const ue_jv *v = &m->value;
        char kp[160];
        key_path(kp, sizeof kp, p, key);
        if (strcmp(key, "unearth_source") == 0) {
            if (src) ok = ok && read_source(c, v, kp, src);
        } else if (strcmp(key, "unearth_clip") == 0 && clip) {
            ok = ok && read_clip(c, v, kp, clip);
        } else if (strcmp(key, "fps") == 0 && clip) {
            /* the exporter's copy of unearth_clip.fps; a lone one is the clip rate */
            if (ue_jv_is_number(v) && clip->fps == 0) clip->fps = (float)ue_jv_number(v);
        } else if (x) {
            ok = ok && read_pair(c, key, v, p, x);
        } else {
            gr_warn(c, "gltf.extras.skipped", kp, "the IR keeps no extras here: left out");
        }
    }
    return ok;
}

bool gr_other_extensions(gr_ctx *c, const ue_jv *obj, const char *path, const char *known) {
    const ue_jv *ext = ue_jv_get(obj, "extensions");
    if (!ext) return true;
    char p[160];
    key_path(p, sizeof p, path, "extensions");
    if (!ue_jv_is(ext, UE_JV_OBJECT)) return gr_fail(c, "gltf.json.type", UE_NO_OFFSET, p, "expected an object");
    UE_JV_FOR_MEMBERS(ext, m) {
        const char *name = m->key;
        if (known && strcmp(name, known) == 0) continue;
        char kp[200];
        snprintf(kp, sizeof kp, "%s/%s", p, name);
        gr_warn(c, "gltf.extension.skipped", kp, "extension not read: what it adds is left out");
    }
    return true;
}
