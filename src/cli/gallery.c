/* unearth CLI — `convert -r --gallery` (docs/gallery.md): each model's counts and thumbnail as it is
 * converted, then OUT/index.html (plain HTML and CSS) and the viewer page with three.js, copied in. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/batch_marker.h"
#include "cli/gallery.h"
#include "unearth/advanced/json.h"
#include "unearth/advanced/buffers.h"
#include "unearth/advanced/text.h"
#include "unearth/image.h"
#include "unearth/preview.h"

/* ---- one model ------------------------------------------------------------------------------- */

ue_result gallery_thumbnail(const ue_scene *s, ue_buf *png, ue_diag *d) {
    /* The preview's defaults (docs/preview.md): the same picture `unearth preview` draws. */
    ue_preview_options o;
    ue_preview_options_default(&o);
    uint8_t *rgba = ue_malloc_items((size_t)o.size * o.size, 4);
    if (!rgba) return UE_ERR_NOMEM;
    ue_result r = ue_preview_render(s, &o, rgba, d);
    if (r == UE_OK) r = ue_png_encode_rgba_quick(o.size, o.size, rgba, png);
    free(rgba);
    return r;
}

/* Joints: the distinct nodes any skin names. */
static uint64_t count_joints(const ue_scene *s) {
    bool *joint = s->node_count ? calloc(s->node_count, sizeof *joint) : NULL;
    uint64_t n = 0;
    for (size_t k = 0; joint && k < s->skin_count; k++)
        for (size_t j = 0; j < s->skins[k].joint_count; j++) {
            int32_t node = s->skins[k].joints[j];
            if (node >= 0 && (size_t)node < s->node_count && !joint[node]) joint[node] = true, n++;
        }
    free(joint);
    return n;
}

static void count_scene(const ue_scene *s, batch_gallery *g) {
    g->triangles = 0;
    for (size_t m = 0; m < s->mesh_count; m++)
        for (size_t p = 0; p < s->meshes[m].primitive_count; p++) g->triangles += s->meshes[m].primitives[p].index_count / 3;
    g->joints = count_joints(s);
    g->clips = s->animation_count;
    g->textures = s->texture_count;
    g->counted = true;
}

/* One more warning the page shows (a copy of `text`); false when out of memory. */
static bool add_warning(batch_gallery *g, const char *text) {
    char **grown = realloc(g->warnings, (g->warning_count + 1) * sizeof *grown);
    if (!grown) return false;
    g->warnings = grown;
    return (grown[g->warning_count] = strdup(text)) != NULL && ++g->warning_count;
}

/* "code: message" of each warning of `d`. */
static void take_warnings(batch_gallery *g, const ue_diag *d) {
    for (size_t i = 0; i < d->count; i++) {
        const ue_diag_item *it = &d->items[i];
        char line[sizeof it->code + sizeof it->message + 2];
        snprintf(line, sizeof line, "%s: %s", it->code, it->message);
        if (it->severity == UE_SEV_WARNING && !add_warning(g, line)) return;
    }
}

static bool name_taken(const texture_files *t, const char *name) {
    for (size_t i = 0; i < t->count; i++)
        if (!strcasecmp(t->files[i].name, name)) return true;
    return false;
}

/* STEM.preview.png beside the output (STEM.preview~2.png ... when one of its textures has that
 * name): texture files are STEM.IMAGE.png with no dot in IMAGE, so no other model's file is it. */
