/* unearth — glTF 2.0 writer entry: validates, plans the channels, runs the binary side
 * (gltf_buffers.c) then the JSON (gltf_json.c), and wraps both as .glb or .gltf + .bin. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/gltf_exporter.h"
#include "unearth/image.h"
#include "common/json_writer.h"
#include "common/bytes.h"
#include "common/io.h"
#include "common/text.h"

static const char *target_name(ue_anim_target t) {
    static const char *const names[UE_TARGET_COUNT] = {
        "translation", "rotation",  "scale",    "visibility", "base colour",
        "alpha",       "UV offset", "UV scale", "UV rotation", "texture index"};
    return (unsigned)t < UE_TARGET_COUNT ? names[t] : "unknown";
}

/* Decides how every channel is written and numbers the written samplers per animation;
 * what glTF cannot express is reported as a warning naming it, never dropped silently. */
static bool omitted_pointer(const exporter *e, ue_gltf_channel_form form) {
    return e->o->no_animation_pointer && (form == UE_GLTF_CHANNEL_POINTER || form == UE_GLTF_CHANNEL_MERGED);
}

/* The plan of one clip; returns the channels --no-animation-pointer left out. */
static size_t plan_animation(exporter *e, size_t a) {
    const ue_scene_animation *an = &e->s->animations[a];
    int32_t written = 0;
    size_t omitted = 0;
    for (size_t c = 0; c < an->channel_count; c++) {
        chan_plan *pl = &e->plans[e->chan_base[a] + c];
        const char *why = NULL;
        pl->form = ue_gltf_channel_pointer(e->s, a, c, pl->pointer, sizeof pl->pointer, &why);
        pl->alpha = -1;
        pl->sampler = -1;
        e->samplers[e->chan_base[a] + c].input = e->samplers[e->chan_base[a] + c].output = -1;
        if (omitted_pointer(e, pl->form)) {
            pl->form = UE_GLTF_CHANNEL_UNSUPPORTED; /* said once for the whole file */
            omitted++;
        } else if (pl->form == UE_GLTF_CHANNEL_UNSUPPORTED) {
            char path[160];
            snprintf(path, sizeof path, "scene/animations[%zu]/channels[%zu]", a, c);
            ue_diag_add(e->d, UE_SEV_WARNING, "gltf.anim.unsupported", UE_NO_OFFSET, path,
                        "%s channel of animation \"%.64s\" left out: %s",
                        target_name(an->channels[c].target), an->name, why);
        } else if (pl->form != UE_GLTF_CHANNEL_MERGED) {
            pl->sampler = written++;
        }
    }
    /* An alpha folded into a colour channel is written by that channel. */
    for (size_t c = 0; c < an->channel_count; c++) {
        if (e->plans[e->chan_base[a] + c].form != UE_GLTF_CHANNEL_MERGED) continue;
        for (size_t c2 = 0; c2 < an->channel_count; c2++)
            if (an->channels[c2].target == UE_TARGET_BASE_COLOR &&
                an->channels[c2].material == an->channels[c].material)
                e->plans[e->chan_base[a] + c2].alpha = (int32_t)c;
    }
    if (written == 0 && an->channel_count > omitted) {
        char path[64];
        snprintf(path, sizeof path, "scene/animations[%zu]", a);
        ue_diag_add(e->d, UE_SEV_WARNING, "gltf.anim.empty", UE_NO_OFFSET, path,
                    "animation \"%.64s\" has no channel glTF can express; left out", an->name);
    }
    return omitted;
}

/* Decides how every channel is written and numbers the written samplers per animation;
 * what glTF cannot express is reported as a warning naming it, never dropped silently. */
static void plan_channels(exporter *e) {
    const ue_scene *s = e->s;
    size_t nch = 0, omitted = 0;
    for (size_t a = 0; a < s->animation_count; a++) {
        e->chan_base[a] = nch;
        nch += s->animations[a].channel_count;
    }
    for (size_t a = 0; a < s->animation_count; a++) omitted += plan_animation(e, a);
    if (omitted)
        ue_diag_add(e->d, UE_SEV_INFO, "gltf.anim.no_pointer", UE_NO_OFFSET, "scene/animations",
                    "%zu KHR_animation_pointer channels (material, UV, visibility) left out as asked "
                    "(--no-animation-pointer)", omitted);
    /* The same rule as ue_gltf_node_has_visibility, over the channels that are written. */
    for (size_t i = 0; i < s->node_count; i++) e->node_visibility[i] = s->nodes[i].hidden;
    for (size_t a = 0; a < s->animation_count; a++)
        for (size_t c = 0; c < s->animations[a].channel_count; c++) {
            const ue_anim_channel *ch = &s->animations[a].channels[c];
            if (ch->target == UE_TARGET_VISIBILITY && e->plans[e->chan_base[a] + c].sampler >= 0)
                e->node_visibility[ch->node] = true;
        }
}

