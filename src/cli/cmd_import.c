/* unearth CLI — `import`: a glTF back into a Parkan MSH, as a new model or as an edit of a base
 * model (--base), written as a file or into a copy of an NRes/RsLi game archive (--into). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "unearth/gltf_read.h"
#include "unearth/msh.h"
#include "unearth/msh_import.h"
#include "unearth/nres.h"
#include "unearth/rsli.h"
#include "common/io.h"
#include "common/text.h"

#define ARCHIVE_CAP ((size_t)1 << 31) /* an --into archive is read whole: at most 2 GiB */

/* ---- before any work: what may be written ------------------------------------------------ */

/* The output is neither the --base nor the --into archive (nor inside them; main.c checked
 * IN), and exists only with -f. */
static int check_outputs(const cli_opts *o) {
    const char *inputs[2];
    size_t n = 0;
    if (o->base) inputs[n++] = o->base;
    if (o->into) inputs[n++] = o->into;
    int refused = n ? cli_check_output("import", o->output, inputs, n) : 0;
    if (refused) return refused;
    /* The registry takes an NRes named *.msh for a model (ue_msh_probe_named): an archive
     * written under that name would be read back as a broken model. */
    if (o->into && ue_name_has_ext(o->output, ".msh")) {
        cli_error("import: -o %s: with --into the output is a copy of the archive, and unearth reads a "
                  "file named *.msh as a model; give it the archive's extension (.rlb, .lib)", o->output);
        return EXIT_USAGE;
    }
    return cli_refuse_existing("import", o->output, o->force);
}

/* Like convert, extract and pack, import makes the directories its output lives in; only
 * once the bytes are ready, so a refused import leaves no empty folder behind. */
static ue_result make_parent_dirs(const char *path, ue_diag *d) {
    char parent[4096];
    if ((size_t)snprintf(parent, sizeof parent, "%s", path) >= sizeof parent) return UE_OK; /* the write says why */
    char *slash = strrchr(parent, '/');
    if (!slash || slash == parent) return UE_OK;
    *slash = 0;
    return ue_mkdirs(parent, d);
}

static float fps_option(const cli_opts *o) {
    char *end;
    return o->fps ? (float)ue_parse_double(o->fps, &end) : 0; /* options.c checked 1..1000 */
}

/* ---- which file is what --------------------------------------------------------------------- */

/* A glTF by its name (.glb, .gltf) or its first bytes (the GLB magic, or JSON's '{'). A file
 * that cannot be opened is left to the reader, which says why. */
