/* unearth CLI — `--into ARCHIVE:ENTRY`, shared by import and edit: the model goes into a copy of
 * an NRes or RsLi archive (ue_archive_put), which must validate strictly before it is written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "unearth/nres.h"
#include "unearth/rsli.h"
#include "common/io.h"
#include "common/text.h"

ue_result cli_make_parent_dirs(const char *path, ue_diag *d) {
    char parent[4096];
    if ((size_t)snprintf(parent, sizeof parent, "%s", path) >= sizeof parent) return UE_OK; /* the write says why */
    char *slash = strrchr(parent, '/');
    if (!slash || slash == parent) return UE_OK;
    *slash = 0;
    return ue_mkdirs(parent, d);
}

/* ARCHIVE:ENTRY with ARCHIVE an existing file and ENTRY one name (no deeper chain). */
static int split_into(const char *verb, const char *into, char *archive, size_t cap, const char **entry) {
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
        cli_error("%s: --into takes ARCHIVE:ENTRY with ARCHIVE an existing NRes or RsLi file, not '%s'", verb, into);
        return EXIT_USAGE;
    }
    if (strchr(colon + 1, ':')) {
        cli_error("%s: --into %s: ENTRY is inside a nested archive; extract the outer one, put the model "
                  "into the inner archive, then pack", verb, into);
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

/* ARCHIVE is an NRes or RsLi file and ENTRY Windows-1251 text that fits its name field (NRes
 * 35 bytes and a NUL, RsLi 12): told before the model is built. ue_archive_put checks the name
 * again; the archive's content (a model, damage) is judged when it is read. */
static int check_archive_and_entry(const char *verb, const char *into) {
    char archive[4096], name[256];
    const char *entry = NULL;
    int rc = split_into(verb, into, archive, sizeof archive, &entry);
    if (rc) return rc;
    char kind = archive_kind(archive);
    if (!kind) {
        cli_error("%s: --into %s is a %s, not an NRes or RsLi archive", verb, archive, cli_sniff_format(archive));
        return EXIT_USAGE;
    }
    size_t limit = kind == 'L' ? UE_RSLI_NAME_SIZE : UE_NRES_NAME_SIZE - 1;
    size_t len = 0;
    bool text = ue_utf8_to_cp1251(entry, name, sizeof name, &len, NULL, NULL) == UE_OK;
    if (!text || len == 0 || len > limit) {
        cli_error("%s: --into: entry name '%s' is not Windows-1251 text of 1 to %zu bytes (%s)", verb,
                  entry, limit, kind == 'L' ? "an RsLi name" : "an NRes name");
        return EXIT_USAGE;
    }
    return 0;
}

int cli_into_check(const char *verb, const cli_opts *o) {
    if (!o->into) return 0;
    int rc = cli_check_output(verb, o->output, &o->into, 1);
    if (rc) return rc;
    /* The registry takes an NRes named *.msh for a model (ue_msh_probe_named): an archive
     * written under that name would be read back as a broken model. */
    if (ue_name_has_ext(o->output, ".msh")) {
        cli_error("%s: -o %s: with --into the output is a copy of the archive, and unearth reads a "
                  "file named *.msh as a model; give it the archive's extension (.rlb, .lib)", verb, o->output);
        return EXIT_USAGE;
    }
    return check_archive_and_entry(verb, o->into);
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

static ue_result put_and_write(const cli_opts *o, const char *archive, const char *entry,
                               const ue_buf *model, bool *added, ue_diag *d) {
    ue_archive *a = NULL;
    ue_buf out = {0};
    ue_result r = ue_archive_open(archive, UE_MODE_STRICT, &a, d);
    if (r == UE_OK) r = ue_archive_put(a, entry, model->data, model->size, &out, added, d);
    ue_archive_close(a);
    if (r == UE_OK) r = check_archive(&out, o->output, d);
    if (r == UE_OK) r = cli_make_parent_dirs(o->output, d);
    if (r == UE_OK) r = ue_file_write_atomic(o->output, out.data, out.size, o->force, d);
    ue_buf_free(&out);
    return r;
}

int cli_into_write(const char *verb, const cli_opts *o, const ue_buf *model, bool *added) {
    char archive[4096];
    const char *entry = NULL;
    int rc = split_into(verb, o->into, archive, sizeof archive, &entry);
    if (rc) return rc;
    /* Its own diagnostics: what the model step said is not repeated under the archive's name. */
    ue_diag d = {0};
    ue_result r = put_and_write(o, archive, entry, model, added, &d);
    cli_diag_dedupe(&d);
    if (d.count) cli_print_diags_as(r == UE_OK ? o->into : archive, &d, 50);
    if (r != UE_OK && !ue_diag_count(&d, UE_SEV_ERROR)) cli_error("%s: %s: %s", verb, archive, ue_result_name(r));
    ue_diag_free(&d);
    return cli_exit_code(r);
}
