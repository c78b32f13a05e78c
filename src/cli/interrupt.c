/* unearth CLI — interrupts of every verb (SIGINT, SIGTERM, SIGHUP): the temporary files and
 * directories in flight are deleted, what was finished is said, and the exit code is 128 + N. */
#define _GNU_SOURCE /* getdents64, O_PATH */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"

/* The handler's registry is the kernel's: every temporary the library has in flight is held
 * open by this process (a named temp file open for writing, a NAME.partial-XXXXXX directory
 * held with O_PATH; unnamed O_TMPFILE files need nothing), so /proc/self/fd lists exactly
 * this process's temporaries, whichever thread or layer made them, with no state to keep. The
 * library's own threads block signals, so the handler runs on the verb's thread, between two
 * of its steps, and never meets a temporary half made (src/common/io.c). */

static const char *verb_name = "";
static const char *output_name; /* the verb's one output (-o), NULL when it has none */
static struct stat output_before; /* what was at output_name when the verb started */
static bool output_existed;
/* Lock-free atomics: the handler sets them, every thread of a deferring verb reads them. */
static atomic_int deferring, deferred_signal;

static void say(const char *s) {
    size_t n = strlen(s);
    while (n > 0) {
        ssize_t w = write(STDERR_FILENO, s, n);
        if (w <= 0 && errno != EINTR) return;
        if (w > 0) s += w, n -= (size_t)w;
    }
}

const char *cli_signal_name(int sig) {
    return sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" : "SIGINT";
}

/* Whether `path` ends in MARK followed by the six letters or digits mkstemp/mkdtemp choose. */
static bool is_temp_name(const char *path, const char *mark) {
    size_t n = strlen(path), m = strlen(mark);
    if (n < m + 6 || memcmp(path + n - 6 - m, mark, m) != 0) return false;
    for (size_t i = n - 6; i < n; i++) {
        char c = path[i];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) return false;
    }
    return true;
}

/* Empties the directory `dfd` (depth-first, with system calls only: async-signal-safe). A
 * library thread may still be creating files in it; passes repeat until one finds it empty. */
static void empty_dir(int dfd, int depth) {
    char buf[4096];
    for (int pass = 0; pass < 64; pass++) {
        if (lseek(dfd, 0, SEEK_SET) < 0) return;
        bool found = false;
        ssize_t got;
        while ((got = getdents64(dfd, buf, sizeof buf)) > 0) {
            for (ssize_t at = 0; at < got;) {
                struct dirent64 *e = (struct dirent64 *)(void *)(buf + at);
                at += e->d_reclen;
                if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
                found = true;
                if (unlinkat(dfd, e->d_name, 0) == 0 || errno != EISDIR || depth >= 64) continue;
                int sub = openat(dfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
                if (sub < 0) continue;
                empty_dir(sub, depth + 1);
                close(sub);
                unlinkat(dfd, e->d_name, AT_REMOVEDIR);
            }
        }
        if (!found) return;
    }
}

static void remove_temp_dir(const char *path) {
    for (int pass = 0; pass < 64; pass++) {
        if (rmdir(path) == 0 || (errno != ENOTEMPTY && errno != EEXIST)) return;
        int dfd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
        if (dfd < 0) return;
        empty_dir(dfd, 0);
        close(dfd);
    }
}

/* Deletes every temporary this process holds open (see the top of this file); an input
 * named like one is never open for writing nor with O_PATH, so it is never touched. */
static void remove_temporaries(void) {
    int fds = open("/proc/self/fd", O_RDONLY | O_DIRECTORY);
    if (fds < 0) return;
    char buf[4096];
    ssize_t got;
    while ((got = getdents64(fds, buf, sizeof buf)) > 0) {
        for (ssize_t at = 0; at < got;) {
            struct dirent64 *e = (struct dirent64 *)(void *)(buf + at);
            at += e->d_reclen;
            size_t digits = strspn(e->d_name, "0123456789");
            if (digits == 0 || digits > 9 || e->d_name[digits] != 0) continue;
            int fd = 0;
            for (size_t i = 0; i < digits; i++) fd = fd * 10 + (e->d_name[i] - '0');
            if (fd == fds) continue;
            char link[32] = "/proc/self/fd/", path[4096];
            memcpy(link + 14, e->d_name, digits + 1);
            ssize_t n = readlink(link, path, sizeof path - 1);
            int flags = fcntl(fd, F_GETFL);
            if (n <= 0 || flags < 0) continue;
            path[n] = 0;
            if ((flags & O_PATH) && is_temp_name(path, ".partial-")) remove_temp_dir(path);
            else if (!(flags & O_PATH) && (flags & O_ACCMODE) != O_RDONLY && is_temp_name(path, ".tmp-"))
                unlink(path);
        }
    }
    close(fds);
}

/* An output appears at its name only whole (linked or renamed there complete), so a new file
 * there is the verb's finished output; stat is async-signal-safe. */
static const char *output_state(void) {
    struct stat now;
    bool exists = lstat(output_name, &now) == 0;
    bool same = exists && output_existed && now.st_dev == output_before.st_dev &&
                now.st_ino == output_before.st_ino;
    return exists && !same ? " is complete" : output_existed ? " is left as it was" : " was not written";
}

/* A deferring verb only records the first signal and stops by itself between steps; a second
 * one (the user insisting) ends the process at once, like any signal of a verb that does not
 * defer: the same cleanup, the same exit code. */
static void on_signal(int sig) {
    if (deferring && !deferred_signal) {
        deferred_signal = sig;
        return;
    }
    remove_temporaries();
    say("unearth: ");
    say(verb_name);
    say(deferring ? ": interrupted again (" : ": interrupted (");
    say(cli_signal_name(sig));
    say(")");
    if (deferring) {
        say("; stopped at once, outputs finished so far are kept");
    } else if (output_name) {
        say("; ");
        say(output_name);
        say(output_state());
    }
    say("; no temporary file is left\n");
    _exit(128 + sig);
}

void cli_interrupt_install(const char *verb, const char *output) {
    verb_name = verb ? verb : "";
    output_name = output;
    output_existed = output && lstat(output, &output_before) == 0;
    struct sigaction on = {0};
    on.sa_handler = on_signal;
    sigemptyset(&on.sa_mask);
    /* one signal at a time: a second one waits until the first has cleaned up and exited */
    static const int caught[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof caught / sizeof *caught; i++) sigaddset(&on.sa_mask, caught[i]);
    for (size_t i = 0; i < sizeof caught / sizeof *caught; i++) {
        /* A signal ignored from the start stays ignored: nohup's SIGHUP, and the SIGINT a shell
         * ignores for a command it runs in the background. */
        struct sigaction before;
        if (sigaction(caught[i], NULL, &before) == 0 && before.sa_handler != SIG_IGN)
            sigaction(caught[i], &on, NULL);
    }
}

void cli_interrupt_defer(bool defer) { deferring = defer; }

int cli_interrupted(void) { return deferred_signal; }

/* While ignored, an output over RLIMIT_FSIZE is a write error (EFBIG) that stops the verb with a
 * message, not SIGXFSZ killing the process with nothing said. */
void cli_ignore_fsize(bool ignore) {
    static struct sigaction before;
    static bool ignoring;
    if (ignore == ignoring) return;
    if (ignore) {
        struct sigaction ign = {0};
        ign.sa_handler = SIG_IGN;
        sigemptyset(&ign.sa_mask);
        sigaction(SIGXFSZ, &ign, &before);
    } else {
        sigaction(SIGXFSZ, &before, NULL);
    }
    ignoring = ignore;
}
