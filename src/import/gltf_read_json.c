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

json_t *gr_array(gr_ctx *c, json_t *obj, const char *key, const char *path, bool *ok) {
    json_t *v = json_object_get(obj, key);
    if (!v) return NULL;
    if (json_is_array(v)) return v;
    char p[160];
    key_path(p, sizeof p, path, key);
    *ok = gr_fail(c, "gltf.json.type", UE_NO_OFFSET, p, "expected an array");
    return NULL;
}

json_t *gr_object(gr_ctx *c, json_t *obj, const char *key, const char *path, bool *ok) {
    json_t *v = json_object_get(obj, key);
    if (!v) return NULL;
    if (json_is_object(v)) return v;
    char p[160];
    key_path(p, sizeof p, path, key);
    *ok = gr_fail(c, "gltf.json.type", UE_NO_OFFSET, p, "expected an object");
    return NULL;
}

bool gr_uint(gr_ctx *c, json_t *obj, const char *key, uint64_t max, uint64_t def, bool required,
             const char *path, uint64_t *out) {
    json_t *v = json_object_get(obj, key);
    char p[160];
    key_path(p, sizeof p, path, key);
    *out = def;
    if (!v) {
        if (required) return gr_fail(c, "gltf.json.missing", UE_NO_OFFSET, p, "required");
        return true;
    }
    if (!json_is_integer(v) || json_integer_value(v) < 0 ||
        (uint64_t)json_integer_value(v) > max)
        return gr_fail(c, "gltf.json.range", UE_NO_OFFSET, p,
                       "expected an integer in 0..%llu", (unsigned long long)max);
    *out = (uint64_t)json_integer_value(v);
    return true;
}

bool gr_index(gr_ctx *c, json_t *obj, const char *key, size_t limit, bool required,
              const char *path, int32_t *out) {
    json_t *v = json_object_get(obj, key);
    char p[160];
    key_path(p, sizeof p, path, key);
    *out = -1;
    if (!v) {
        if (required) return gr_fail(c, "gltf.json.missing", UE_NO_OFFSET, p, "required");
        return true;
    }
    if (!json_is_integer(v) || json_integer_value(v) < 0 ||
        (uint64_t)json_integer_value(v) >= (uint64_t)limit)
        return gr_fail(c, "gltf.index.range", UE_NO_OFFSET, p,
                       "expected an index below %zu (the number of objects it names)", limit);
    *out = (int32_t)json_integer_value(v);
    return true;
}

bool gr_number(gr_ctx *c, json_t *obj, const char *key, double def, const char *path, double *out) {
    json_t *v = json_object_get(obj, key);
    *out = def;
    if (!v) return true;
    if (!json_is_number(v) || !isfinite(json_number_value(v))) {
        char p[160];
        key_path(p, sizeof p, path, key);
        return gr_fail(c, "gltf.json.type", UE_NO_OFFSET, p, "expected a finite number");
    }
    *out = json_number_value(v);
    return true;
}

bool gr_floats(gr_ctx *c, json_t *obj, const char *key, size_t n, const char *path, float *out,
               bool *present) {
    json_t *v = json_object_get(obj, key);
    if (present) *present = v != NULL;
    if (!v) return true;
    char p[160];
    key_path(p, sizeof p, path, key);
    if (!json_is_array(v) || json_array_size(v) != n)
        return gr_fail(c, "gltf.json.type", UE_NO_OFFSET, p, "expected an array of %zu numbers", n);
    for (size_t i = 0; i < n; i++) {
        json_t *e = json_array_get(v, i);
        double x = json_is_number(e) ? json_number_value(e) : NAN;
        if (!isfinite(x) || fabs(x) > 3.0e38)
            return gr_fail(c, "gltf.json.type", UE_NO_OFFSET, p,
                           "element %zu is not a finite float", i);
        out[i] = (float)x;
    }
    return true;
}

bool gr_string(gr_ctx *c, json_t *obj, const char *key, const char *def, const char *path,
               const char **out) {
    json_t *v = json_object_get(obj, key);
    *out = def;
    if (!v) return true;
    if (!json_is_string(v)) {
        char p[160];
        key_path(p, sizeof p, path, key);
        return gr_fail(c, "gltf.json.type", UE_NO_OFFSET, p, "expected a string");
    }
    *out = json_string_value(v);
    return true;
}

bool gr_bool(gr_ctx *c, json_t *obj, const char *key, bool def, const char *path, bool *out) {
    json_t *v = json_object_get(obj, key);
    *out = def;
    if (!v) return true;
    if (!json_is_boolean(v)) {
        char p[160];
        key_path(p, sizeof p, path, key);
        return gr_fail(c, "gltf.json.type", UE_NO_OFFSET, p, "expected true or false");
    }
    *out = json_is_true(v);
    return true;
}

