/* unearth CLI — model verbs: `convert` (MSH → glTF/OBJ, files or directories, in parallel) and
 * the model-aware parts of info, validate and roundtrip. */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "unearth/gltf.h"
#include "unearth/msh.h"
#include "unearth/obj.h"
#include "common/io.h"
#include "common/text.h"

/* ---- info -------------------------------------------------------------------------------- */

/* Res10 names are Windows-1251; what unearth prints is UTF-8 (docs/text.md). */
static bool node_name_utf8(const ue_msh *m, size_t node, char *out, size_t cap) {
    const char *raw = ue_msh_node_name(m, node);
    if (raw) ue_cp1251_to_utf8(raw, out, cap);
    return raw != NULL;
}

/* printf's %-20s counts bytes; a column of Cyrillic names must count characters. */
static void print_padded(const char *utf8, size_t width) {
    size_t chars = 0;
    for (const char *p = utf8; *p; p++) chars += ((unsigned char)*p & 0xC0) != 0x80;
    printf("%s%*s", utf8, chars < width ? (int)(width - chars) : 0, "");
}

int model_info(const cli_opts *o, const char *path) {
    ue_msh_found found;
    ue_diag d = {0};
    if (ue_msh_load(path, o->mode, &found, NULL) != UE_OK) return -1;
    ue_msh m;
    ue_result r = ue_msh_parse(found.data, found.size, o->mode, &m, &d);
    free(found.data);
    if (r != UE_OK) {
        if (o->json) cli_json_failure(o->verb, path, r, &d);
        else cli_print_diags_as(path, &d, 50);
        if (!o->json && !ue_diag_count(&d, UE_SEV_ERROR)) cli_error("%s: %s (msh)", path, ue_result_name(r));
        ue_diag_free(&d);
        return cli_exit_code(r);
    }
    ue_msh_stats st;
    ue_msh_stats_compute(&m, &st);
    if (o->json) {
        json_t *j = json_object();
        json_object_set_new(j, "file", json_string(path));
        json_object_set_new(j, "format", json_string("msh"));
        json_object_set_new(j, "nodes", json_integer((json_int_t)st.nodes));
        json_object_set_new(j, "lods", json_integer((json_int_t)st.lods));
        json_object_set_new(j, "groups", json_integer((json_int_t)st.groups));
        json_object_set_new(j, "slots", json_integer((json_int_t)st.slots));
        json_object_set_new(j, "batches", json_integer((json_int_t)st.batches));
        json_object_set_new(j, "vertices", json_integer((json_int_t)st.vertices));
        json_object_set_new(j, "triangles", json_integer((json_int_t)st.triangles));
        json_t *per = json_array();
        for (int l = 0; l < UE_MSH_LODS; l++) json_array_append_new(per, json_integer((json_int_t)st.triangles_per_lod[l]));
        json_object_set_new(j, "triangles_per_lod", per);
        json_t *nodes = json_array();
        for (size_t n = 0; n < m.node_count; n++) {
            json_t *nj = json_object();
            char nm[256];
            bool named = node_name_utf8(&m, n, nm, sizeof nm);
            json_object_set_new(nj, "name", named ? json_string(nm) : json_null());
            json_object_set_new(nj, "parent", m.nodes[n].parent == UE_MSH_NONE ? json_null()
                                                                            : json_integer(m.nodes[n].parent));
            json_t *slots = json_array();
            for (int s = 0; s < 15; s++)
                json_array_append_new(slots, m.nodes[n].slot[s] == UE_MSH_NONE ? json_null()
                                                                             : json_integer(m.nodes[n].slot[s]));
            json_object_set_new(nj, "slots", slots);
            json_array_append_new(nodes, nj);
        }
        json_object_set_new(j, "node_table", nodes);
        json_object_set_new(j, "diagnostics", cli_diags_json(&d));
        cli_print_json(j);
    } else {
        printf("%s: Parkan MSH model\n", path);
        printf("  nodes %zu, LODs %zu, groups %zu, slots %zu, batches %zu, vertices %zu, triangles %zu\n",
               st.nodes, st.lods, st.groups, st.slots, st.batches, st.vertices, st.triangles);
        printf("  triangles per LOD: %zu / %zu / %zu\n", st.triangles_per_lod[0],
               st.triangles_per_lod[1], st.triangles_per_lod[2]);
        printf("  %4s  %-20s %6s  %s\n", "node", "name", "parent", "slots [lod][group]");
        for (size_t n = 0; n < m.node_count; n++) {
            char nm[256];
            bool named = node_name_utf8(&m, n, nm, sizeof nm);
            char parent[8] = "-";
            if (m.nodes[n].parent != UE_MSH_NONE) snprintf(parent, sizeof parent, "%u", m.nodes[n].parent);
            printf("  %4zu  ", n);
            print_padded(named ? nm : "(unnamed)", 20);
            printf(" %6s ", parent);
            for (int l = 0; l < UE_MSH_LODS; l++) {
                printf(" [");
                for (int g = 0; g < UE_MSH_GROUPS; g++) {
                    uint16_t s = m.nodes[n].slot[l * UE_MSH_GROUPS + g];
                    if (s == UE_MSH_NONE) printf(g ? " -" : "-");
                    else printf(g ? " %u" : "%u", s);
                }
                printf("]");
            }
            printf("\n");
        }
        printf("  resources:");
        for (size_t i = 0; i < m.container.count; i++) printf(" %u", m.container.entries[i].type_id);
        printf("\n");
    }
    if (d.count && !o->quiet && !o->json) cli_print_diags_as(path, &d, 50);
    ue_diag_free(&d);
    ue_msh_free(&m);
    return 0;
}