static ue_result add_thumbnail(batch_record *rec, output_parts *out, ue_buf *png) {
    const char *base = strrchr(rec->output, '/') ? strrchr(rec->output, '/') + 1 : rec->output;
    const char *dot = strrchr(base, '.');
    int stem = (int)(dot && dot != base ? (size_t)(dot - base) : strlen(base));
    char name[1024], path[4096];
    snprintf(name, sizeof name, "%.*s.preview.png", stem, base);
    for (unsigned k = 2; name_taken(&out->textures, name); k++) snprintf(name, sizeof name, "%.*s.preview~%u.png", stem, base, k);
    if (!output_parts_beside(rec->output, name, path, sizeof path)) return UE_ERR_USAGE;
    texture_file *grown = realloc(out->textures.files, (out->textures.count + 1) * sizeof *grown);
    if (!grown) return UE_ERR_NOMEM;
    out->textures.files = grown;
    char *owned = strdup(name);
    if (!owned || !(rec->gallery.thumbnail = strdup(path))) {
        free(owned);
        return UE_ERR_NOMEM;
    }
    grown[out->textures.count++] = (texture_file){owned, *png};
    memset(png, 0, sizeof *png);
    return UE_OK;
}

/* What the renderer said of the thumbnail joins the model's diagnostics as warnings: an error of
 * the drawing is no error of the conversion, and the model stays converted. */
static void add_render_diags(ue_diag *to, const ue_diag *drawn) {
    for (size_t i = 0; i < drawn->count; i++) {
        const ue_diag_item *it = &drawn->items[i];
        ue_diag_add(to, it->severity == UE_SEV_ERROR ? UE_SEV_WARNING : it->severity, it->code, it->offset, it->path,
                    "%s", it->message);
    }
}

ue_result gallery_model(const ue_scene *s, batch_record *rec, output_parts *out) {
    count_scene(s, &rec->gallery);
    ue_buf png = {0};
    ue_diag drawn = {0};
    ue_result r = gallery_thumbnail(s, &png, &drawn);
    if (r == UE_OK && png.size) r = add_thumbnail(rec, out, &png);
    ue_buf_free(&png);
    add_render_diags(&rec->diag, &drawn);
    ue_diag_free(&drawn);
    if (r != UE_OK) { /* a model without a thumbnail is still a model */
        ue_diag_add(&rec->diag, UE_SEV_WARNING, "gallery.thumbnail", UE_NO_OFFSET, rec->input, "no thumbnail: %s",
                    ue_result_name(r));
    }
    take_warnings(&rec->gallery, &rec->diag); /* the thumbnail's own among them */
    return r == UE_ERR_NOMEM ? r : UE_OK;
}

/* ---- kept models: what the earlier report says ------------------------------------------------- */

static int by_output(const void *a, const void *b) {
    return strcmp((*(batch_record *const *)a)->output, (*(batch_record *const *)b)->output);
}

/* The counts of one earlier record; false when it has none (an earlier run without --gallery). */
static bool read_gallery(const ue_jv *g, batch_gallery *out) {
    const char *keys[] = {"triangles", "joints", "clips", "textures"};
    uint64_t *dst[] = {&out->triangles, &out->joints, &out->clips, &out->textures};
    for (size_t i = 0; i < 4; i++) {
        const ue_jv *v = ue_jv_get(g, keys[i]);
        if (!ue_jv_is(v, UE_JV_INTEGER) || ue_jv_integer(v) < 0) return false;
        *dst[i] = (uint64_t)ue_jv_integer(v);
    }
    const ue_jv *warnings = ue_jv_get(g, "warnings");
    for (size_t i = 0; i < ue_jv_items(warnings); i++) {
        const char *w = ue_jv_string(ue_jv_at(warnings, i));
        if (w && !add_warning(out, w)) break;
    }
    out->counted = true;
    return true;
}

/* The thumbnail an earlier run named, when it is one of the kept model's images. */
static void take_thumbnail(batch_record *rec, const char *earlier) {
    for (size_t i = 0; earlier && i < rec->image_count; i++)
        if (!strcmp(rec->images[i], earlier)) rec->gallery.thumbnail = strdup(earlier);
}