bool gr_name(gr_ctx *c, json_t *obj, const char *path, char out[64]) {
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
static bool read_source(gr_ctx *c, json_t *v, const char *path, ue_source_id *src) {
    const char *format;
    uint64_t type, index, offset;
    if (!json_is_object(v))
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
static bool read_clip(gr_ctx *c, json_t *v, const char *path, ue_scene_animation *clip) {
    double fps, start, end;
    bool loop;
    if (!json_is_object(v))
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
static bool read_pair(gr_ctx *c, const char *key, json_t *v, const char *path, ue_extras *x) {
    ue_result r = UE_OK;
    if (strlen(key) == 0 || strlen(key) >= sizeof ((ue_extra *)0)->key) {
        gr_warn(c, "gltf.extras.skipped", path, "key of %zu bytes left out (1..47 fit)", strlen(key));
        return true;
    }
    if (json_is_number(v) && isfinite(json_number_value(v)))
        r = ue_extras_set_number(x, key, json_number_value(v));
    else if (json_is_string(v))
        r = ue_extras_set_string(x, key, json_string_value(v));
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
static bool selection_choice(json_t *v, int *out) {
    if (json_is_string(v) && !strcmp(json_string_value(v), "all")) return *out = UE_SELECTION_ALL, true;
    if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > 99) return false;
    *out = (int)json_integer_value(v);
    return true;
}

static bool selection_text(json_t *v, char *out, size_t cap) {
    if (!json_is_string(v) || strlen(json_string_value(v)) >= cap) return false;
    snprintf(out, cap, "%s", json_string_value(v));
    return true;
}

static bool selection_number(json_t *v, double lo, double hi, double *out) {
    if (!json_is_number(v) || !(json_number_value(v) > lo && json_number_value(v) <= hi)) return false;
    *out = json_number_value(v);
    return true;
}

void gr_selection(gr_ctx *c, json_t *asset) {
    json_t *ex = json_object_get(asset, "extras"), *sel = ex ? json_object_get(ex, "unearth_selection") : NULL;
    if (!sel) return;
    ue_scene_selection got = {0};
    json_t *lod = json_object_get(sel, "lod"), *group = json_object_get(sel, "group"), *v;
    double fps = 0, scale = 0;
    bool ok = json_is_object(sel) && (!lod) == (!group);
    if (ok && (v = json_object_get(sel, "format"))) ok = selection_text(v, got.format, sizeof got.format);
    if (ok && (v = json_object_get(sel, "file"))) ok = selection_text(v, got.file, sizeof got.file);
    if (ok && (v = json_object_get(sel, "entry"))) ok = selection_text(v, got.entry, sizeof got.entry);
    if (ok && lod) ok = selection_choice(lod, &got.lod) && selection_choice(group, &got.group);
    if (ok && (v = json_object_get(sel, "fps"))) ok = selection_number(v, 0, 1000, &fps);
    if (ok && (v = json_object_get(sel, "scale"))) ok = selection_number(v, 0, 1e6, &scale);
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

bool gr_extras(gr_ctx *c, json_t *obj, const char *path, ue_source_id *src, ue_extras *x,
               ue_scene_animation *clip) {
    bool ok = true;
    json_t *ex = json_object_get(obj, "extras");
    if (!ex) return true;
    char p[160];
    key_path(p, sizeof p, path, "extras");
    if (!json_is_object(ex)) {
        gr_warn(c, "gltf.extras.skipped", p, "extras that are not an object are left out");
        return true;
    }
    const char *key;
    json_t *v;
    json_object_foreach(ex, key, v) {
        char kp[160];
        key_path(kp, sizeof kp, p, key);
        if (strcmp(key, "unearth_source") == 0) {
            if (src) ok = ok && read_source(c, v, kp, src);
        } else if (strcmp(key, "unearth_clip") == 0 && clip) {
            ok = ok && read_clip(c, v, kp, clip);
        } else if (strcmp(key, "fps") == 0 && clip) {
            /* the exporter's copy of unearth_clip.fps; a lone one is the clip rate */
            if (json_is_number(v) && clip->fps == 0) clip->fps = (float)json_number_value(v);
        } else if (x) {
            ok = ok && read_pair(c, key, v, p, x);
        } else {
            gr_warn(c, "gltf.extras.skipped", kp, "the IR keeps no extras here: left out");
        }
    }
    return ok;
}

bool gr_other_extensions(gr_ctx *c, json_t *obj, const char *path, const char *known) {
    json_t *ext = json_object_get(obj, "extensions"), *v;
    const char *name;
    if (!ext) return true;
    char p[160];
    key_path(p, sizeof p, path, "extensions");
    if (!json_is_object(ext)) return gr_fail(c, "gltf.json.type", UE_NO_OFFSET, p, "expected an object");
    json_object_foreach(ext, name, v) {
        (void)v;
        if (known && strcmp(name, known) == 0) continue;
        char kp[200];
        snprintf(kp, sizeof kp, "%s/%s", p, name);
        gr_warn(c, "gltf.extension.skipped", kp, "extension not read: what it adds is left out");
    }
    return true;
}