/* Texture slots whose role glTF has no place for (or a second slot of one role, or generated
 * coordinates): written to the material's extras.unearth_textures instead, and noted. */
static void report_unwritten_slots(exporter *e) {
    static const char *const roles[] = {"base colour", "normal",     "emissive", "occlusion",
                                        "metallic-roughness", "specular", "reflection", "other"};
    for (size_t i = 0; i < e->s->material_count; i++) {
        const ue_scene_material *m = &e->s->materials[i];
        for (size_t k = 0; k < m->slot_count; k++) {
            if (ue_gltf_slot_location(m, k)) continue;
            char path[160];
            snprintf(path, sizeof path, "scene/materials[%zu]/slots[%zu]", i, k);
            ue_diag_add(e->d, UE_SEV_INFO, "gltf.material.slot", UE_NO_OFFSET, path,
                        "%s texture slot of material \"%.64s\" has no glTF place (its role, "
                        "an earlier slot of the role, or generated coordinates): kept in the "
                        "material's extras.unearth_textures",
                        roles[m->slots[k].role], m->name);
        }
    }
}

static void exporter_free(exporter *e) {
    ue_buf_free(&e->bin);
    free(e->acc);
    free(e->views);
    free(e->prims);
    free(e->prim_base);
    free(e->skin_ibm);
    free(e->samplers);
    free(e->plans);
    free(e->node_visibility);
    free(e->chan_base);
    free(e->image_view);
    free(e->texture_image);
    free(e->texture_sampler);
    free(e->gl_samplers);
    free(e->child_start);
    free(e->child_list);
}

/* Children in ascending node order, by counting sort over the parent links (validated). */
static void build_children(exporter *e) {
    const ue_scene *s = e->s;
    for (size_t i = 0; i < s->node_count; i++)
        if (s->nodes[i].parent >= 0) e->child_start[(size_t)s->nodes[i].parent + 1]++;
    for (size_t i = 0; i < s->node_count; i++) e->child_start[i + 1] += e->child_start[i];
    size_t *cursor = calloc(s->node_count + 1, sizeof *cursor);
    if (!cursor) {
        e->nomem = true;
        return;
    }
    memcpy(cursor, e->child_start, (s->node_count + 1) * sizeof *cursor);
    for (size_t i = 0; i < s->node_count; i++)
        if (s->nodes[i].parent >= 0) e->child_list[cursor[s->nodes[i].parent]++] = i;
    free(cursor);
}


/* The GLB's headers and JSON chunk (total bytes in all, the JSON padded by jpad spaces). */
static void glb_head(uint8_t *at, const ue_buf *json, size_t jpad, uint64_t total, size_t bin_size) {
    memcpy(at, "glTF", 4);
    ue_store_u32le(at + 4, 2);
    ue_store_u32le(at + 8, (uint32_t)total);
    ue_store_u32le(at + 12, (uint32_t)(json->size + jpad));
    memcpy(at + 16, "JSON", 4);
    memcpy(at + 20, json->data, json->size);
    memset(at + 20 + json->size, ' ', jpad);
    if (bin_size) {
        ue_store_u32le(at + 20 + json->size + jpad, (uint32_t)bin_size); /* already 4-aligned */
        memcpy(at + 24 + json->size + jpad, "BIN\0", 4);
    }
}

/* An empty main_out (the usual case) becomes the binary buffer itself, its bytes moved up behind
 * the headers and JSON written in front: the largest part is not copied into fresh memory. False
 * (nothing changed) when main_out holds bytes or the buffer cannot grow; then the caller copies. */
