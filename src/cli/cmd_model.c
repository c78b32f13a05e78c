/* unearth CLI — the model parts of info, validate and roundtrip on the model registry
 * (unearth/model.h), and one model's part of a file's verdict (model_verdict.h). No format is
 * named here; each one reports its own statistics. convert is cmd_convert.c. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/model_verdict.h"
#include "unearth/archive.h"
#include "unearth/model.h"
#include "unearth/advanced/archive.h"
#include "unearth/advanced/buffers.h"
#include "unearth/advanced/files.h"
#include "unearth/advanced/text.h"
#include "unearth/advanced/model_walk.h"

/* ---- info -------------------------------------------------------------------------------- */

static void print_info_json(const char *path, const ue_model_format *f, const ue_buf *stats, const ue_buf *slots,
                            const ue_diag *d, ue_json *collect) {
    cli_json_out out;
    ue_json *w = cli_json_begin(&out, collect);
    ue_json_object_begin(w);
    ue_json_key_string(w, "file", path);
    ue_json_key_string(w, "format", f->name);
    ue_json_replay_members(stats, w);
    if (slots->size) {
        ue_json_key(w, "animation_slots");
        ue_json_replay(slots, w);
    }
    ue_json_key(w, "diagnostics");
    cli_diags_write(w, d);
    ue_json_object_end(w);
    cli_json_end(&out);
}

static int report_info_failure(const cli_opts *o, const char *path, const ue_model_format *f, ue_result r,
                               const ue_diag *d, ue_json *collect) {
    if (o->json) cli_emit_failure(collect, o->verb, path, r, d);
    else cli_print_diags_as(path, d, 50);
    if (!o->json && !ue_diag_count(d, UE_SEV_ERROR)) cli_error("%s: %s (%s)", path, ue_result_name(r), f->name);
    return cli_exit_code(r);
}

/* The value at a path of members ({"header", "slots"}) in what a writer is given, passed on
 * to another writer when it is an array; the rest is let through unseen. */
typedef struct array_pick {
    const char *const *path; /* NULL-terminated */
    ue_json *into;
    int depth;               /* containers open */
    int matched;             /* objects of the path open */
    bool on_path;            /* the last key was the path's next one */
    int passing;             /* depth of the array being passed on, 0 when none */
} array_pick;

static void array_pick_event(void *ctx, const ue_json_event *e) {
    array_pick *p = ctx;
    bool begins = e->kind == UE_JSON_OBJECT_BEGIN || e->kind == UE_JSON_ARRAY_BEGIN;
    bool ends = e->kind == UE_JSON_OBJECT_END || e->kind == UE_JSON_ARRAY_END;
    if (p->on_path && !p->path[p->matched + 1] && e->kind == UE_JSON_ARRAY_BEGIN) p->passing = p->depth + 1;
    else if (p->on_path && e->kind == UE_JSON_OBJECT_BEGIN && p->path[p->matched + 1]) p->matched++;
    p->on_path = e->kind == UE_JSON_KEY && !p->passing && p->depth == p->matched + 1 &&
                 !strcmp(e->text, p->path[p->matched]);
    if (p->passing) ue_json_put_event(p->into, e);
    if (begins) p->depth++;
    if (!ends) return;
    if (p->depth-- == p->passing) p->passing = 0;
    else if (p->matched && p->depth == p->matched) p->matched--;
}

/* The animation slots of the container a model is read through ("x.pkx:model.dat"): the
 * "slots" its header reports (a PKX's entry table: slot name → animation indices), recorded
 * into `slots` (ue_json_init_record), which stays empty when there are none. Any container
 * whose header has them qualifies, so no format is named here either. */
static void container_slots(const char *path, ue_mode mode, ue_buf *slots) {
    static const char *const at_slots[] = {"header", "slots", NULL};
    ue_address at;
    if (ue_address_split(path, 0, &at) == UE_ERR_USAGE || !at.last_entry) return;
    size_t n = at.parent_length;
    char *parent = malloc(n + 1);
    if (!parent) return;
    memcpy(parent, path, n);
    parent[n] = 0;
    ue_archive *a = NULL;
    if (ue_archive_open(parent, mode, &a, NULL) == UE_OK) {
        ue_json record, info;
        ue_json_init_record(&record, slots);
        array_pick pick = {at_slots, &record, 0, 0, false, 0};
        ue_json_init_sink(&info, array_pick_event, &pick);
        ue_archive_write_info(a, &info);
        if (ue_json_finish(&record, NULL) != UE_OK) ue_buf_free(slots); /* none, or cut short */
        ue_archive_close(a);
    }
    free(parent);
}

/* The slots' lines, from their recorded calls: "  animation slot 2 (physical A): Animation_1". */
typedef struct slot_lines {
    int depth;          /* 1 in the list, 2 in a slot, 3 in its anims */
    size_t slot;
    bool at_name, at_anims, in_anims;
    bool named;
    ue_buf name, anims; /* NUL-terminated text */
    size_t anim_count;
} slot_lines;

