/* unearth CLI — `--into ARCHIVE:ENTRY`, shared by import and edit: the model goes into a copy of
 * an NRes or RsLi archive (ue_archive_put), which must validate strictly before it is written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "unearth/advanced/archive.h"
#include "cli/cli.h"
#include "unearth/nres.h"
#include "unearth/rsli.h"
#include "unearth/advanced/files.h"
#include "unearth/advanced/text.h"

bool cli_into_archive(const char *into, char *archive, size_t cap) {
    ue_address at;
    return into && ue_address_split(into, UE_ADDRESS_NAMES_ENTRY, &at) == UE_OK &&
           (size_t)snprintf(archive, cap, "%s", at.file) < cap;
}

/* ARCHIVE:ENTRY with ARCHIVE an existing file and ENTRY one name (no deeper chain). */
static int split_into(const char *verb, const char *into, char *archive, size_t cap, const char **entry) {
    ue_address at;
    const char *rest = NULL;
    if (ue_address_split(into, UE_ADDRESS_NAMES_ENTRY, &at) == UE_OK &&
        (size_t)snprintf(archive, cap, "%s", at.file) < cap)
        rest = at.entries;
    if (!rest || !*rest) {
        cli_error("%s: --into takes ARCHIVE:ENTRY with ARCHIVE an existing NRes or RsLi file, not '%s'", verb, into);
        return EXIT_USAGE;
    }
    if (strchr(rest, ':')) {
        cli_error("%s: --into %s: ENTRY is inside a nested archive; extract the outer one, put the model "
                  "into the inner archive, then pack", verb, into);
        return EXIT_USAGE;
    }
    *entry = rest;
    return 0;
}

char cli_parkan_archive_kind(const char *archive) {
    const char *format = cli_sniff_format(archive);
    return !strcmp(format, "nres") ? 'N' : !strcmp(format, "rsli") ? 'L' : 0;
}

/* The extension of a path's last component ("" if none), without its dot. */
static const char *extension_of(const char *path) {
    const char *base = strrchr(path, '/');
    const char *dot = strrchr(base ? base + 1 : path, '.');
    return dot ? dot + 1 : "";
}

/* The output is a copy of the archive: never *.msh, which unearth (like the registry's model
 * walk, ue_msh_probe_named) reads as one model. */
static int refuse_msh_output(const char *verb, const char *output) {
    if (!ue_name_has_ext(output, ".msh")) return 0;
    cli_error("%s: -o %s: with --into the output is a copy of the archive, and unearth reads a "
              "file named *.msh as a model; give it the archive's extension (.rlb, .lib)", verb, output);
    return EXIT_USAGE;
}

/* ... and it keeps the archive's extension or takes one the game gives its archives (.rlb,
 * .lib, either format), so that no archive goes out under a name that says another format. */
bool cli_archive_copy_name_suits(const char *output, const char *archive) {
    const char *ext = extension_of(output);
    return !strcasecmp(ext, extension_of(archive)) || !strcasecmp(ext, "rlb") || !strcasecmp(ext, "lib");
}

static int check_output_extension(const char *verb, const char *output, const char *archive, char kind) {
    if (cli_archive_copy_name_suits(output, archive)) return 0;
    const char *own = extension_of(archive);
    bool own_is_usual = !own[0] || !strcasecmp(own, "rlb") || !strcasecmp(own, "lib");
    cli_error("%s: -o %s: with --into the output is a copy of %s, an %s archive; give it %s%s%s.rlb or .lib",
              verb, output, archive, kind == 'L' ? "RsLi" : "NRes", own_is_usual ? "" : "its extension (.",
              own_is_usual ? "" : own, own_is_usual ? "" : "), ");
    return EXIT_USAGE;
}

/* ENTRY is Windows-1251 text that fits the archive's name field (NRes 35 bytes and a NUL,
 * RsLi 12): told before the model is built. ue_archive_put checks the name again. */