void gallery_take_earlier(const char *root, batch_records *l) {
    size_t kept = 0;
    for (size_t i = 0; i < l->count; i++) kept += l->items[i]->status == BATCH_KEPT && !l->items[i]->gallery.counted;
    batch_record **sorted = kept ? malloc(kept * sizeof *sorted) : NULL;
    if (!sorted) return;
    kept = 0;
    for (size_t i = 0; i < l->count; i++)
        if (l->items[i]->status == BATCH_KEPT && !l->items[i]->gallery.counted) sorted[kept++] = l->items[i];
    qsort(sorted, kept, sizeof *sorted, by_output);
    char path[4300];
    snprintf(path, sizeof path, "%s/%s", root, BATCH_REPORT);
    ue_jdoc doc;
    const ue_jv *records = ue_jv_get(batch_report_load(path, &doc), "records");
    for (size_t i = 0; i < ue_jv_items(records); i++) {
        const ue_jv *r = ue_jv_at(records, i), *g = ue_jv_get(r, "gallery");
        batch_record key = {.output = (char *)ue_jv_string(ue_jv_get(r, "output"))}, *pkey = &key;
        if (!key.output || !g) continue;
        batch_record **hit = bsearch(&pkey, sorted, kept, sizeof *sorted, by_output);
        if (!hit || (*hit)->gallery.counted || !read_gallery(g, &(*hit)->gallery)) continue;
        take_thumbnail(*hit, ue_jv_string(ue_jv_get(g, "thumbnail")));
        free((*hit)->json); /* formatted again, with what it says now */
        (*hit)->json = NULL;
    }
    ue_jdoc_free(&doc);
    free(sorted);
}

/* ---- the page ----------------------------------------------------------------------------------- */

/* Text as it is (the page's own markup). */
static void put_str(ue_buf *b, const char *s) { ue_buf_put(b, s, strlen(s)); }

/* Text into HTML: the five special characters as entities; bytes that are not UTF-8 as U+FFFD. */
static void put_html(ue_buf *b, const char *s) {
    size_t n = strlen(s);
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t k = ue_utf8_decode(s + i, n - i, &cp);
        if (!k) {
            put_str(b, "\xEF\xBF\xBD"), i++;
            continue;
        }
        const char *entity = cp == '&' ? "&amp;" : cp == '<' ? "&lt;" : cp == '>' ? "&gt;" : cp == '"' ? "&quot;"
                           : cp == '\'' ? "&#39;" : NULL;
        if (entity) put_str(b, entity);
        else ue_buf_put(b, s + i, k);
        i += k;
    }
}

/* A path below OUT as a relative URL: every byte but letters, digits, "-._~/" percent-encoded
 * (so '?', '#', ':' and spaces in names stay part of the path). */
static void put_url_path(ue_buf *b, const char *s) {
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || strchr("-._~/", *p))
            ue_buf_put_u8(b, *p);
        else ue_buf_printf(b, "%%%02X", *p);
    }
}

static const char PAGE_HEAD[] =
    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    "<meta name=\"generator\" content=\"unearth convert -r --gallery\">\n<title>unearth gallery</title>\n<link rel=\"icon\" href=\"data:,\">\n<style>\n"
    "body{font:14px/1.4 system-ui,sans-serif;margin:1em;background:#f4f4f4;color:#222}\n"
    "ul.models{list-style:none;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(220px,1fr));gap:12px}\n"
    ".model{background:#fff;border:1px solid #ccc;border-radius:4px;padding:8px;overflow-wrap:anywhere}\n"
    ".model img,.nopreview{display:block;width:100%;aspect-ratio:1;object-fit:contain;background:#ddd}\n"
    ".nopreview{display:flex;align-items:center;justify-content:center;color:#777}\n"
    ".name{font-weight:bold}.source{color:#555;font-size:12px}.counts{margin:4px 0}\n"
    ".warnings{color:#8a5a00;font-size:12px;margin:4px 0 0;padding-left:1.2em}\n"
    ".letters a{margin-right:.4em}#filter{font:inherit;padding:4px;width:20em}\n"
    "</style>\n</head>\n<body>\n<h1>unearth gallery</h1>\n";

/* The name a model is shown and listed by: the last part (entry, else file) of what names it,
 * as its output is named: "a.fsys:creature.pkx:model.dat" (PKX's made-up entry) → "creature.pkx". */
