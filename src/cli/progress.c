/* unearth CLI — the progress bar of long runs: one line on stderr, redrawn in place at most about
 * six times a second, and only when stderr is a terminal (logs and pipes get no chatter). */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "cli/batch.h"

double cli_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void cli_progress_begin(cli_progress *p, bool quiet) {
    memset(p, 0, sizeof *p);
    p->enabled = !quiet && isatty(STDERR_FILENO);
    p->start = cli_now();
    p->last_draw = -1.0;
}

static int terminal_width(void) {
    struct winsize ws;
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20) return ws.ws_col;
    return 80;
}

/* "1:05" or "1:02:05" */
static void clock_text(double seconds, char *out, size_t cap) {
    unsigned long s = seconds > 0 && seconds < 1e7 ? (unsigned long)(seconds + 0.5) : 0;
    if (s >= 3600) snprintf(out, cap, "%lu:%02lu:%02lu", s / 3600, s / 60 % 60, s % 60);
    else snprintf(out, cap, "%lu:%02lu", s / 60, s % 60);
}

void cli_progress_update(cli_progress *p, size_t done, size_t total, size_t models,
                         const char *current) {
    if (!p->enabled) return;
    double t = cli_now();
    if (p->last_draw >= 0 && t - p->last_draw < 1.0 / 6) return;
    p->last_draw = t;
    double elapsed = t - p->start;
    char eta[32] = "--:--";
    if (done > 0 && total >= done) clock_text(elapsed * (double)(total - done) / (double)done, eta, sizeof eta);
    char line[512];
    double rate = elapsed > 0 ? (double)models / elapsed : 0.0;
    int n = p->per_model ? snprintf(line, sizeof line, "%zu/%zu models, %.1f models/s, ETA %s  ", done, total, rate, eta)
                         : snprintf(line, sizeof line, "%zu/%zu files, %zu models, %.1f models/s, ETA %s  ", done,
                                    total, models, rate, eta);
    int width = terminal_width() - 1;
    if (n < 0) return;
    /* The current file fills what is left of the line, its end kept (the name matters most). */
    int room = width - n;
    size_t len = current ? strlen(current) : 0;
    if (room > 3 && len > (size_t)room) {
        const char *tail = current + len - (size_t)(room - 3);
        while ((*tail & 0xC0) == 0x80) tail++; /* start at a whole UTF-8 character */
        fprintf(stderr, "\r%s...%s\x1b[K", line, tail);
    } else if (room > 3) {
        fprintf(stderr, "\r%s%s\x1b[K", line, current ? current : "");
    } else {
        fprintf(stderr, "\r%.*s\x1b[K", width, line);
    }
    fflush(stderr);
    p->drawn = true;
}

void cli_progress_clear(cli_progress *p) {
    if (!p->enabled || !p->drawn) return;
    fputs("\r\x1b[K", stderr);
    fflush(stderr);
    p->drawn = false;
    p->last_draw = -1.0;
}