static void slot_line_print(slot_lines *s) {
    ue_buf_put_u8(&s->name, 0);
    ue_buf_put_u8(&s->anims, 0);
    printf("  animation slot %zu (%s):%s\n", s->slot++, s->named ? (const char *)s->name.data : "no known meaning",
           (const char *)s->anims.data);
    s->named = s->at_name = s->at_anims = s->in_anims = false;
    s->name.size = s->anims.size = s->anim_count = 0;
}

static void slot_line_event(void *ctx, const ue_json_event *e) {
    slot_lines *s = ctx;
    bool begins = e->kind == UE_JSON_OBJECT_BEGIN || e->kind == UE_JSON_ARRAY_BEGIN;
    bool ends = e->kind == UE_JSON_OBJECT_END || e->kind == UE_JSON_ARRAY_END;
    if (s->depth == 2 && e->kind == UE_JSON_KEY) {
        s->at_name = !strcmp(e->text, "name");
        s->at_anims = !strcmp(e->text, "anims");
    } else if (s->depth == 2 && !ends) {
        s->named |= s->at_name && e->kind == UE_JSON_STRING;
        if (s->at_name && e->kind == UE_JSON_STRING) ue_buf_put(&s->name, e->text, e->size);
        s->in_anims = s->at_anims && e->kind == UE_JSON_ARRAY_BEGIN;
    } else if (s->depth == 3 && s->in_anims && !ends) { /* an index; anything else counts as 0 */
        long long index = e->kind == UE_JSON_INT ? (long long)e->v.integer : 0;
        ue_buf_printf(&s->anims, "%s Animation_%lld", s->anim_count++ ? "," : "", index);
    }
    if (begins) s->depth++;
    if (ends) s->depth--;
    if (s->depth == 1 && (ends || !begins)) slot_line_print(s); /* a slot's end, or a slot not an object */
}

static void print_slots_text(const ue_buf *slots) {
    slot_lines lines = {0};
    ue_json w;
    ue_json_init_sink(&w, slot_line_event, &lines);
    ue_json_replay(slots, &w);
    ue_buf_free(&lines.name);
    ue_buf_free(&lines.anims);
}

int model_info(const cli_opts *o, const char *path, ue_json *collect) {
    ue_model_found found;
    if (ue_model_load(path, o->mode, &found, NULL) != UE_OK) return -1;
    const ue_model_format *f = found.format;
    ue_diag d = {0};
    ue_buf stats = {0}, text = {0}, slots = {0};
    ue_result r = f->info(found.data, found.size, o->mode, o->json ? &stats : NULL, o->json ? NULL : &text, &d);
    if (r == UE_OK && stats.failed) r = UE_ERR_NOMEM;
    free(found.data);
    int rc = 0;
    if (r == UE_OK) container_slots(path, o->mode, &slots);
    if (r != UE_OK) {
        rc = report_info_failure(o, path, f, r, &d, collect);
    } else if (o->json) {
        print_info_json(path, f, &stats, &slots, &d, collect);
    } else {
        printf("%s: %s\n", path, f->description);
        fwrite(text.data, 1, text.size, stdout);
        print_slots_text(&slots);
        if (d.count && !o->quiet) cli_print_diags_as(path, &d, 50);
    }
    ue_buf_free(&stats);
    ue_buf_free(&slots);
    ue_buf_free(&text);
    ue_diag_free(&d);
    return rc;
}

ue_result cli_model_summary(const ue_model_seen *m, ue_mode mode, char *out, size_t cap) {
    ue_model_check check;
    memset(&check, 0, sizeof check);
    ue_result r = m->format->validate(m->data, m->size, mode, &check, NULL);
    ue_buf_free(&check.stats);
    snprintf(out, cap, "%s", r == UE_OK ? check.summary : "");
    return r;
}

/* ---- validate and roundtrip -------------------------------------------------------------- */

/* One model's verdict by its format's validate; `check` keeps the summary and statistics.
 * With `kept`, the model as validate read it is handed back for its scene (where the format
 * reads once). */
static int validate_one(const cli_opts *o, const ue_model_seen *m, ue_model_check *check, ue_diag *d,
                        cli_tally *t, ue_result *r, ue_model_kept **kept) {
    memset(check, 0, sizeof *check);
    *r = ue_model_validate_kept(m->format, m->data, m->size, o->mode, check, d, kept);
    cli_tally_add(t, d);
    t->dropped = check->lost_parts;
    return cli_verdict_code(*r, t);
}

static void tally_sum(cli_tally *sum, const cli_tally *t) {
    sum->errors += t->errors;
    sum->warnings += t->warnings;
    sum->dropped += t->dropped;
}

static void write_model_verdict(ue_json *w, const ue_model_seen *m, int code, ue_result r, const cli_tally *t,
                                const ue_model_check *check, const ue_diag *d) {
    ue_json_object_begin(w);
    ue_json_key_string(w, "model", m->name);
    ue_json_key_bool(w, "valid", code == 0);
    ue_json_key_string(w, "verdict", cli_verdict_word(r, t));
    ue_json_replay_members(&check->stats, w);
    ue_json_key_int(w, "errors", (int64_t)t->errors);
    ue_json_key_int(w, "warnings", (int64_t)t->warnings);
    ue_json_key_int(w, "dropped", (int64_t)t->dropped);
    ue_json_key(w, "diagnostics");
    cli_diags_write(w, d);
    ue_json_object_end(w);
}