static bool glb_in_place(ue_buf *bin, const ue_buf *json, size_t jpad, uint64_t total, ue_buf *main_out) {
    size_t head = (size_t)total - bin->size;
    if (main_out->data || main_out->size || main_out->failed || (main_out->limit && total > main_out->limit))
        return false;
    if (!bin->size || bin->failed) return false;
    if (!ue_buf_reserve(bin, head)) {
        bin->failed = false; /* (a failed reserve leaves the bytes; the copy decides) */
        return false;
    }
    memmove(bin->data + head, bin->data, bin->size);
    glb_head(bin->data, json, jpad, total, bin->size);
    bin->size += head;
    bin->limit = main_out->limit;
    *main_out = *bin;
    memset(bin, 0, sizeof *bin);
    return true;
}

ue_result ue_gltf_export(const ue_scene *s, const ue_gltf_options *o, ue_buf *main_out,
                         ue_buf *bin_out, ue_diag *d) {
    static const ue_gltf_options defaults;
    if (!o) o = &defaults;
    if (!s || !main_out || (o->format == UE_GLTF_SEPARATE && !bin_out) ||
        (o->format != UE_GLTF_GLB && o->format != UE_GLTF_SEPARATE)) {
        ue_diag_add(d, UE_SEV_ERROR, "gltf.usage", UE_NO_OFFSET, "gltf",
                    "missing scene/output buffer or unknown format");
        return UE_ERR_USAGE;
    }
    /* Refuse what would produce an invalid file; warnings pass through to the caller. */
    ue_diag local = {0};
    ue_diag *vd = d ? d : &local;
    size_t before = ue_diag_count(vd, UE_SEV_ERROR);
    ue_result vr = ue_scene_validate(s, vd);
    ue_result pr = vr == UE_OK ? ue_gltf_check_pointers(s, vd) : UE_OK;
    bool refused = vr != UE_OK || pr != UE_OK || ue_diag_count(vd, UE_SEV_ERROR) > before;
    ue_diag_free(&local);
    if (refused) return UE_ERR_INVALID;

    exporter e = {0};
    e.s = s;
    e.o = o;
    e.d = d;
    size_t nprim = 0, nch = 0;
    for (size_t m = 0; m < s->mesh_count; m++) nprim += s->meshes[m].primitive_count;
    for (size_t a = 0; a < s->animation_count; a++) nch += s->animations[a].channel_count;
    e.prims = ue_calloc_items(nprim, sizeof *e.prims);
    e.prim_base = ue_calloc_items(s->mesh_count, sizeof *e.prim_base);
    e.skin_ibm = ue_calloc_items(s->skin_count, sizeof *e.skin_ibm);
    e.samplers = ue_calloc_items(nch, sizeof *e.samplers);
    e.plans = ue_calloc_items(nch, sizeof *e.plans);
    e.node_visibility = ue_calloc_items(s->node_count, sizeof *e.node_visibility);
    e.chan_base = ue_calloc_items(s->animation_count, sizeof *e.chan_base);
    e.image_view = ue_calloc_items(s->texture_count, sizeof *e.image_view);
    e.texture_image = ue_calloc_items(s->texture_count, sizeof *e.texture_image);
    e.texture_sampler = ue_calloc_items(s->texture_count, sizeof *e.texture_sampler);
    e.gl_samplers = ue_calloc_items(s->texture_count, sizeof *e.gl_samplers);
    e.child_start = calloc(s->node_count + 1, sizeof *e.child_start);
    e.child_list = ue_calloc_items(s->node_count, sizeof *e.child_list);
    ue_result rc = UE_ERR_NOMEM;
    ue_buf json = {0};
    if (!e.prims || !e.prim_base || !e.skin_ibm || !e.samplers || !e.plans ||
        !e.node_visibility || !e.chan_base ||
        !e.image_view || !e.texture_image || !e.texture_sampler || !e.gl_samplers || !e.child_start || !e.child_list)
        goto out;
    build_children(&e);
    plan_channels(&e);
    report_unwritten_slots(&e);
    ue_gltf_write_binary(&e);
    if (e.nomem) goto out;

    ue_json j;
    ue_json_init(&j, &json, o->pretty ? 2 : 0);
    ue_gltf_write_json(&e, &j);
    rc = ue_json_finish(&j, d);
    if (rc != UE_OK) goto out;

    if (o->format == UE_GLTF_GLB) {
        size_t jpad = (4 - json.size % 4) % 4;
        uint64_t total = 12 + 8 + (uint64_t)json.size + jpad + (e.bin.size ? 8 + e.bin.size : 0);
        if (total > UINT32_MAX) {
            ue_diag_add(d, UE_SEV_ERROR, "gltf.glb.size", UE_NO_OFFSET, "gltf",
                        "GLB would be %llu bytes, over the 4 GiB the format allows",
                        (unsigned long long)total);
            rc = UE_ERR_NOMEM;
            goto out;
        }
        if (glb_in_place(&e.bin, &json, jpad, total, main_out)) goto out;
        if (!ue_buf_reserve(main_out, (size_t)total)) { /* one allocation, the bytes copied once */
            rc = UE_ERR_NOMEM;
            goto out;
        }
        uint8_t *at = main_out->data + main_out->size;
        glb_head(at, &json, jpad, total, e.bin.size);
        if (e.bin.size) memcpy(at + ((size_t)total - e.bin.size), e.bin.data, e.bin.size);
        main_out->size += (size_t)total;
    } else {
        size_t m0 = main_out->size, b0 = bin_out->size;
        ue_buf_put(main_out, json.data, json.size);
        ue_buf_put(bin_out, e.bin.data, e.bin.size);
        if (main_out->failed || bin_out->failed) {
            if (main_out->size > m0) main_out->size = m0;
            if (bin_out->size > b0) bin_out->size = b0;
            rc = UE_ERR_NOMEM;
        }
    }
out:
    if (rc == UE_ERR_NOMEM && ue_diag_count(d, UE_SEV_ERROR) == 0)
        ue_diag_add(d, UE_SEV_ERROR, "gltf.nomem", UE_NO_OFFSET, "gltf",
                    "out of memory or over an output size limit");
    ue_buf_free(&json);
    exporter_free(&e);
    return rc;
}