/* ---- validate and roundtrip -------------------------------------------------------------- */

int models_validate(const cli_opts *o, const char *path, void *json_models, cli_tally *sum) {
    ue_msh_found *found;
    size_t count;
    if (ue_msh_collect(path, o->mode, &found, &count, NULL) != UE_OK) return 0;
    int worst = 0;
    for (size_t i = 0; i < count; i++) {
        ue_diag d = {0};
        ue_msh m;
        ue_result r = ue_msh_parse(found[i].data, found[i].size, o->mode, &m, &d);
        cli_tally t = {0};
        cli_tally_add(&t, &d);
        /* Tolerant parsing keeps the model but leaves damaged tables and batches out. */
        if (o->mode == UE_MODE_TOLERANT && r == UE_OK) t.dropped = model_lost_parts(found[i].data, found[i].size);
        int code = cli_verdict_code(r, &t);
        if (code > worst) worst = code;
        sum->errors += t.errors;
        sum->warnings += t.warnings;
        sum->dropped += t.dropped;
        ue_msh_stats st = {0};
        if (r == UE_OK) ue_msh_stats_compute(&m, &st);
        if (json_models) {
            json_t *j = json_object();
            json_object_set_new(j, "model", json_string(found[i].name));
            json_object_set_new(j, "valid", json_boolean(code == 0));
            json_object_set_new(j, "verdict", json_string(cli_verdict_word(r, &t)));
            json_object_set_new(j, "nodes", json_integer((json_int_t)st.nodes));
            json_object_set_new(j, "batches", json_integer((json_int_t)st.batches));
            json_object_set_new(j, "vertices", json_integer((json_int_t)st.vertices));
            json_object_set_new(j, "triangles", json_integer((json_int_t)st.triangles));
            json_object_set_new(j, "errors", json_integer((json_int_t)t.errors));
            json_object_set_new(j, "warnings", json_integer((json_int_t)t.warnings));
            json_object_set_new(j, "dropped", json_integer((json_int_t)t.dropped));
            json_t *diags = cli_diags_json(&d);
            json_object_set_new(j, "diagnostics", diags);
            json_array_append_new((json_t *)json_models, j);
        } else {
            /* Offsets in model diagnostics are relative to the model's own bytes. */
            char counts[96];
            cli_verdict_counts(&t, counts, sizeof counts);
            cli_print_diags_as(found[i].name, &d, 0);
            if (r == UE_OK)
                printf("  model %s: %s (%zu nodes, %zu batches, %zu vertices, %zu triangles, %s)\n",
                       found[i].name, cli_verdict_word(r, &t), st.nodes, st.batches, st.vertices,
                       st.triangles, counts);
            else /* a model that does not parse has no statistics to show */
                printf("  model %s: %s (%s)\n", found[i].name, cli_verdict_word(r, &t), counts);
        }
        if (r == UE_OK) ue_msh_free(&m);
        ue_diag_free(&d);
    }
    ue_msh_found_free(found, count);
    return worst;
}

bool model_lost_parts(const uint8_t *data, size_t size) {
    ue_msh m;
    if (ue_msh_parse(data, size, UE_MODE_STRICT, &m, NULL) != UE_OK) return true;
    ue_msh_free(&m);
    return false;
}

