/* unearth — glTF 2.0 import into the scene IR: GLB framing or plain JSON, the document's
 * required extensions, then each part in dependency order, and the IR's own validation last. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "common/text.h"
#include "import/gltf_read_int.h"
#include "unearth/gltf_read.h"

/* JSON text larger than this is refused before parsing: the parsed document costs a multiple of it. */
#define GR_MAX_JSON ((size_t)256 << 20)
/* A .gltf or .glb file larger than this is refused by ue_gltf_read_file. */
#define GR_MAX_FILE ((size_t)1 << 31)

bool gr_fail(gr_ctx *c, const char *code, uint64_t offset, const char *path, const char *fmt, ...) {
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ue_parse_error(&c->pc, code, offset, path[0] ? path : "/", "%s", msg);
    return false;
}

void gr_warn(gr_ctx *c, const char *code, const char *path, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    ue_diag_addv(c->pc.d, UE_SEV_WARNING, code, UE_NO_OFFSET, path[0] ? path : "/", fmt, ap);
    va_end(ap);
}

bool gr_charge(gr_ctx *c, size_t bytes, const char *path) {
    if (bytes > c->budget) {
        gr_fail(c, "gltf.limit", UE_NO_OFFSET, path,
                "decoding %zu more bytes passes the limit for a %zu-byte input (bounded work)",
                bytes, c->input_bytes);
        c->pc.failure = UE_ERR_LIMIT;
        return false;
    }
    c->budget -= bytes;
    return true;
}

/* GLB: 12-byte header, a JSON chunk, then optionally a BIN chunk; other chunks are skipped. */
static bool read_glb(gr_ctx *c, const uint8_t *p, size_t size, const uint8_t **json,
                     size_t *json_size) {
    uint32_t version = ue_load_u32le(p + 4), length = ue_load_u32le(p + 8);
    if (version != 2)
        return gr_fail(c, "gltf.glb.version", 4, "glb/header", "GLB version %u (2 expected)", version);
    if (length > size || length < 20)
        return gr_fail(c, "gltf.glb.length", 8, "glb/header",
                       "total length %u but %zu bytes are present", length, size);
    size_t off = 12;
    for (int chunk = 0; off + 8 <= length; chunk++) {
        uint32_t clen = ue_load_u32le(p + off), ctype = ue_load_u32le(p + off + 4);
        char cp[32];
        snprintf(cp, sizeof cp, "glb/chunk[%d]", chunk);
        if (!ue_range_ok(off + 8, clen, length))
            return gr_fail(c, "gltf.glb.chunk", off, cp, "chunk of %u bytes passes the end (%u)",
                           clen, length);
        if (chunk == 0 && ctype != 0x4E4F534Au)
            return gr_fail(c, "gltf.glb.chunk", off + 4, cp, "the first chunk is not JSON");
        if (chunk == 0) {
            *json = p + off + 8;
            *json_size = clen;
        } else if (chunk == 1 && ctype == 0x004E4942u) {
            c->bin = p + off + 8;
            c->bin_size = clen;
            c->bin_offset = off + 8;
        }
        off += 8 + (size_t)clen;
    }
    if (!*json) return gr_fail(c, "gltf.glb.chunk", 12, "glb", "no JSON chunk");
    return true;
}

static bool parse_json(gr_ctx *c, const uint8_t *text, size_t n, uint64_t base) {
    if (n > GR_MAX_JSON)
        return gr_fail(c, "gltf.json.size", base, "/", "JSON of %zu bytes (at most %zu)", n,
                       GR_MAX_JSON);
    ue_jdoc_error err;
    ue_result r = ue_jdoc_parse((const char *)text, n, &c->doc, &err);
    if (r == UE_ERR_NOMEM) return ue_parse_fail(&c->pc, UE_ERR_NOMEM), false;
    if (r != UE_OK)
        return gr_fail(c, "gltf.json.syntax", base + err.offset, "/", "line %zu column %zu: %s",
                       err.line, err.column, err.text);
    c->root = &c->doc.root;
    if (!ue_jv_is(c->root, UE_JV_OBJECT))
        return gr_fail(c, "gltf.json.type", base, "/", "the document is not a JSON object");
    return true;
}

/* asset.version must be 2.x; extensionsRequired may only name what we read. */
static bool check_asset(gr_ctx *c) {
    static const char *const known[] = {"KHR_texture_transform", "KHR_materials_unlit",
                                        "KHR_node_visibility", "KHR_animation_pointer",
                                        "KHR_mesh_quantization"};
    bool ok = true;
    const ue_jv *asset = gr_object(c, c->root, "asset", "", &ok);
    const char *version;
    if (!ok || !asset) return gr_fail(c, "gltf.asset", UE_NO_OFFSET, "/asset", "required");
    if (!gr_string(c, asset, "version", "", "/asset", &version)) return false;
    if (strncmp(version, "2.", 2) != 0)
        return gr_fail(c, "gltf.asset", UE_NO_OFFSET, "/asset/version",
                       "glTF version \"%s\" (2.x expected)", version);
    gr_selection(c, asset);
    const ue_jv *req = gr_array(c, c->root, "extensionsRequired", "", &ok);
    for (size_t i = 0; i < ue_jv_items(req); i++) {
        const ue_jv *e = ue_jv_at(req, i);
        bool found = false;
        for (size_t k = 0; k < sizeof known / sizeof *known; k++)
            found = found || (ue_jv_is(e, UE_JV_STRING) && strcmp(ue_jv_string(e), known[k]) == 0);
        if (!found)
            ok = gr_fail(c, "gltf.extension", UE_NO_OFFSET, "/extensionsRequired",
                         "required extension %s is not supported",
                         ue_jv_is(e, UE_JV_STRING) ? ue_jv_string(e) : "(not a string)");
    }
    return ok;
}