bool ue_gltf_bin_path(const char *gltf_path, char *out, size_t cap) {
    size_t n = strlen(gltf_path);
    /* Extensions match in any case ("X.GLTF"), as file managers and the CLI treat them. */
    if (!ue_name_has_ext(gltf_path, ".gltf") || n + 1 > cap) return false;
    memcpy(out, gltf_path, n - 5);
    memcpy(out + n - 5, ".bin", 5);
    return true;
}

ue_result ue_gltf_write_file(const ue_scene *s, const char *path, bool pretty, bool overwrite,
                             ue_diag *d) {
    ue_gltf_options o = {.format = UE_GLTF_GLB, .pretty = pretty};
    return ue_gltf_write_file_opts(s, path, &o, overwrite, d);
}

ue_result ue_gltf_write_file_opts(const ue_scene *s, const char *path, const ue_gltf_options *opts,
                                  bool overwrite, ue_diag *d) {
    static const ue_gltf_options defaults;
    if (!opts) opts = &defaults;
    bool glb = ue_name_has_ext(path, ".glb");
    bool gltf = ue_name_has_ext(path, ".gltf");
    if (!glb && !gltf) {
        ue_diag_add(d, UE_SEV_ERROR, "gltf.usage", UE_NO_OFFSET, "gltf",
                    "output name must end in .glb or .gltf");
        return UE_ERR_USAGE;
    }
    char bin_path[4096];
    const char *bin_name = NULL;
    if (gltf) {
        if (!ue_gltf_bin_path(path, bin_path, sizeof bin_path)) return UE_ERR_USAGE;
        const char *slash = strrchr(bin_path, '/');
        bin_name = slash ? slash + 1 : bin_path;
    }
    /* Both names are checked before anything is written, so a refused run leaves no file. */
    const char *taken = !overwrite && ue_path_exists(path) ? path
                        : (!overwrite && gltf && ue_path_exists(bin_path) ? bin_path : NULL);
    if (taken) {
        ue_diag_add(d, UE_SEV_ERROR, "io.exists", UE_NO_OFFSET, taken,
                    "output exists (use -f to overwrite)");
        return UE_ERR_USAGE;
    }
    ue_gltf_options o = *opts;
    o.format = glb ? UE_GLTF_GLB : UE_GLTF_SEPARATE;
    o.bin_uri = bin_name;
    ue_buf main_out = {0}, bin_out = {0};
    ue_result rc = ue_gltf_export(s, &o, &main_out, &bin_out, d);
    /* The .bin goes first: a .gltf never appears without the buffer it names. */
    if (rc == UE_OK && gltf && bin_out.size)
        rc = ue_file_write_atomic(bin_path, bin_out.data, bin_out.size, overwrite, d);
    if (rc == UE_OK) rc = ue_file_write_atomic(path, main_out.data, main_out.size, overwrite, d);
    ue_buf_free(&main_out);
    ue_buf_free(&bin_out);
    return rc;
}