int models_check(const cli_opts *o, const char *path, bool print, cli_tally *sum) {
    ue_msh_found *found;
    size_t count;
    if (ue_msh_collect(path, o->mode, &found, &count, NULL) != UE_OK) return 0;
    int worst = 0;
    for (size_t i = 0; i < count; i++) {
        ue_diag d = {0};
        ue_msh m;
        ue_result r = ue_msh_parse(found[i].data, found[i].size, o->mode, &m, &d);
        cli_tally t = {0};
        cli_tally_add(&t, &d);
        if (r == UE_OK) {
            ue_msh_free(&m);
            if (o->mode == UE_MODE_TOLERANT) t.dropped = model_lost_parts(found[i].data, found[i].size);
        }
        int code = cli_verdict_code(r, &t);
        if (code && print) cli_print_diags_as(found[i].name, &d, 50);
        if (sum) {
            sum->errors += t.errors;
            sum->warnings += t.warnings;
            sum->dropped += t.dropped || (code && !t.errors);
        }
        if (code > worst) worst = code;
        ue_diag_free(&d);
    }
    ue_msh_found_free(found, count);
    return worst;
}

int models_roundtrip(const cli_opts *o, const char *path) {
    ue_msh_found *found;
    size_t count;
    if (ue_msh_collect(path, o->mode, &found, &count, NULL) != UE_OK) return 0;
    int worst = 0;
    for (size_t i = 0; i < count; i++) {
        ue_diag d = {0};
        ue_msh m;
        size_t tables = 0;
        ue_buf out = {0};
        ue_result r = ue_msh_parse(found[i].data, found[i].size, o->mode, &m, &d);
        if (r == UE_OK) {
            r = ue_msh_verify_tables(&m, &tables, &d);
            if (r == UE_OK) r = ue_msh_write(&m, &out, &d);
            if (r == UE_OK && (out.size != found[i].size || memcmp(out.data, found[i].data, out.size) != 0))
                r = UE_ERR_MISMATCH;
            ue_msh_free(&m);
        }
        if (r == UE_OK) {
            printf("  model %s: identical (%zu tables decoded and re-encoded)\n", found[i].name, tables);
        } else {
            cli_print_diags_as(found[i].name, &d, 20);
            printf("  model %s: MISMATCH\n", found[i].name);
            worst = EXIT_INVALID;
        }
        ue_buf_free(&out);
        ue_diag_free(&d);
    }
    ue_msh_found_free(found, count);
    return worst;
}

/* ---- convert ----------------------------------------------------------------------------- */

/* What an output is: a name ending in .glb, .gltf or .obj, in any case, is one file of that
 * format ("X.GLB" too); anything else, or a name ending in '/', is a directory. */
typedef enum out_kind { OUT_DIR, OUT_GLB, OUT_GLTF, OUT_OBJ } out_kind;
static const char *const kind_ext[] = {"", "glb", "gltf", "obj"};

typedef struct job {
    char name[512];          /* model address in UTF-8, for messages */
    uint8_t *data;
    size_t size;
    out_kind kind;
    char out_path[4096];
    ue_diag diag;
    ue_result result;
} job;

typedef struct job_queue {
    job *jobs;
    size_t count;
    size_t next;
    pthread_mutex_t lock;
    const cli_opts *opts;
} job_queue;

static char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c; }

static bool ends_with_nocase(const char *s, const char *suffix) {
    size_t n = strlen(s), k = strlen(suffix);
    if (n < k) return false;
    for (size_t i = 0; i < k; i++)
        if (ascii_lower(s[n - k + i]) != ascii_lower(suffix[i])) return false;
    return true;
}

static out_kind kind_of_path(const char *path) {
    for (int k = OUT_GLB; k <= OUT_OBJ; k++) {
        char dotted[8];
        snprintf(dotted, sizeof dotted, ".%s", kind_ext[k]);
        if (ends_with_nocase(path, dotted)) return (out_kind)k;
    }
    return OUT_DIR;
}

static out_kind kind_of_format(const char *format) {
    for (int k = OUT_GLB; k <= OUT_OBJ; k++)
        if (!strcmp(format, kind_ext[k])) return (out_kind)k;
    return OUT_DIR;
}

/* The name after the last '/' or ':' of a model address ("d/objects.rlb:ROBOT.msh" → "ROBOT.msh"). */
static const char *model_base_name(const char *address) {
    const char *base = address;
    for (const char *p = address; *p; p++)
        if (*p == '/' || *p == ':') base = p + 1;
    return base;
}