/* The scene name; a document with several scenes keeps every node (the IR has one scene). */
static bool read_scene_name(gr_ctx *c) {
    bool ok = true;
    const ue_jv *scenes = gr_array(c, c->root, "scenes", "", &ok);
    int32_t scene;
    if (!ok || !gr_index(c, c->root, "scene", ue_jv_items(scenes), false, "", &scene))
        return false;
    if (ue_jv_items(scenes) > 1)
        gr_warn(c, "gltf.scene.several", "/scenes",
                "%zu scenes: their nodes are read into one IR scene", ue_jv_items(scenes));
    if (scene < 0 && ue_jv_items(scenes) > 0) scene = 0;
    if (scene < 0) return true;
    const ue_jv *sc = ue_jv_at(scenes, (size_t)scene);
    char path[32];
    snprintf(path, sizeof path, "/scenes/%d", (int)scene);
    if (!ue_jv_is(sc, UE_JV_OBJECT))
        return gr_fail(c, "gltf.json.type", UE_NO_OFFSET, path, "expected an object");
    return gr_name(c, sc, path, c->s->name);
}

static void free_ctx(gr_ctx *c) {
    for (size_t i = 0; i < c->buffer_count; i++) free(c->buffers[i].owned);
    free(c->buffers);
    for (size_t i = 0; i < c->file_count; i++) {
        free(c->files[i].path);
        free(c->files[i].data);
    }
    free(c->files);
    ue_jdoc_free(&c->doc);
}

static bool read_document(gr_ctx *c) {
    return check_asset(c) && read_scene_name(c) && gr_read_buffers(c) && gr_read_materials(c) &&
           gr_read_meshes(c) && gr_read_nodes(c) && gr_read_skins(c) && gr_read_animations(c);
}

/* Appends a copy of `path` to the list; false when memory runs out. */
static bool list_file(ue_gltf_files *list, const char *path) {
    char **grown = realloc(list->paths, (list->count + 1) * sizeof *grown);
    if (!grown) return false;
    list->paths = grown;
    char *copy = malloc(strlen(path) + 1);
    if (!copy) return false;
    strcpy(copy, path);
    list->paths[list->count++] = copy;
    return true;
}

static ue_result read_listed(const uint8_t *data, size_t size, const char *base_dir, ue_mode mode,
                             ue_scene *out, ue_gltf_files *opened, ue_diag *d) {
    if (!out || (!data && size)) return UE_ERR_USAGE;
    gr_ctx c = {0};
    c.pc = ue_parse_begin(mode, d);
    c.s = out;
    c.base_dir = base_dir;
    c.input_bytes = size;
    const uint8_t *json = NULL;
    size_t json_size = size;
    uint64_t json_base = 0;
    if (size >= 12 && memcmp(data, "glTF", 4) == 0) {
        if (!read_glb(&c, data, size, &json, &json_size)) return c.pc.failure;
        json_base = (uint64_t)(json - data);
    } else {
        json = data ? data : (const uint8_t *)"";
    }
    if (parse_json(&c, json, json_size, json_base) && read_document(&c) &&
        ue_scene_validate(out, d) != UE_OK)
        gr_fail(&c, "gltf.scene.invalid", UE_NO_OFFSET, "/",
                "the document reads into a scene that fails validation (see above)");
    bool listed = true;
    for (size_t i = 0; opened && listed && i < c.file_count; i++) listed = list_file(opened, c.files[i].path);
    free_ctx(&c);
    return listed ? c.pc.failure : UE_ERR_NOMEM;
}

bool ue_gltf_probe(const uint8_t *head, size_t size) {
    if (size >= 4 && memcmp(head, "glTF", 4) == 0) return true;
    size_t i = size >= 3 && memcmp(head, "\xef\xbb\xbf", 3) == 0 ? 3 : 0; /* a UTF-8 byte order mark */
    while (i < size && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n')) i++;
    return i < size && head[i] == '{';
}

ue_result ue_gltf_read(const uint8_t *data, size_t size, const char *base_dir, ue_mode mode,
                       ue_scene *out, ue_diag *d) {
    return read_listed(data, size, base_dir, mode, out, NULL, d);
}

ue_result ue_gltf_read_file_listed(const char *path, ue_mode mode, ue_scene *out,
                                   ue_gltf_files *opened, ue_diag *d) {
    if (!path || !out) return UE_ERR_USAGE;
    if (opened && !list_file(opened, path)) return UE_ERR_NOMEM;
    uint8_t *data;
    size_t size;
    ue_result r = ue_file_read(path, GR_MAX_FILE, &data, &size, d);
    if (r != UE_OK) return r;
    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (slash) snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    else snprintf(dir, sizeof dir, ".");
    if (slash == path) snprintf(dir, sizeof dir, "/");
    r = read_listed(data, size, dir, mode, out, opened, d);
    free(data);
    return r;
}

ue_result ue_gltf_read_file(const char *path, ue_mode mode, ue_scene *out, ue_diag *d) {
    return ue_gltf_read_file_listed(path, mode, out, NULL, d);
}

void ue_gltf_files_free(ue_gltf_files *files) {
    if (!files) return;
    for (size_t i = 0; i < files->count; i++) free(files->paths[i]);
    free(files->paths);
    files->paths = NULL;
    files->count = 0;
}
