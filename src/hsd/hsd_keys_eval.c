/* unearth — the runtime's evaluation of one HSD key stream at a frame (docs/formats/hsd-animation.md#evaluation): the
 * interpolation registers replayed key by key, then step, linear or Hermite within the segment. */
#include <math.h>
#include <string.h>

#include "hsd/hsd_anim_eval.h"

/* The runtime's registers: values p0 → p1 of the active segment, their tangents d0, d1, and
 * the opcode that governs the segment (the one parsed before the segment's end key). */
typedef struct key_regs {
    double p0, p1, d0, d1;
    uint8_t op_intrp;
} key_regs;

/* Loads one entry as the runtime does; `prev_op` is the opcode of the entry parsed before it. */
static void load_entry(key_regs *r, const ue_hsd_key *k, uint8_t prev_op) {
    r->op_intrp = prev_op;
    switch (k->op) {
    case UE_HSD_KEY_CON:
    case UE_HSD_KEY_LIN:
        r->p0 = r->p1;
        r->p1 = k->value;
        /* after an SLP both tangents stay: the SLP's slope is the incoming one (docs/formats/hsd-animation.md#evaluation) */
        if (prev_op != UE_HSD_KEY_SLP) {
            r->d0 = r->d1;
            r->d1 = 0;
        }
        break;
    case UE_HSD_KEY_SPL0:
        r->p0 = r->p1;
        r->d0 = r->d1;
        r->p1 = k->value;
        r->d1 = 0;
        break;
    case UE_HSD_KEY_SPL:
        r->p0 = r->p1;
        r->p1 = k->value;
        r->d0 = r->d1;
        r->d1 = k->slope;
        break;
    case UE_HSD_KEY_SLP:
        r->d0 = r->d1;
        r->d1 = k->slope;
        break;
    default: /* KEY: a step key, tangents untouched */
        r->p0 = r->p1;
        r->p1 = k->value;
        break;
    }
}

void hsd_key_cursor_reset(hsd_key_cursor *c) {
    memset(c, 0, sizeof *c);
    c->op_intrp = c->prev_op = UE_HSD_KEY_NONE;
    c->last = -INFINITY;
}

static void save_regs(hsd_key_cursor *c, const key_regs *r) {
    c->p0 = r->p0, c->p1 = r->p1, c->d0 = r->d0, c->d1 = r->d1, c->op_intrp = r->op_intrp;
}

/* The key walk below, resumed where the previous (earlier or equal) frame left it: the registers
 * after the last key parsed, and whether that key still ends the segment (`pending`). A frame
 * before the previous one starts the walk again, so any order of frames gives the same values. */
bool hsd_keys_eval_at(hsd_key_cursor *c, const ue_hsd_key *keys, size_t count, float start_frame, float frame,
                      float *value) {
    if (!keys || !value) return false;
    double local = (double)frame + (double)start_frame;
    if (!(local >= c->last)) hsd_key_cursor_reset(c);
    c->last = local;
    key_regs r = {c->p0, c->p1, c->d0, c->d1, c->op_intrp};
    if (c->pending) { /* the key that ended the segment of the previous frame */
        if (!c->have_key) {
            if (!(local >= c->t_b)) return false;
            c->have_key = true;
        } else if (local < c->t_b) {
            *value = (float)hsd_cursor_segment(c, local - c->t_a, c->t_b - c->t_a);
            return true;
        }
        c->t_a = c->t_b;
        c->pending = false;
    }
    for (; c->next < count; c->next++) {
        const ue_hsd_key *k = &keys[c->next];
        if (k->op < UE_HSD_KEY_CON || k->op > UE_HSD_KEY_KEY) continue; /* not an entry */
        load_entry(&r, k, c->prev_op);
        c->prev_op = k->op;
        if (k->op == UE_HSD_KEY_SLP) continue; /* no key: the clock does not move */
        double t_b = k->time;
        if (!c->have_key && !(local >= t_b)) { /* before the first key (NaN too) */
            save_regs(c, &r), c->t_b = t_b, c->pending = true, c->next++;
            return false;
        }
        if (c->have_key && local < t_b) {
            save_regs(c, &r), c->t_b = t_b, c->pending = true, c->next++;
            *value = (float)hsd_cursor_segment(c, local - c->t_a, t_b - c->t_a);
            return true;
        }
        c->have_key = true;
        c->t_a = t_b;
    }
    save_regs(c, &r);
    if (!c->have_key) return false;
    *value = (float)r.p1; /* after the last key: hold it */
    return true;
}

bool ue_hsd_keys_eval(const ue_hsd_key *keys, size_t count, float start_frame, float frame,
                      float *value) {
    hsd_key_cursor c;
    hsd_key_cursor_reset(&c);
    return hsd_keys_eval_at(&c, keys, count, start_frame, frame, value);
}
