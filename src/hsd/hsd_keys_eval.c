/* unearth — the runtime's evaluation of one HSD key stream at a frame (docs/formats/hsd-animation.md#evaluation): the
 * interpolation registers replayed key by key, then step, linear or Hermite within the segment. */
#include "unearth/hsd_anim.h"

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

/* The value `t` frames into a segment of `span` frames. */
static double segment_value(const key_regs *r, double t, double span) {
    switch (r->op_intrp) {
    case UE_HSD_KEY_LIN:
        return span > 0 ? r->p0 + (r->p1 - r->p0) * (t / span) : r->p1;
    case UE_HSD_KEY_SPL0:
    case UE_HSD_KEY_SPL:
    case UE_HSD_KEY_SLP: {
        if (!(span > 0)) return r->p1;
        double u = t / span, u2 = u * u, u3 = u2 * u;
        return r->p0 * (2 * u3 - 3 * u2 + 1) + r->p1 * (-2 * u3 + 3 * u2) +
               span * r->d0 * (u3 - 2 * u2 + u) + span * r->d1 * (u3 - u2);
    }
    default: /* CON, KEY: the earlier key's value until the next key */
        return r->p0;
    }
}

bool ue_hsd_keys_eval(const ue_hsd_key *keys, size_t count, float start_frame, float frame,
                      float *value) {
    if (!keys || !value) return false;
    double local = (double)frame + (double)start_frame;
    key_regs r = {0, 0, 0, 0, UE_HSD_KEY_NONE};
    uint8_t prev_op = UE_HSD_KEY_NONE;
    bool have_key = false;
    double t_a = 0;
    for (size_t i = 0; i < count; i++) {
        const ue_hsd_key *k = &keys[i];
        if (k->op < UE_HSD_KEY_CON || k->op > UE_HSD_KEY_KEY) continue; /* not an entry */
        load_entry(&r, k, prev_op);
        prev_op = k->op;
        if (k->op == UE_HSD_KEY_SLP) continue; /* no key: the clock does not move */
        double t_b = k->time;
        if (!have_key) {
            if (!(local >= t_b)) return false; /* before the first key (NaN too) */
            have_key = true;
        } else if (local < t_b) {
            *value = (float)segment_value(&r, local - t_a, t_b - t_a);
            return true;
        }
        t_a = t_b;
    }
    if (!have_key) return false;
    *value = (float)r.p1; /* after the last key: hold it */
    return true;
}