static void shown_name(const batch_record *r, char *name, size_t cap) {
    size_t len = strlen(r->input);
    if (r->title_length && r->title_length < len) len = r->title_length;
    const char *start = r->input;
    for (size_t i = 0; i < len; i++)
        if (r->input[i] == ':' || r->input[i] == '/') start = r->input + i + 1;
    snprintf(name, cap, "%.*s", (int)(len - (size_t)(start - r->input)), start);
}

/* The letter a model is listed under in the page's index: A..Z, or '#' for any other start. */
static char letter_of(const batch_record *r) {
    char name[2];
    shown_name(r, name, sizeof name);
    char c = name[0];
    if (c >= 'a' && c <= 'z') c = (char)(c - 'a' + 'A');
    return c >= 'A' && c <= 'Z' ? c : '#';
}

static bool listed_model(const batch_record *r) {
    return r->kind == BATCH_MODEL && (r->status == BATCH_CONVERTED || r->status == BATCH_KEPT) && r->output;
}

/* Without a script the page filters by first letter: a letter link targets its rule, and CSS
 * hides every model of another letter (:target with :has). */
static void put_letters(ue_buf *b, const batch_records *l) {
    bool used[27] = {false};
    for (size_t i = 0; i < l->count; i++) {
        if (!listed_model(l->items[i])) continue;
        char c = letter_of(l->items[i]);
        used[c == '#' ? 26 : c - 'A'] = true;
    }
    put_str(b, "<style>\n");
    for (int k = 0; k < 27; k++)
        if (used[k]) ue_buf_printf(b, "body:has(#l-%c:target) li.model:not(.l-%c){display:none}\n", k < 26 ? 'A' + k : '0', k < 26 ? 'A' + k : '0');
    put_str(b, "</style>\n<p class=\"letters\">By name: <a href=\"#\">all</a>");
    for (int k = 0; k < 27; k++)
        if (used[k]) ue_buf_printf(b, "<a id=\"l-%c\" href=\"#l-%c\">%c</a>", k < 26 ? 'A' + k : '0', k < 26 ? 'A' + k : '0', k < 26 ? 'A' + k : '#');
    put_str(b, "</p>\n");
}

static void put_model(ue_buf *b, const batch_record *r, bool viewer) {
    const batch_gallery *g = &r->gallery;
    char c = letter_of(r), name[512];
    shown_name(r, name, sizeof name);
    ue_buf_printf(b, "<li class=\"model l-%c\" data-name=\"", c == '#' ? '0' : c);
    put_html(b, name);
    put_str(b, "\">\n<a href=\"");
    if (viewer) ue_buf_printf(b, "%s/viewer.html?m=", GALLERY_VIEWER_DIR);
    put_url_path(b, r->output);
    put_str(b, "\">");
    if (g->thumbnail) {
        put_str(b, "<img loading=\"lazy\" alt=\"\" src=\"");
        put_url_path(b, g->thumbnail);
        put_str(b, "\">");
    } else {
        put_str(b, "<span class=\"nopreview\">no preview</span>");
    }
    put_str(b, "<span class=\"name\">");
    put_html(b, name);
    put_str(b, "</span></a>\n<div class=\"source\">");
    put_html(b, r->input);
    put_str(b, "</div>\n");
    if (g->counted)
        ue_buf_printf(b, "<div class=\"counts\">%llu triangles, %llu joints, %llu clips, %llu textures</div>\n",
                      (unsigned long long)g->triangles, (unsigned long long)g->joints, (unsigned long long)g->clips,
                      (unsigned long long)g->textures);
    if (g->warning_count) {
        put_str(b, "<ul class=\"warnings\">");
        for (size_t i = 0; i < g->warning_count; i++) put_str(b, "<li>"), put_html(b, g->warnings[i]), put_str(b, "</li>");
        put_str(b, "</ul>\n");
    }
    put_str(b, "</li>\n");
}