/* The MTL goes beside the OBJ, named so that `mtllib` can carry it ("my robot.obj" →
 * "my_robot.mtl"; whitespace and '#' would break the statement). */
static void mtl_beside(const char *obj_path, char *mtl_path, size_t cap, const char **mtl_name) {
    const char *slash = strrchr(obj_path, '/');
    size_t dir_len = slash ? (size_t)(slash - obj_path) + 1 : 0;
    char name[256];
    ue_obj_mtl_file_name(obj_path + dir_len, name, sizeof name);
    snprintf(mtl_path, cap, "%.*s%s", (int)dir_len, obj_path, name);
    *mtl_name = mtl_path + dir_len;
}

static ue_result write_obj(const ue_scene *s, const char *path, bool force, ue_diag *d) {
    char mtl_path[4096];
    const char *mtl_name;
    mtl_beside(path, mtl_path, sizeof mtl_path, &mtl_name);
    /* Both names are checked before anything is written; the message names the one that exists. */
    const char *taken = force ? NULL : ue_path_exists(path) ? path : ue_path_exists(mtl_path) ? mtl_path : NULL;
    if (taken) {
        ue_diag_add(d, UE_SEV_ERROR, "io.exists", UE_NO_OFFSET, taken, "output exists (use -f to overwrite)");
        return UE_ERR_USAGE;
    }
    ue_obj_options oo = {mtl_name, NULL};
    ue_buf obj = {0}, mtl = {0};
    ue_result r = ue_obj_export(s, &oo, &obj, &mtl, d);
    if (r == UE_OK) r = ue_file_write_atomic(mtl_path, mtl.data, mtl.size, force, d);
    if (r == UE_OK) r = ue_file_write_atomic(path, obj.data, obj.size, force, d);
    ue_buf_free(&obj);
    ue_buf_free(&mtl);
    return r;
}

/* Like extract and pack, convert makes the directories an output file lives in. */
static ue_result make_parent_dirs(const char *path, ue_diag *d) {
    char parent[4096];
    snprintf(parent, sizeof parent, "%s", path);
    char *slash = strrchr(parent, '/');
    if (!slash || slash == parent) return UE_OK;
    *slash = 0;
    return ue_mkdirs(parent, d);
}

static void run_job(job *j, const cli_opts *o) {
    ue_msh m;
    j->result = ue_msh_parse(j->data, j->size, o->mode, &m, &j->diag);
    if (j->result != UE_OK) return;
    ue_scene s;
    ue_scene_init(&s);
    char base[sizeof s.name]; /* scene names hold 63 bytes: cut between characters, not inside one */
    ue_utf8_copy(model_base_name(j->name), base, sizeof base);
    memcpy(s.name, base, sizeof base);
    ue_msh_export_options eo = {o->lod, o->group};
    j->result = ue_msh_to_scene(&m, base, &eo, &s, &j->diag);
    /* An empty file helps nobody: an empty selection is an error naming what the model has. */
    if (j->result == UE_OK && s.mesh_count == 0) j->result = ue_msh_refuse_empty_selection(&m, &eo, &j->diag);
    if (j->result == UE_OK)
        j->result = cli_output_conflict(j->out_path, j->kind == OUT_OBJ ? "mtl" : j->kind == OUT_GLTF ? "bin" : NULL,
                                        o->inputs, o->input_count, &j->diag);
    if (j->result == UE_OK) j->result = make_parent_dirs(j->out_path, &j->diag);
    if (j->result == UE_OK) {
        if (j->kind == OUT_OBJ)
            j->result = write_obj(&s, j->out_path, o->force, &j->diag);
        else
            j->result = ue_gltf_write_file(&s, j->out_path, false, o->force, &j->diag);
    }
    ue_scene_free(&s);
    ue_msh_free(&m);
}

static void *worker(void *arg) {
    job_queue *q = arg;
    for (;;) {
        pthread_mutex_lock(&q->lock);
        size_t i = q->next++;
        pthread_mutex_unlock(&q->lock);
        if (i >= q->count) return NULL;
        run_job(&q->jobs[i], q->opts);
    }
}

