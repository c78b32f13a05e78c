/* unearth tests — runs a piece of work in a forked child and reports the child's peak resident
 * memory (getrusage through wait4), so a test can bound what a small hostile input costs. */
#ifndef UE_TEST_PEAK_RSS_H
#define UE_TEST_PEAK_RSS_H

/* Include this before any other header: wait4 needs _GNU_SOURCE from the first system header. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <stdbool.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* Forks, runs `work(arg)` in the child (its return value is the exit status: 0 = the work did
 * what the test expects), and stores the child's peak RSS in KiB. False when the child failed
 * or could not be run. The child starts from the parent's image, so the figure includes the
 * test program itself (a few MiB; more under ASan). */
static bool ue_run_measured(int (*work)(void *), void *arg, long *peak_kib) {
    *peak_kib = -1;
    pid_t pid = fork();
    if (pid < 0) return false;
    if (pid == 0) _exit(work(arg));
    int status = 0;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) != pid) return false;
    *peak_kib = ru.ru_maxrss;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

#endif