/* The live filter box: an enhancement the page works without. */
static const char FILTER_SCRIPT[] =
    "<script>\n(() => {\n"
    "  const box = document.createElement('input');\n"
    "  box.id = 'filter'; box.type = 'search'; box.placeholder = 'filter by name';\n"
    "  document.querySelector('.letters').before(box);\n"
    "  box.addEventListener('input', () => {\n"
    "    const q = box.value.toLowerCase();\n"
    "    for (const li of document.querySelectorAll('li.model'))\n"
    "      li.hidden = !li.dataset.name.toLowerCase().includes(q);\n"
    "  });\n})();\n</script>\n";

char *gallery_index_html(const batch_records *l, bool viewer) {
    ue_buf b = {0};
    put_str(&b, PAGE_HEAD);
    size_t models = 0, not_shown = 0;
    for (size_t i = 0; i < l->count; i++) {
        models += listed_model(l->items[i]);
        not_shown += l->items[i]->kind == BATCH_MODEL && !listed_model(l->items[i]);
    }
    ue_buf_printf(&b, "<p>%zu %s", models, models == 1 ? "model" : "models");
    if (not_shown) ue_buf_printf(&b, "; %zu not converted (below)", not_shown);
    put_str(&b, viewer ? ". Each opens in the viewer page (served over HTTP: docs/gallery.md).</p>\n"
                       : ". The viewer page is not installed: each links to its glTF file.</p>\n");
    put_letters(&b, l);
    put_str(&b, "<ul class=\"models\">\n");
    for (size_t i = 0; i < l->count; i++)
        if (listed_model(l->items[i])) put_model(&b, l->items[i], viewer);
    put_str(&b, "</ul>\n");
    if (not_shown) {
        put_str(&b, "<h2>Not converted</h2>\n<ul class=\"failed\">\n");
        for (size_t i = 0; i < l->count; i++) {
            const batch_record *r = l->items[i];
            if (r->kind != BATCH_MODEL || listed_model(r)) continue;
            put_str(&b, "<li>"), put_html(&b, r->input), put_str(&b, ": ");
            put_html(&b, r->reason[0] ? r->reason : "not done"), put_str(&b, "</li>\n");
        }
        put_str(&b, "</ul>\n");
    }
    put_str(&b, FILTER_SCRIPT);
    put_str(&b, "</body>\n</html>\n");
    ue_buf_put(&b, "", 1); /* the page as a C string */
    size_t n;
    return b.failed ? (ue_buf_free(&b), NULL) : (char *)ue_buf_take(&b, &n);
}

/* ---- the viewer's files ------------------------------------------------------------------------ */

/* The list of the viewer's files (viewer/files.txt) and each file: bounded, as any input. */
enum { VIEWER_LIST_MAX = 64 << 10, VIEWER_FILE_MAX = 32 << 20 };

static bool read_small(const char *path, size_t max, ue_buf *out) {
    FILE *f = fopen(path, "rb");
    struct stat st;
    bool ok = f && fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size <= max;
    if (ok) {
        ue_buf_reserve(out, (size_t)st.st_size + 1);
        ok = !out->failed && fread(out->data, 1, (size_t)st.st_size, f) == (size_t)st.st_size;
        out->size = ok ? (size_t)st.st_size : 0;
    }
    if (f) fclose(f);
    return ok;
}

/* Where the viewer's files are: $UNEARTH_VIEWER_DIR, else beside the program: an installed tree
 * (BIN/../share/unearth/viewer) or a build tree (BUILD/viewer, a link to the sources' viewer/). */
static bool find_viewer(char *dir, size_t cap) {
    const char *env = getenv("UNEARTH_VIEWER_DIR");
    if (env && *env) {
        snprintf(dir, cap, "%s", env);
        return true;
    }
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return false;
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (!slash) return false;
    *slash = 0;
    const char *const tries[] = {"%s/../share/unearth/viewer", "%s/viewer"};
    for (size_t i = 0; i < 2; i++) {
        char list[4200];
        snprintf(dir, cap, tries[i], exe);
        snprintf(list, sizeof list, "%s/files.txt", dir);
        if (access(list, R_OK) == 0) return true;
    }
    return false;
}