/* Input files: the paths given, and with -r every regular file below given directories. */
static int gather_inputs(const char *path, bool recursive, char ***list, size_t *n) {
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        if (!recursive) {
            cli_error("convert: %s is a directory (use -r)", path);
            return EXIT_USAGE;
        }
        struct dirent **names;
        int k = scandir(path, &names, NULL, alphasort);
        if (k < 0) return EXIT_IO;
        int rc = 0;
        for (int i = 0; i < k; i++) {
            if (names[i]->d_name[0] != '.' && !rc) {
                char child[4096];
                snprintf(child, sizeof child, "%s/%s", path, names[i]->d_name);
                rc = gather_inputs(child, recursive, list, n);
            }
            free(names[i]);
        }
        free(names);
        return rc;
    }
    char **grown = realloc(*list, (*n + 1) * sizeof *grown);
    if (!grown) return EXIT_IO;
    *list = grown;
    (*list)[*n] = strdup(path);
    if (!(*list)[*n]) return EXIT_IO;
    (*n)++;
    return 0;
}

/* The output's kind from its name and --format; a --format that contradicts the name's
 * extension is a usage error rather than a file whose name lies about its contents. */
static int choose_output_kind(const cli_opts *o, bool *to_file, out_kind *kind) {
    out_kind by_name = kind_of_path(o->output);
    out_kind by_option = o->format ? kind_of_format(o->format) : OUT_DIR;
    if (o->format && by_option == OUT_DIR) {
        cli_error("convert: --format takes glb, gltf or obj, not %s", o->format);
        return EXIT_USAGE;
    }
    *to_file = by_name != OUT_DIR;
    if (*to_file && o->format && by_option != by_name) {
        cli_error("convert: --format %s contradicts the output name %s (a .%s file); drop --format "
                  "or change the extension", o->format, o->output, kind_ext[by_name]);
        return EXIT_USAGE;
    }
    *kind = *to_file ? by_name : (o->format ? by_option : OUT_GLB);
    return 0;
}

/* "d/objects.rlb:РОБОТ.msh" → "РОБОТ": the entry's (or file's) name without its extension, in
 * UTF-8 and safe as one file name (docs/text.md); "model" when nothing usable is left. */
static void batch_stem(const char *model, char *stem, size_t cap) {
    char base[512];
    snprintf(base, sizeof base, "%s", model_base_name(model));
    char *dot = strrchr(base, '.');
    if (dot && dot != base) *dot = 0;
    if (ue_file_name_component(base, stem, cap) == 0) snprintf(stem, cap, "model");
}

/* DIR/STEM.EXT for job i; a stem an earlier job already took gets the model's index. */
static int name_batch_output(const char *dir, out_kind kind, job *jobs, size_t i) {
    char stem[200];
    batch_stem(jobs[i].name, stem, sizeof stem);
    size_t dir_len = strlen(dir);
    while (dir_len > 1 && dir[dir_len - 1] == '/') dir_len--; /* "out/" → "out/x.glb", not "out//x.glb" */
    job *j = &jobs[i];
    j->kind = kind;
    int n = snprintf(j->out_path, sizeof j->out_path, "%.*s/%s.%s", (int)dir_len, dir, stem, kind_ext[kind]);
    for (size_t k = 0; k < i && n > 0; k++)
        if (!strcmp(jobs[k].out_path, j->out_path)) {
            n = snprintf(j->out_path, sizeof j->out_path, "%.*s/%s_%zu.%s", (int)dir_len, dir, stem, i,
                         kind_ext[kind]);
            break;
        }
    if (n < 0 || (size_t)n >= sizeof j->out_path) {
        cli_error("convert: output path for %s is too long", j->name);
        return EXIT_USAGE;
    }
    return 0;
}

/* validate's verdict on one convert input, with one summary line when it is not valid. */
static int input_verdict(const cli_opts *o, const char *path) {
    cli_tally t = {0};
    bool strict = o->mode == UE_MODE_STRICT;
    int code = file_verdict(o, path, strict, &t);
    if (code) {
        char counts[96];
        cli_verdict_counts(&t, counts, sizeof counts);
        fprintf(stderr, "%s: %s (%s): %s\n", path, t.errors ? "INVALID" : "DAMAGED", counts,
                strict ? "not converted" : "converting what is intact");
    }
    return code;
}