static void print_model_verdict(const ue_model_seen *m, ue_result r, const cli_tally *t,
                                const ue_model_check *check, const ue_diag *d) {
    char counts[96];
    cli_verdict_counts(t, counts, sizeof counts);
    /* Offsets in model diagnostics are relative to the model's own bytes. */
    cli_print_diags_as(m->name, d, 0);
    /* A model that does not parse has no statistics to show. */
    if (r == UE_OK && check->summary[0])
        printf("  model %s: %s (%s, %s)\n", m->name, cli_verdict_word(r, t), check->summary, counts);
    else
        printf("  model %s: %s (%s)\n", m->name, cli_verdict_word(r, t), counts);
}

/* validate: each model is checked on bytes lent by the walk (no copy per model). */
static ue_result validate_visit(const ue_model_seen *m, void *ctx) {
    model_visits *v = ctx;
    ue_diag d = {0};
    ue_model_check check;
    cli_tally t = {0};
    ue_result r;
    int code = validate_one(v->o, m, &check, &d, &t, &r, NULL);
    if (code > v->worst) v->worst = code;
    tally_sum(v->sum, &t);
    if (v->json_models) write_model_verdict(v->json_models, m, code, r, &t, &check, &d);
    else print_model_verdict(m, r, &t, &check, &d);
    ue_buf_free(&check.stats);
    ue_diag_free(&d);
    return UE_OK;
}

/* The models of `path`, walked in `a` when the caller has it open already. */
static void walk_models(const cli_opts *o, const char *path, ue_archive *a, ue_model_visit_fn fn,
                        model_visits *v) {
    if (a) ue_model_walk_archive(a, path, o->mode, fn, v, NULL);
    else ue_model_walk(path, o->mode, fn, v, NULL);
}

int models_validate(const cli_opts *o, const char *path, ue_archive *a, ue_json *json_models,
                    cli_tally *sum) {
    model_visits v = {o, 0, sum, json_models, false};
    walk_models(o, path, a, validate_visit, &v);
    return v.worst;
}

void model_verdict_check(const cli_opts *o, const ue_model_seen *m, model_verdict *mv, ue_model_kept **kept) {
    ue_model_check check;
    ue_result r;
    memset(mv, 0, sizeof *mv);
    mv->code = validate_one(o, m, &check, &mv->d, &mv->t, &r, kept);
    ue_buf_free(&check.stats);
}

void model_verdict_apply(model_visits *v, const char *name, const model_verdict *mv) {
    if (mv->code && v->print) cli_print_diags_as(name, &mv->d, 50);
    if (v->sum) {
        v->sum->errors += mv->t.errors;
        v->sum->warnings += mv->t.warnings;
        v->sum->dropped += mv->t.dropped || (mv->code && !mv->t.errors);
    }
    if (mv->code > v->worst) v->worst = mv->code;
}

/* A file's verdict (extract, convert): the same checks, only failures are shown. */
static ue_result check_visit(const ue_model_seen *m, void *ctx) {
    model_verdict mv;
    model_verdict_check(((model_visits *)ctx)->o, m, &mv, NULL);
    model_verdict_apply(ctx, m->name, &mv);
    ue_diag_free(&mv.d);
    return UE_OK;
}

int models_check(const cli_opts *o, const char *path, ue_archive *a, bool print, cli_tally *sum) {
    model_visits v = {o, 0, sum, NULL, print};
    walk_models(o, path, a, check_visit, &v);
    return v.worst;
}

/* Decode → encode → compare by the model's format; a format without a writer says so. */
static int roundtrip_one(const cli_opts *o, const ue_model_found *m) {
    if (!m->format->roundtrip) {
        printf("  model %s: not round-tripped (unearth has no %s writer)\n", m->name, m->format->name);
        return 0;
    }
    ue_diag d = {0};
    ue_model_check check;
    memset(&check, 0, sizeof check);
    ue_result r = m->format->roundtrip(m->data, m->size, o->mode, &check, &d);
    ue_buf_free(&check.stats);
    if (r == UE_OK) {
        printf("  model %s: identical (%s)\n", m->name, check.summary);
    } else {
        cli_print_diags_as(m->name, &d, 20);
        printf("  model %s: MISMATCH\n", m->name);
    }
    ue_diag_free(&d);
    return r == UE_OK ? 0 : EXIT_INVALID;
}

int models_roundtrip(const cli_opts *o, const char *path) {
    ue_model_found *found;
    size_t count;
    if (ue_model_collect(path, o->mode, &found, &count, NULL) != UE_OK) return 0;
    int worst = 0;
    for (size_t i = 0; i < count; i++) {
        int code = roundtrip_one(o, &found[i]);
        if (code > worst) worst = code;
    }
    ue_model_found_free(found, count);
    return worst;
}