/* Every file the list names, read; false (with the first missing file in `missing`) when one is
 * not there or the list is none. */
static bool load_viewer(const char *dir, ue_buf *list, ue_buf **files, size_t *count, char *missing, size_t cap) {
    char path[8400];
    snprintf(path, sizeof path, "%s/files.txt", dir);
    snprintf(missing, cap, "%s", path);
    if (!read_small(path, VIEWER_LIST_MAX, list)) return false;
    ue_buf_put(list, "", 1);
    size_t lines = 0;
    for (const char *p = (const char *)list->data; *p; p++) lines += *p == '\n';
    *files = calloc(lines + 1, sizeof **files);
    *count = 0;
    if (!*files) return false;
    for (char *line = (char *)list->data, *next; *line; line = next) {
        char *end = strchr(line, '\n');
        next = end ? end + 1 : line + strlen(line);
        if (end) *end = 0; /* the names end up NUL-separated: copy_viewer walks them so */
        if (!*line) continue;
        snprintf(path, sizeof path, "%s/%s", dir, line);
        snprintf(missing, cap, "%s", path);
        if (!batch_path_inside(line) || !read_small(path, VIEWER_FILE_MAX, &(*files)[(*count)++])) return false;
    }
    return *count > 0;
}

static void free_viewer(ue_buf *list, ue_buf *files, size_t count) {
    for (size_t i = 0; files && i < count; i++) ue_buf_free(&files[i]);
    free(files);
    ue_buf_free(list);
}

/* A file of the gallery that could not be placed: said, once per file. */
static void say_unwritten(const batch_outdir *od, const char *rel, int err) {
    ue_diag d = {0};
    char path[8300];
    snprintf(path, sizeof path, "%s/%s", batch_outdir_root(od), rel);
    ue_diag_add(&d, UE_SEV_WARNING, err == EEXIST ? "io.output.not_ours" : "io.write", UE_NO_OFFSET, path,
                err == EEXIST ? "a file that is not this batch's stands there; left as it is, and the gallery goes without it"
                              : "cannot write the gallery's file: %s", strerror(err));
    cli_print_diags(&d, 1);
    ue_diag_free(&d);
}

/* The viewer's files under OUT/unearth-viewer/, each as files.txt names it; false when the viewer
 * is not installed (said, with how) or one of its files could not be placed. */
static bool copy_viewer(batch_outdir *od) {
    char dir[4096], missing[8400];
    ue_buf list = {0}, *files = NULL;
    size_t count = 0;
    bool found = find_viewer(dir, sizeof dir);
    bool loaded = found && load_viewer(dir, &list, &files, &count, missing, sizeof missing);
    if (!loaded) {
        cli_error("convert: --gallery: the viewer page is not installed (%s%s); index.html links each "
                  "model's glTF file instead. Install it with `npm ci` in the source tree's viewer/ folder "
                  "(scripts/setup.sh does) before building, or point UNEARTH_VIEWER_DIR at such a folder",
                  found ? "missing " : "no viewer folder beside the program", found ? missing : "");
        free_viewer(&list, files, count);
        return false;
    }
    const char *name = (const char *)list.data;
    bool ok = true;
    for (size_t i = 0; ok && i < count; i++) {
        while (!*name) name++; /* the empty lines */
        char rel[4200];
        snprintf(rel, sizeof rel, "%s/%s", GALLERY_VIEWER_DIR, name);
        int err = batch_outdir_put_extra(od, rel, files[i].data, files[i].size);
        if (err) say_unwritten(od, rel, err), ok = false;
        name += strlen(name) + 1;
    }
    free_viewer(&list, files, count);
    return ok;
}

void gallery_write(batch_outdir *od, const batch_records *l) {
    bool viewer = copy_viewer(od);
    char *page = gallery_index_html(l, viewer);
    int err = page ? batch_outdir_put_extra(od, GALLERY_INDEX, page, strlen(page)) : ENOMEM;
    if (err) say_unwritten(od, GALLERY_INDEX, err);
    free(page);
}