int cmd_convert(const cli_opts *o) {
    if (o->input_count == 0 || !o->output) {
        cli_error("convert: usage: unearth convert IN... -o OUT [--lod N] [--group G] [-r] [-j N]");
        return EXIT_USAGE;
    }
    bool to_file;
    out_kind kind;
    int rc = choose_output_kind(o, &to_file, &kind);
    if (rc) return rc;
    char **files = NULL;
    size_t nfiles = 0;
    for (size_t i = 0; i < o->input_count && !rc; i++) rc = gather_inputs(o->inputs[i], o->recursive, &files, &nfiles);
    job *jobs = NULL;
    size_t njobs = 0;
    int worst = rc;
    for (size_t f = 0; f < nfiles && !rc; f++) {
        ue_msh_found *found;
        size_t count;
        ue_diag d = {0};
        ue_result r = ue_msh_collect(files[f], o->mode, &found, &count, &d);
        if (r != UE_OK) {
            /* A directory walk meets files that are not containers; only named inputs must be. */
            if (!o->recursive || r == UE_ERR_IO) {
                cli_print_diags_as(files[f], &d, 20);
                if (!ue_diag_count(&d, UE_SEV_ERROR)) cli_error("convert: %s: %s", files[f], ue_result_name(r));
                if (cli_exit_code(r) > worst) worst = cli_exit_code(r);
            }
            ue_diag_free(&d);
            continue;
        }
        ue_diag_free(&d);
        /* The verdict validate would give: strict skips an invalid input, tolerant converts
         * what is intact and still exits 1. */
        /* A directory walk judges only the files it converts from, as it skips the others. */
        int verdict = o->recursive && count == 0 ? 0 : input_verdict(o, files[f]);
        if (verdict > worst) worst = verdict;
        if (verdict && o->mode == UE_MODE_STRICT) {
            ue_msh_found_free(found, count);
            continue;
        }
        if (count == 0) {
            free(found);
            continue;
        }
        job *grown = realloc(jobs, (njobs + count) * sizeof *grown);
        if (!grown) {
            ue_msh_found_free(found, count);
            rc = EXIT_IO;
            break;
        }
        jobs = grown;
        for (size_t k = 0; k < count; k++) {
            job *j = &jobs[njobs++];
            memset(j, 0, sizeof *j);
            snprintf(j->name, sizeof j->name, "%s", found[k].name);
            j->data = found[k].data;
            j->size = found[k].size;
        }
        free(found); /* the jobs own the bytes now */
    }
    for (size_t f = 0; f < nfiles; f++) free(files[f]);
    free(files);
    if (rc) goto done;
    if (njobs == 0) {
        /* After a failed input its own messages say why; "no models" would contradict them. */
        if (!worst) cli_error("convert: no models found in the input");
        worst = worst ? worst : EXIT_INVALID;
        goto done;
    }

    if (to_file && njobs > 1) {
        cli_error("convert: %zu models found; give a directory as -o to write one file each", njobs);
        rc = EXIT_USAGE;
        goto done;
    }
    if (to_file) {
        jobs[0].kind = kind;
        snprintf(jobs[0].out_path, sizeof jobs[0].out_path, "%s", o->output);
    } else {
        ue_diag d = {0};
        if (ue_mkdirs(o->output, &d) != UE_OK) {
            cli_print_diags_as(o->output, &d, 0);
            cli_error("convert: cannot create %s", o->output);
            rc = EXIT_IO;
        }
        ue_diag_free(&d);
        for (size_t i = 0; i < njobs && !rc; i++) rc = name_batch_output(o->output, kind, jobs, i);
        if (rc) goto done;
    }

    job_queue q = {jobs, njobs, 0, PTHREAD_MUTEX_INITIALIZER, o};
    size_t threads = (size_t)(o->jobs > 1 ? o->jobs : 1);
    if (threads > njobs) threads = njobs;
    pthread_t tids[64];
    size_t started = 0;
    for (size_t t = 1; t < threads; t++)
        if (pthread_create(&tids[started], NULL, worker, &q) == 0) started++;
    worker(&q);
    for (size_t t = 0; t < started; t++) pthread_join(tids[t], NULL);

    for (size_t i = 0; i < njobs; i++) {
        job *j = &jobs[i];
        if (j->result != UE_OK || !o->quiet) cli_print_diags_as(j->name, &j->diag, 0);
        if (j->result == UE_OK) {
            if (!o->quiet) fprintf(stderr, "%s -> %s\n", j->name, j->out_path);
        } else {
            if (!ue_diag_count(&j->diag, UE_SEV_ERROR))
                cli_error("convert: %s: %s", j->name, ue_result_name(j->result));
            if (cli_exit_code(j->result) > worst) worst = cli_exit_code(j->result);
        }
    }
done:
    for (size_t i = 0; i < njobs; i++) {
        free(jobs[i].data);
        ue_diag_free(&jobs[i].diag);
    }
    free(jobs);
    return rc ? rc : worst;
}