static int check_entry_name(const char *verb, const char *entry, char kind) {
    char name[256];
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

/* Before any work: ARCHIVE (as split_into reads the text, the one rule of --into) is not the
 * output nor around it, is an NRes or RsLi file, and the output's name and ENTRY suit it. The
 * archive's content (a model, damage) is judged when it is read. */
int cli_into_check(const char *verb, const cli_opts *o) {
    if (!o->into) return 0;
    char archive[4096];
    const char *entry = NULL;
    int rc = split_into(verb, o->into, archive, sizeof archive, &entry);
    if (rc) return rc;
    const char *input = archive;
    if ((rc = cli_check_output(verb, o->output, &input, 1)) || (rc = refuse_msh_output(verb, o->output))) return rc;
    char kind = cli_parkan_archive_kind(archive);
    if (!kind) {
        cli_error("%s: --into %s is a %s, not an NRes or RsLi archive", verb, archive, cli_sniff_format(archive));
        return EXIT_USAGE;
    }
    if ((rc = check_output_extension(verb, o->output, archive, kind))) return rc;
    return check_entry_name(verb, entry, kind);
}

/* The new archive must pass what `unearth validate --strict` checks before it is written: the
 * container (typed entries, nested containers) and every model and texture in it, whose
 * failures are printed under their names in the copy (OUT:ENTRY). */
ue_result cli_check_archive_copy(const cli_opts *o, const char *output, const ue_buf *b, ue_diag *d) {
    ue_archive *a = NULL;
    ue_result r = ue_archive_open_memory(b->data, b->size, output, UE_MODE_STRICT, &a, d);
    if (r == UE_OK) r = ue_archive_validate(a, d);
    cli_opts strict = *o;
    strict.mode = UE_MODE_STRICT;
    if (r == UE_OK && models_check(&strict, output, a, true, NULL)) r = UE_ERR_INVALID;
    ue_archive_close(a);
    return r;
}

/* "#N" and nothing else: ENTRY addresses entry N by index, as everywhere else. */
static bool is_index_address(const char *entry) {
    if (entry[0] != '#' || !entry[1]) return false;
    for (const char *p = entry + 1; *p; p++)
        if (*p < '0' || *p > '9') return false;
    return true;
}

/* ENTRY as the archive names it, in `name`: an entry found by the engine's lookup or by "#N"
 * gives its own name (ue_archive_put replaces it by that name), an absent one is added under
 * ENTRY. "#N" past the last entry, or naming an entry whose name an earlier one shares (put
 * would replace that one), is refused. */
static ue_result resolve_entry(const ue_archive *a, const char *entry,
                               char *name, size_t cap, ue_diag *d) {
    size_t index, first;
    if (ue_archive_find(a, entry, &index) != UE_OK) {
        if (is_index_address(entry)) {
            size_t n = ue_archive_count(a);
            char range[64] = "";
            if (n) snprintf(range, sizeof range, " (#0 to #%zu)", n - 1);
            ue_diag_add(d, UE_SEV_ERROR, "into.index", UE_NO_OFFSET, entry,
                        "--into addresses entry %s, but the archive has %zu entries%s; give an "
                        "entry that is there, or a name to add one", entry + 1, n, range);
            return UE_ERR_USAGE;
        }
        snprintf(name, cap, "%s", entry);
        return UE_OK;
    }
    ue_entry_info info;
    ue_archive_entry(a, index, &info);
    if (ue_archive_find(a, info.name, &first) == UE_OK && first != index) {
        ue_diag_add(d, UE_SEV_ERROR, "into.index", UE_NO_OFFSET, entry,
                    "entry %zu shares its name \"%s\" with entry %zu, which --into would replace "
                    "instead", index, info.name, first);
        return UE_ERR_USAGE;
    }
    snprintf(name, cap, "%s", info.name);
    return UE_OK;
}

/* The archive step's diagnostics go to `d`, the copy's check's to `copy`; *refused tells that
 * the copy was made and failed its check; `name` the entry as the copy names it. The copy is
 * written to -o when `write`, else left in `out`. */
static ue_result put_and_write(const cli_opts *o, const char *archive, const char *entry,
                               const ue_buf *model, bool *added, char name[static 256],
                               ue_diag *d, ue_diag *copy, bool *refused, ue_buf *out_copy) {
    ue_archive *a = NULL;
    ue_buf out = {0};
    ue_result r = ue_archive_open(archive, UE_MODE_STRICT, &a, d);
    if (r == UE_OK) r = resolve_entry(a, entry, name, 256, d);
    if (r == UE_OK) r = ue_archive_put(a, name, model->data, model->size, &out, added, d);
    ue_archive_close(a);
    if (r == UE_OK && cli_check_archive_copy(o, o->output, &out, copy) != UE_OK) {
        *refused = true;
        r = UE_ERR_INVALID;
    }
    if (r == UE_OK && !out_copy) r = ue_make_parent_dirs(o->output, d);
    if (r == UE_OK && !out_copy) r = ue_file_write_atomic(o->output, out.data, out.size, o->force, d);
    if (r == UE_OK && out_copy) *out_copy = out, out = (ue_buf){0};
    ue_buf_free(&out);
    return r;
}

void cli_say_copy_refused(const char *verb, const char *output, ue_diag *copy) {
    cli_diag_dedupe(copy);
    cli_print_diags_as(output, copy, 50);
    cli_error("%s: %s: the new archive would not pass `unearth validate --strict` (above); nothing "
              "is written", verb, output);
}

/* cli_into_write, or with `copy` the copy made and checked, not written. */
static int into_put(const char *verb, const cli_opts *o, const ue_buf *model, bool *added, char *written,
                    size_t written_cap, ue_buf *copy_out) {
    char archive[4096], name[256] = "";
    const char *entry = NULL;
    int rc = split_into(verb, o->into, archive, sizeof archive, &entry);
    if (rc) return rc;
    /* Its own diagnostics: what the model step said is not repeated under the archive's name. */
    ue_diag d = {0}, copy = {0};
    bool copy_refused = false;
    ue_result r = put_and_write(o, archive, entry, model, added, name, &d, &copy, &copy_refused, copy_out);
    snprintf(written, written_cap, "%s:%s", archive, name);
    if (!copy_refused) ue_diag_append(&d, &copy, UE_SEV_INFO);
    cli_diag_dedupe(&d);
    if (d.count) cli_print_diags_as(r == UE_OK ? o->into : archive, &d, 50);
    if (copy_refused) cli_say_copy_refused(verb, o->output, &copy);
    else if (r != UE_OK && !ue_diag_count(&d, UE_SEV_ERROR)) cli_error("%s: %s: %s", verb, archive, ue_result_name(r));
    ue_diag_free(&d);
    ue_diag_free(&copy);
    return cli_exit_code(r);
}

int cli_into_write(const char *verb, const cli_opts *o, const ue_buf *model, bool *added, char *written,
                   size_t written_cap) {
    return into_put(verb, o, model, added, written, written_cap, NULL);
}

int cli_into_build(const char *verb, const cli_opts *o, const ue_buf *model, bool *added, char *written,
                   size_t written_cap, ue_buf *copy) {
    return into_put(verb, o, model, added, written, written_cap, copy);
}
