/* unearth — median cut for indexed Texm palettes: the image's distinct colours are split into
 * at most 256 boxes, each box's pixel-weighted mean colour one palette entry. */
#include "parkan/texm_quantise.h"

#include <stdlib.h>

/* One distinct colour: packed 0xRRGGBB, how many pixels have it, and the sort key of a split. */
typedef struct colour {
    uint32_t key, rgb, count;
} colour;

/* A box: colours [first, first + n) of the colour array, and the pixels they cover. */
typedef struct box {
    size_t first, n;
    uint64_t pixels;
    unsigned range; /* of its widest channel `axis` (measured once, when the box is made) */
    int axis;
} box;

static unsigned channel(uint32_t rgb, int c) { return (rgb >> (16 - 8 * c)) & 255u; }

static int by_key(const void *a, const void *b) {
    uint32_t x = ((const colour *)a)->key, y = ((const colour *)b)->key;
    return (x > y) - (x < y);
}

/* The distinct colours of the image with their pixel counts, sorted by RGB; NULL out of memory. */
static colour *distinct_colours(const uint8_t *rgba, size_t pixels, size_t *n) {
    colour *c = malloc(pixels * sizeof *c);
    if (!c) return NULL;
    for (size_t i = 0; i < pixels; i++) {
        const uint8_t *p = rgba + 4 * i;
        uint32_t rgb = (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
        c[i] = (colour){rgb, rgb, 1};
    }
    qsort(c, pixels, sizeof *c, by_key);
    size_t out = 0;
    for (size_t i = 0; i < pixels; i++) {
        if (out && c[out - 1].rgb == c[i].rgb) c[out - 1].count++;
        else c[out++] = c[i];
    }
    *n = out;
    return c;
}

/* Measures the widest channel of a box (ties: R before G before B) and its range of values. */
static void measure(const colour *c, box *b) {
    b->range = 0, b->axis = 0;
    for (int ch = 0; ch < 3; ch++) {
        unsigned lo = 255, hi = 0;
        for (size_t i = b->first; i < b->first + b->n; i++) {
            unsigned v = channel(c[i].rgb, ch);
            lo = v < lo ? v : lo, hi = v > hi ? v : hi;
        }
        if (hi > lo && hi - lo > b->range) b->range = hi - lo, b->axis = ch;
    }
}

/* Sorts the box along `axis` (then by RGB) and cuts it where half its pixels are on each side,
 * keeping at least one colour in each half; the upper half goes to `upper`. */
static void split(colour *c, box *b, box *upper) {
    int axis = b->axis;
    for (size_t i = b->first; i < b->first + b->n; i++) c[i].key = channel(c[i].rgb, axis) << 24 | c[i].rgb;
    qsort(c + b->first, b->n, sizeof *c, by_key);
    uint64_t below = 0;
    size_t cut = 0;
    while (cut + 1 < b->n && (below + c[b->first + cut].count) * 2 <= b->pixels) below += c[b->first + cut++].count;
    if (cut == 0) below = c[b->first].count, cut = 1;
    *upper = (box){b->first + cut, b->n - cut, b->pixels - below, 0, 0};
    b->n = cut, b->pixels = below;
    measure(c, b);
    measure(c, upper);
}

static void mean_colour(const colour *c, const box *b, uint8_t out[4]) {
    for (int ch = 0; ch < 3; ch++) {
        uint64_t sum = 0;
        for (size_t i = b->first; i < b->first + b->n; i++) sum += (uint64_t)channel(c[i].rgb, ch) * c[i].count;
        out[ch] = (uint8_t)((sum + b->pixels / 2) / b->pixels);
    }
    out[3] = 255;
}

unsigned texm_median_cut(const uint8_t *rgba, size_t pixels, uint8_t palette[256][4]) {
    size_t n;
    colour *c = pixels ? distinct_colours(rgba, pixels, &n) : NULL;
    if (!c) return 0;
    box boxes[256];
    unsigned count = 1;
    boxes[0] = (box){0, n, pixels, 0, 0};
    measure(c, &boxes[0]);
    while (count < 256) {
        /* the box with the widest channel is cut next (ties: the first) */
        unsigned pick = 0;
        for (unsigned k = 1; k < count; k++)
            if (boxes[k].range > boxes[pick].range) pick = k;
        if (boxes[pick].range == 0) break; /* every box is one colour */
        split(c, &boxes[pick], &boxes[count++]);
    }
    for (unsigned k = 0; k < count; k++) mean_colour(c, &boxes[k], palette[k]);
    free(c);
    return count;
}