static bool looks_like_gltf(const char *path, bool *readable) {
    FILE *f = fopen(path, "rb");
    *readable = f != NULL;
    if (!f) return false;
    uint8_t head[64];
    size_t n = fread(head, 1, sizeof head, f);
    fclose(f);
    if (ue_name_has_ext(path, ".glb") || ue_name_has_ext(path, ".gltf")) return true;
    if (n >= 4 && !memcmp(head, "glTF", 4)) return true;
    size_t i = n >= 3 && !memcmp(head, "\xef\xbb\xbf", 3) ? 3 : 0; /* a UTF-8 byte order mark */
    while (i < n && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n')) i++;
    return i < n && head[i] == '{';
}

/* IN must be the glTF and --base the model: swapped, the reader would only report a JSON error. */
static int check_roles(const cli_opts *o) {
    bool readable, base_readable = false;
    bool in_gltf = looks_like_gltf(o->inputs[0], &readable);
    bool base_gltf = o->base && looks_like_gltf(o->base, &base_readable);
    if (readable && !in_gltf) {
        cli_error("import: IN must be a glTF (.glb or .gltf); %s is not one (format: %s)%s", o->inputs[0],
                  cli_sniff_format(o->inputs[0]),
                  base_gltf ? " and --base is the glTF: swapped? (import GLTF -o OUT.msh --base MODEL.msh)" : "");
        return EXIT_USAGE;
    }
    if (base_readable && base_gltf) {
        cli_error("import: --base %s is a glTF; --base takes the Parkan model (.msh, or ARCHIVE:ENTRY) "
                  "the glTF %s was converted from", o->base, o->inputs[0]);
        return EXIT_USAGE;
    }
    return 0;
}

/* ---- reading ------------------------------------------------------------------------------ */

static int fail_with(const char *who, ue_diag *d, ue_result r) {
    cli_diag_dedupe(d);
    cli_print_diags_as(who, d, 50);
    if (!ue_diag_count(d, UE_SEV_ERROR)) cli_error("import: %s: %s", who, ue_result_name(r));
    return cli_exit_code(r);
}

/* The one model at --base (a file or ARCHIVE:ENTRY), which must be a Parkan MSH. */
static int load_base(const cli_opts *o, ue_msh *m, ue_diag *d) {
    ue_model_found *found = NULL;
    size_t count = 0;
    ue_result r = ue_model_collect(o->base, o->mode, &found, &count, d);
    int rc = 0;
    if (r == UE_OK && count != 1) {
        cli_error("import: --base %s holds %zu models; address one as ARCHIVE:ENTRY", o->base, count);
        rc = count ? EXIT_USAGE : EXIT_INVALID;
    } else if (r == UE_OK && found[0].format != &ue_msh_model_format) {
        cli_error("import: --base %s is a %s; import writes Parkan MSH models", o->base, found[0].format->description);
        rc = EXIT_USAGE;
    } else if (r == UE_OK) {
        r = ue_msh_parse(found[0].data, found[0].size, o->mode, m, d);
    }
    ue_model_found_free(found, count);
    if (rc) return rc;
    return r == UE_OK ? 0 : fail_with(o->base, d, r);
}

/* "Res2 Res3 Res7": the tables an edit re-encodes (read before the write clears them). */
static void changed_tables(const ue_msh *m, char *out, size_t cap) {
    size_t at = 0;
    out[0] = 0;
    for (int t = 0; t < UE_MSH_TYPE_LIMIT && at < cap; t++)
        if (m->dirty[t]) {
            int w = snprintf(out + at, cap - at, "%sRes%d", at ? " " : "", t);
            at = w < 0 ? cap : at + (size_t)w;
        }
}

/* The model's bytes: an edit of --base or a new model, checked as `validate --strict` would. */
static int build_model(const cli_opts *o, const ue_scene *s, ue_buf *out, char *changed, size_t cap,
                       ue_diag *d) {
    ue_msh m;
    ue_msh_import_options io = {fps_option(o), o->inputs[0]};
    /* A clip converted with --fps N records N: frames come back where they were. */
    if (io.fps == 0 && s->animation_count && s->animations[0].fps > 0 && s->animations[0].fps <= 1000)
        io.fps = s->animations[0].fps;
    ue_result r;
    if (o->base) {
        int rc = load_base(o, &m, d);
        if (rc) return rc;
        r = ue_msh_apply_scene(&m, s, &io, d);
    } else {
        r = ue_msh_from_scene(s, &io, &m, d);
    }
    if (r == UE_OK) changed_tables(&m, changed, cap);
    if (r == UE_OK) r = ue_msh_write(&m, out, d);
    ue_msh_free(&m);
    ue_msh check;
    if (r == UE_OK && (r = ue_msh_parse(out->data, out->size, UE_MODE_STRICT, &check, d)) == UE_OK) ue_msh_free(&check);
    return r == UE_OK ? 0 : fail_with(o->inputs[0], d, r);
}

/* ---- into the game archive ------------------------------------------------------------------ */

/* ARCHIVE:ENTRY with ARCHIVE an existing file and ENTRY one name (no deeper chain). */
static int split_into(const char *into, char *archive, size_t cap, const char **entry) {
    const char *colon = strrchr(into, ':');
    while (colon) {
        size_t len = (size_t)(colon - into);
        if (len < cap) {
            memcpy(archive, into, len);
            archive[len] = 0;
            if (ue_path_exists(archive)) break;
        }
        const char *prev = NULL;
        for (const char *p = into; p < colon; p++)
            if (*p == ':') prev = p;
        colon = prev;
    }
    if (!colon || !colon[1]) {
        cli_error("import: --into takes ARCHIVE:ENTRY with ARCHIVE an existing NRes or RsLi file, not '%s'", into);
        return EXIT_USAGE;
    }
    if (strchr(colon + 1, ':')) {
        cli_error("import: --into %s: ENTRY is inside a nested archive; extract the outer one, import into "
                  "the inner archive, then pack", into);
        return EXIT_USAGE;
    }
    *entry = colon + 1;
    return 0;
}

/* The archive's kind from its magic: 'N' NRes, 'L' RsLi, 0 neither (or unreadable). */
static char archive_kind(const char *archive) {
    unsigned char magic[4] = {0};
    FILE *f = fopen(archive, "rb");
    size_t got = f ? fread(magic, 1, sizeof magic, f) : 0;
    if (f) fclose(f);
    if (got == 4 && !memcmp(magic, "NRes", 4)) return 'N';
    if (got == 4 && !memcmp(magic, "NL\0\1", 4)) return 'L';
    return 0;
}

/* --into checked before the glTF is read: ARCHIVE:ENTRY splits, and ENTRY is Windows-1251 text
 * that fits the archive's name field (NRes 35 bytes and a NUL, RsLi 12). The archive's content
 * (a model, another format) is checked when it is read. */
static int check_into_entry(const char *into) {
    char archive[4096], name[256];
    const char *entry = NULL;
    int rc = split_into(into, archive, sizeof archive, &entry);
    if (rc) return rc;
    char kind = archive_kind(archive);
    size_t limit = kind == 'L' ? UE_RSLI_NAME_SIZE : UE_NRES_NAME_SIZE - 1;
    size_t len = 0;
    bool text = ue_utf8_to_cp1251(entry, name, sizeof name, &len, NULL, NULL) == UE_OK;
    if (!text || len == 0 || (kind && len > limit)) {
        cli_error("import: --into: entry name '%s' is not Windows-1251 text of 1 to %zu bytes (%s)",
                  entry, limit, kind == 'L' ? "an RsLi name" : "an NRes name");
        return EXIT_USAGE;
    }
    return 0;
}

static ue_result into_nres(const uint8_t *data, size_t size, const char *name, const ue_buf *model,
                           ue_buf *out, bool *added, ue_diag *d) {
    ue_source src = ue_source_memory(data, size);
    ue_nres n;
    ue_result r = ue_nres_parse(&src, UE_MODE_STRICT, &n, d);
    size_t i = 0;
    *added = r == UE_OK && !ue_nres_find(&n, name, &i);
    if (r == UE_OK && *added) /* models live in outer archives as 'MESH' entries (objects.rlb) */
        r = ue_nres_add(&n, 0x4853454Du, 0, 0, 0, name, model->data, model->size);
    else if (r == UE_OK)
        r = ue_nres_replace(&n, i, model->data, model->size);
    if (r == UE_OK) r = ue_nres_write(&n, UE_NRES_LOSSLESS, out, d);
    ue_nres_free(&n);
    return r;
}

static ue_result into_rsli(const uint8_t *data, size_t size, const char *name, const ue_buf *model,
                           ue_buf *out, bool *added, ue_diag *d) {
    ue_source src = ue_source_memory(data, size);
    ue_rsli l;
    ue_result r = ue_rsli_parse(&src, UE_MODE_STRICT, NULL, &l, d);
    size_t i = 0;
    *added = r == UE_OK && !ue_rsli_find(&l, name, &i);
    if (r == UE_OK && *added) {
        char upper[16]; /* the engine looks names up in upper case */
        size_t k = 0;
        for (; name[k] && k + 1 < sizeof upper; k++) upper[k] = name[k] >= 'a' && name[k] <= 'z' ? (char)(name[k] - 32) : name[k];
        upper[k] = 0;
        r = ue_rsli_add(&l, upper, 0, model->data, model->size, d);
    } else if (r == UE_OK) {
        r = ue_rsli_replace(&l, i, model->data, model->size, d);
    }
    if (r == UE_OK) r = ue_rsli_write(&l, out, d);
    ue_rsli_free(&l);
    return r;
}

/* The new archive must open and validate strictly (nested models included) before it is
 * written. */
static ue_result check_archive(const ue_buf *b, const char *display, ue_diag *d) {
    ue_archive *a = NULL;
    ue_result r = ue_archive_open_memory(b->data, b->size, display, UE_MODE_STRICT, &a, d);
    if (r == UE_OK) r = ue_archive_validate(a, d);
    ue_archive_close(a);
    return r;
}

static int write_into_with(const cli_opts *o, const ue_buf *model, ue_diag *d, bool *added) {
    char archive[4096], name[64];
    const char *entry = NULL;
    int rc = split_into(o->into, archive, sizeof archive, &entry);
    if (rc) return rc;
    size_t len = 0, at = 0;
    uint32_t bad = 0;
    if (ue_utf8_to_cp1251(entry, name, sizeof name, &len, &bad, &at) != UE_OK) {
        cli_error("import: --into: entry name '%s' is not Windows-1251 text of at most 35 bytes", entry);
        return EXIT_USAGE;
    }
    uint8_t *data = NULL;
    size_t size = 0;
    ue_result r = ue_file_read(archive, ARCHIVE_CAP, &data, &size, d);
    if (r != UE_OK) return fail_with(archive, d, r);
    ue_buf out = {0};
    if (ue_msh_probe(data, size)) { /* an NRes too, but adding to it makes no model */
        cli_error("import: --into %s is a Parkan MSH model, not an archive of models", archive);
        free(data);
        return EXIT_USAGE;
    }
    if (size >= 4 && !memcmp(data, "NRes", 4)) r = into_nres(data, size, name, model, &out, added, d);
    else if (size >= 4 && !memcmp(data, "NL\0\1", 4)) r = into_rsli(data, size, name, model, &out, added, d);
    else {
        cli_error("import: --into %s is a %s, not an NRes or RsLi archive", archive, cli_sniff_format(archive));
        free(data);
        return EXIT_USAGE;
    }
    free(data);
    if (r == UE_OK) r = check_archive(&out, o->output, d);
    if (r == UE_OK) r = make_parent_dirs(o->output, d);
    if (r == UE_OK) r = ue_file_write_atomic(o->output, out.data, out.size, o->force, d);
    ue_buf_free(&out);
    return r == UE_OK ? 0 : fail_with(archive, d, r);
}

/* The archive step reports into its own diagnostics, so the glTF's warnings are not repeated
 * under the archive's name. */
static int write_into(const cli_opts *o, const ue_buf *model, bool *added) {
    ue_diag archive_diag = {0};
    int rc = write_into_with(o, model, &archive_diag, added);
    if (!rc && archive_diag.count) cli_print_diags_as(o->into, &archive_diag, 50);
    ue_diag_free(&archive_diag);
    return rc;
}

/* ---- the verb ------------------------------------------------------------------------------ */

/* Reads the glTF; the output may be none of the files it opened (its .bin, its images) nor
 * inside one, -f or not: refused before anything is written. */
static int read_gltf(const cli_opts *o, ue_scene *s, ue_diag *d) {
    ue_gltf_files opened = {0};
    ue_result r = ue_gltf_read_file_listed(o->inputs[0], o->mode, s, &opened, d);
    int rc = r == UE_OK ? 0 : fail_with(o->inputs[0], d, r);
    if (!rc && opened.count)
        rc = cli_check_output("import", o->output, (const char *const *)opened.paths, opened.count);
    ue_gltf_files_free(&opened);
    return rc;
}

int cmd_import(const cli_opts *o) {
    int rc = check_roles(o);
    if (!rc) rc = check_outputs(o);
    if (!rc && o->into) rc = check_into_entry(o->into);
    if (rc) return rc;
    const char *in = o->inputs[0];
    ue_diag d = {0};
    ue_scene s;
    ue_scene_init(&s);
    rc = read_gltf(o, &s, &d);
    ue_result r;
    ue_buf model = {0};
    char changed[160] = "";
    bool added = false;
    if (!rc) rc = build_model(o, &s, &model, changed, sizeof changed, &d);
    if (!rc && d.count) cli_print_diags_as(in, &d, 50); /* the glTF's warnings, once, under its name */
    ue_diag_free(&d);
    if (!rc && o->into) rc = write_into(o, &model, &added);
    else if (!rc) {
        r = make_parent_dirs(o->output, &d);
        if (r == UE_OK) r = ue_file_write_atomic(o->output, model.data, model.size, o->force, &d);
        rc = r == UE_OK ? 0 : fail_with(o->output, &d, r);
    }
    /* What was written is no error: -q leaves it out, as it leaves out warnings. */
    bool tell = !rc && cli_shows(UE_SEV_WARNING);
    if (tell && o->into)
        fprintf(stderr, "%s %s (%zu bytes) in %s\n", added ? "added" : "replaced", o->into, model.size, o->output);
    else if (tell)
        fprintf(stderr, "model written to %s (%zu bytes)\n", o->output, model.size);
    if (tell && o->base) fprintf(stderr, "changed: %s\n", changed[0] ? changed : "nothing (byte-identical to the base)");
    if (rc) cli_error("import: nothing written");
    ue_buf_free(&model);
    ue_scene_free(&s);
    ue_diag_free(&d);
    return rc;
}
