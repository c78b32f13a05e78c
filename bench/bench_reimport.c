/* Benchmark: `unearth import --base` of a client's re-export of an unedited 10,000-triangle model
 * next to `unearth convert` of the same model, whole processes; Blender re-exports when installed.
 * Then (or alone, --hsd) the sample creature's HSD edit-mode import next to its convert; alone,
 * --hsd-new: a new HSD model from a generated 10,000-triangle, 40-joint skinned glb. */
#define _DEFAULT_SOURCE
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_stats.h"

#include "unearth/gltf.h"
#include "unearth/gltf_read.h"
#include "unearth/msh.h"
#include "unearth/msh_import.h"

#define ROWS 50
#define COLUMNS 100 /* around; the last column repeats the first with u = 1: a UV seam */
#define PI_F 3.14159265f

/* CPU seconds of this process: Blender, a child, and other jobs do not count. */
static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A wavy tube of ROWS × COLUMNS quads (10,000 triangles, 5,151 vertices), smooth normals, one
 * UV seam, in one node's LOD 0 slot: what a modder's part looks like to an exporter. */
static ue_result make_model(ue_buf *out) {
    enum { NV = (ROWS + 1) * (COLUMNS + 1), NI = ROWS * COLUMNS * 6 };
    static float pos[3 * NV], nrm[3 * NV], uv[2 * NV];
    static uint16_t idx[NI];
    for (int y = 0, v = 0; y <= ROWS; y++)
        for (int x = 0; x <= COLUMNS; x++, v++) {
            float a = 2 * PI_F * (float)(x % COLUMNS) / COLUMNS, r = 1.0f + 0.1f * sinf(0.7f * (float)y);
            pos[3 * v] = r * cosf(a), pos[3 * v + 1] = r * sinf(a), pos[3 * v + 2] = 0.08f * (float)y;
            nrm[3 * v] = cosf(a), nrm[3 * v + 1] = sinf(a), nrm[3 * v + 2] = 0;
            uv[2 * v] = (float)x / COLUMNS, uv[2 * v + 1] = (float)y / ROWS;
        }
    for (int y = 0, k = 0; y < ROWS; y++)
        for (int x = 0; x < COLUMNS; x++) {
            uint16_t a = (uint16_t)(y * (COLUMNS + 1) + x), b = (uint16_t)(a + 1), c = (uint16_t)(a + COLUMNS + 1),
                     d = (uint16_t)(c + 1);
            idx[k++] = a, idx[k++] = b, idx[k++] = c, idx[k++] = b, idx[k++] = d, idx[k++] = c;
        }
    uint16_t parents[1] = {0xFFFF};
    const char *names[1] = {"part"};
    ue_msh m;
    ue_result r = ue_msh_new(&m, 1, parents, names);
    if (r != UE_OK) return r;
    size_t slot;
    ue_msh_geometry g = {pos, nrm, uv, NULL, NV, idx, NI, 0};
    r = ue_msh_add_slot(&m, 0, 0, 0, &slot);
    if (r == UE_OK) r = ue_msh_replace_slot_geometry(&m, slot, &g, NULL);
    if (r == UE_OK) r = ue_msh_write(&m, out, NULL);
    ue_msh_free(&m);
    return r;
}

/* convert: MSH → scene → GLB, as `unearth convert` does without the file write. */
static ue_result convert(const ue_buf *msh, ue_buf *glb) {
    ue_msh m;
    ue_scene s;
    ue_scene_init(&s);
    ue_gltf_options o = {0};
    o.format = UE_GLTF_GLB;
    ue_result r = ue_msh_parse(msh->data, msh->size, UE_MODE_STRICT, &m, NULL);
    if (r != UE_OK) return r;
    r = ue_msh_to_scene(&m, "tube", NULL, &s, NULL);
    if (r == UE_OK) r = ue_gltf_export(&s, &o, glb, NULL, NULL);
    ue_scene_free(&s);
    ue_msh_free(&m);
    return r;
}

/* CPU seconds of each step of import --base, summed over the rounds. */
static double phase[4];
static const char *const phase_name[4] = {"glTF read", "base parse", "apply", "write"};

/* import --base: GLB read, base parsed, the scene applied, the model written. */
static ue_result reimport(const uint8_t *glb, size_t glb_size, const ue_buf *msh, ue_buf *out, ue_diag *d) {
    ue_scene s;
    ue_msh m;
    ue_scene_init(&s);
    double t0 = now(), t1, t2, t3;
    ue_result r = ue_gltf_read(glb, glb_size, NULL, UE_MODE_STRICT, &s, d);
    t1 = now();
    if (r == UE_OK) r = ue_msh_parse(msh->data, msh->size, UE_MODE_STRICT, &m, d);
    t2 = t3 = now();
    if (r == UE_OK) {
        r = ue_msh_apply_scene(&m, &s, NULL, d);
        t3 = now();
        if (r == UE_OK) r = ue_msh_write(&m, out, d);
        ue_msh_free(&m);
    }
    double t4 = now();
    phase[0] += t1 - t0, phase[1] += t2 - t1, phase[2] += t3 - t2, phase[3] += t4 - t3;
    ue_scene_free(&s);
    return r;
}

static bool write_file(const char *path, const uint8_t *data, size_t size) {
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(data, 1, size, f) == size;
    return f && !fclose(f) && ok;
}

/* Blender's re-export of `in` (and a parents-first copy), or false when Blender is missing or fails. */
static bool blender_reexport(const char *dir, const char *in, char *out, char *ordered, size_t cap) {
    if (system("command -v blender >/dev/null 2>&1") != 0) return false;
    snprintf(out, cap, "%s/tube_blender.glb", dir);
    snprintf(ordered, cap, "%s/tube_blender_ordered.glb", dir);
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "blender -b --factory-startup --python '%s/tests/cli/blender_reexport.py' -- '%s' '%s' '%s' "
             ">'%s/blender.log' 2>&1",
             UE_SOURCE_DIR, in, out, ordered, dir);
    if (system(cmd) != 0) {
        fprintf(stderr, "blender failed; its log: %s/blender.log\n", dir);
        return false;
    }
    return true;
}

/* Vertices of every primitive put in a shuffled order (a fixed LCG), the triangles following:
 * what a client that reorders does, which the pairing must undo. */
static void shuffle_vertices(ue_scene_primitive *p) {
    uint32_t n = p->vertex_count, *new_of = malloc((n ? n : 1) * sizeof *new_of), seed = 12345;
    if (!new_of) return;
    for (uint32_t v = 0; v < n; v++) new_of[v] = v;
    for (uint32_t v = n; v > 1; v--) {
        seed = seed * 1664525u + 1013904223u;
        uint32_t w = seed % v, t = new_of[v - 1];
        new_of[v - 1] = new_of[w], new_of[w] = t;
    }
    float **arrays[3] = {&p->positions, &p->normals, &p->uv[0]};
    static const int width[3] = {3, 3, 2};
    for (int a = 0; a < 3; a++) {
        float *old = *arrays[a], *moved = old ? malloc((size_t)width[a] * n * sizeof *moved) : NULL;
        if (!moved) continue;
        for (uint32_t v = 0; v < n; v++)
            memcpy(&moved[(size_t)width[a] * new_of[v]], &old[(size_t)width[a] * v], (size_t)width[a] * sizeof *moved);
        free(old);
        *arrays[a] = moved;
    }
    for (uint32_t i = 0; i < p->index_count; i++) p->indices[i] = new_of[p->indices[i]];
    free(new_of);
}

/* The client's file with its vertices shuffled, written by our exporter to `path`. */
static bool write_shuffled(const uint8_t *client, size_t size, const char *path) {
    ue_scene s;
    ue_scene_init(&s);
    ue_buf out = {0};
    ue_gltf_options o = {0};
    o.format = UE_GLTF_GLB;
    bool ok = ue_gltf_read(client, size, NULL, UE_MODE_STRICT, &s, NULL) == UE_OK;
    for (size_t m = 0; ok && m < s.mesh_count; m++)
        for (size_t p = 0; p < s.meshes[m].primitive_count; p++) shuffle_vertices(&s.meshes[m].primitives[p]);
    ok = ok && ue_gltf_export(&s, &o, &out, NULL, NULL) == UE_OK && write_file(path, out.data, out.size);
    ue_buf_free(&out);
    ue_scene_free(&s);
    return ok;
}

static double least(const double *v, int n) {
    double m = v[0];
    for (int k = 1; k < n; k++) m = v[k] < m ? v[k] : m;
    return m;
}

static double wall_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One run of the CLI, its output to /dev/null: wall seconds from fork to exit, and the child's
 * CPU seconds (user + system), which the other jobs of a loaded machine do not inflate. */
static bool run_cli(char *const argv[], double *wall, double *cpu) {
    double t0 = wall_now();
    pid_t pid = fork();
    if (pid < 0) return false;
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) dup2(null, 1), dup2(null, 2);
        execv(argv[0], argv);
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) != pid) return false;
    *wall = wall_now() - t0;
    *cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static bool same_file(const char *path, const ue_buf *want) {
    uint8_t *data = NULL;
    size_t size = 0;
    if (ue_file_read(path, 1u << 30, &data, &size, NULL) != UE_OK) return false;
    bool same = size == want->size && !memcmp(data, want->data, size);
    free(data);
    return same;
}

/* Samples of one side: wall and CPU seconds per round. */
typedef struct samples {
    double *wall, *cpu;
} samples;

static void print_side(const char *what, samples *s, int rounds) {
    double wmin = least(s->wall, rounds), cmin = least(s->cpu, rounds);
    printf("  %-42s wall min %7.2f  median %7.2f   CPU min %7.2f  median %7.2f ms\n", what, wmin * 1e3,
           bench_median(s->wall, rounds) * 1e3, cmin * 1e3, bench_median(s->cpu, rounds) * 1e3);
}

/* The measure: `unearth convert MODEL -o X.glb` and `unearth import CLIENT.glb --base MODEL
 * -o X.msh` as whole processes (exec, read, work, write, exit), alternated round by round. */
static int time_processes(const char *cli, const char *dir, const char *model, const char *client, const char *what,
                          const ue_buf *msh, int rounds) {
    char glb_out[300], msh_out[300];
    snprintf(glb_out, sizeof glb_out, "%s/convert_out.glb", dir);
    snprintf(msh_out, sizeof msh_out, "%s/import_out.msh", dir);
    char *conv[] = {(char *)cli, "convert", (char *)model, "-o", glb_out, "-f", NULL};
    char *imp[] = {(char *)cli, "import", (char *)client, "--base", (char *)model, "-o", msh_out, "-f", NULL};
    samples c = {calloc((size_t)rounds, sizeof(double)), calloc((size_t)rounds, sizeof(double))};
    samples i = {calloc((size_t)rounds, sizeof(double)), calloc((size_t)rounds, sizeof(double))};
    if (!c.wall || !c.cpu || !i.wall || !i.cpu) return 3;
    for (int k = 0; k < rounds; k++)
        if (!run_cli(conv, &c.wall[k], &c.cpu[k]) || !run_cli(imp, &i.wall[k], &i.cpu[k])) {
            fprintf(stderr, "%s failed; run it by hand: %s import %s --base %s -o %s\n", cli, cli, client, model, msh_out);
            return 1;
        }
    bool identical = same_file(msh_out, msh);
    double ratio_min = least(i.wall, rounds) / least(c.wall, rounds);
    double ratio_cpu = least(i.cpu, rounds) / least(c.cpu, rounds);
    printf("whole processes (%s), %d rounds each, alternated; imported: %s\n", cli, rounds, what);
    print_side("unearth convert tube.msh -o x.glb", &c, rounds);
    print_side("unearth import client.glb --base tube.msh", &i, rounds);
    double ratio_med = bench_median(i.wall, rounds) / bench_median(c.wall, rounds); /* print_side sorted them */
    printf("  ratio import / convert: wall min %.2f, wall median %.2f, CPU min %.2f (goal <= 2)\n", ratio_min,
           ratio_med, ratio_cpu);
    printf("  unedited re-export written back byte-identical: %s\n", identical ? "yes" : "NO");
    free(c.wall), free(c.cpu), free(i.wall), free(i.cpu);
    return identical ? 0 : 1;
}

/* Issue 23's measure: `unearth convert creature.dat -o c.glb` and `unearth import c.glb --base
 * creature.dat -o c2.dat` (HSD edit mode) of the sample creature, whole processes, alternated; the
 * glb is convert's own, so the DAT must come back byte for byte. */
static int time_hsd_creature(const char *cli, const char *dir, int rounds) {
    char demo[300], dat[340], glb[300], back[300];
    snprintf(demo, sizeof demo, "%s/demo", dir);
    snprintf(dat, sizeof dat, "%s/gamecube/dat/creature.dat", demo);
    snprintf(glb, sizeof glb, "%s/c.glb", dir);
    snprintf(back, sizeof back, "%s/c2.dat", dir);
    char *make[] = {(char *)cli, "demo", "-o", demo, "-f", NULL};
    char *conv[] = {(char *)cli, "convert", dat, "-o", glb, "-f", NULL};
    char *imp[] = {(char *)cli, "import", glb, "--base", dat, "-o", back, "-f", NULL};
    samples c = {calloc((size_t)rounds, sizeof(double)), calloc((size_t)rounds, sizeof(double))};
    samples i = {calloc((size_t)rounds, sizeof(double)), calloc((size_t)rounds, sizeof(double))};
    double w, u;
    int rc = c.wall && c.cpu && i.wall && i.cpu ? 0 : 3;
    if (!rc && !run_cli(make, &w, &u)) rc = 1;
    for (int k = 0; !rc && k < rounds; k++)
        if (!run_cli(conv, &c.wall[k], &c.cpu[k]) || !run_cli(imp, &i.wall[k], &i.cpu[k])) rc = 1;
    ue_buf want = {0};
    uint8_t *bytes = NULL;
    size_t size = 0;
    if (!rc && ue_file_read(dat, 1u << 30, &bytes, &size, NULL) != UE_OK) rc = 3;
    want.data = bytes, want.size = size;
    bool identical = !rc && same_file(back, &want);
    free(bytes);
    if (!rc) {
        printf("HSD edit mode, the sample creature (%zu-byte DAT), whole processes, %d rounds each, alternated:\n",
               size, rounds);
        print_side("unearth convert creature.dat -o c.glb", &c, rounds);
        print_side("unearth import c.glb --base creature.dat", &i, rounds);
        printf("  ratio import / convert: wall median %.2f, CPU median %.2f (goal <= 3)\n",
               bench_median(i.wall, rounds) / bench_median(c.wall, rounds),
               bench_median(i.cpu, rounds) / bench_median(c.cpu, rounds));
        printf("  unedited glb written back byte-identical: %s\n", identical ? "yes" : "NO");
    } else {
        fprintf(stderr, "%s failed; run it by hand: %s import %s --base %s -o %s\n", cli, cli, glb, dat, back);
    }
    free(c.wall), free(c.cpu), free(i.wall), free(i.cpu);
    return rc ? rc : identical ? 0 : 1;
}

#define SKIN_JOINTS 40

/* Smooth painted weights at joint coordinate u: joint j weighs (1 - |u - j| / 2)², the 4 largest
 * kept and normalised (2 to 4 joints; the tube test of tests/cli/hsd_new_glb.py paints the same). */
static void paint(float u, uint16_t *joints, float *weights) {
    float sum = 0;
    for (int k = 0; k < 4; k++) {
        int j = (int)floorf(u) - 1 + k;
        float d = fabsf(u - (float)j), w = j >= 0 && j < SKIN_JOINTS && d < 2 ? (1 - d / 2) * (1 - d / 2) : 0;
        joints[k] = (uint16_t)(j >= 0 && j < SKIN_JOINTS ? j : 0), weights[k] = w, sum += w;
    }
    for (int k = 0; k < 4; k++) weights[k] /= sum;
}

/* The skinned tube of the new-model measure: ROWS × COLUMNS quads (10,000 triangles) around a
 * chain of 40 joints up its axis (inverse binds of the rest pose), painted smoothly: every vertex
 * its own blend of 2 to 4 joints (paint, at its height plus a twist), as weight painting gives;
 * normals and UVs. */
static ue_result write_skinned_tube(const char *path) {
    ue_scene s;
    ue_scene_init(&s);
    const float height = 10, step = height / (SKIN_JOINTS - 1);
    int32_t parent = -1, first = -1, tube = -1, skin = -1;
    for (int j = 0; j < SKIN_JOINTS; j++) {
        char name[16];
        snprintf(name, sizeof name, "bone%d", j);
        int32_t n = ue_scene_add_node(&s, name, parent);
        if (n < 0) break;
        s.nodes[n].translation[1] = j ? step : 0;
        parent = n, first = j ? first : n;
    }
    int32_t mesh = ue_scene_add_mesh(&s, "tube");
    ue_scene_primitive *p = mesh >= 0 ? ue_scene_add_primitive(&s, mesh) : NULL;
    if (p) tube = ue_scene_add_node(&s, "tube", -1), skin = ue_scene_add_skin(&s, "rig", SKIN_JOINTS);
    uint32_t nv = (ROWS + 1) * (COLUMNS + 1);
    ue_result r = tube < 0 || skin < 0 || s.node_count != SKIN_JOINTS + 1 ? UE_ERR_NOMEM
                  : ue_scene_primitive_alloc(p, nv, ROWS * COLUMNS * 6, UE_ATTR_NORMAL | UE_ATTR_UV0 | UE_ATTR_SKIN);
    if (r == UE_OK) {
        s.nodes[tube].mesh = mesh, s.nodes[tube].skin = skin;
        for (int j = 0; j < SKIN_JOINTS; j++) {
            s.skins[skin].joints[j] = first + j;
            s.skins[skin].inverse_bind[16 * j + 13] = -step * (float)j;
        }
        for (uint32_t row = 0, v = 0; row <= ROWS; row++)
            for (uint32_t col = 0; col <= COLUMNS; col++, v++) {
                float a = 2 * PI_F * (float)col / COLUMNS, t = (float)row * (SKIN_JOINTS - 1) / ROWS;
                float *pos = p->positions + 3 * v, *nrm = p->normals + 3 * v;
                pos[0] = cosf(a), pos[1] = t * step, pos[2] = sinf(a);
                nrm[0] = cosf(a), nrm[1] = 0, nrm[2] = sinf(a);
                p->uv[0][2 * v] = (float)col / COLUMNS, p->uv[0][2 * v + 1] = (float)row / ROWS;
                paint(t + 0.05f * sinf(a) + 0.004f * (float)col, p->joints + 4 * v, p->weights + 4 * v);
            }
        for (uint32_t row = 0, i = 0; row < ROWS; row++)
            for (uint32_t col = 0; col < COLUMNS; col++) {
                uint32_t a = row * (COLUMNS + 1) + col, b = a + 1, c = a + COLUMNS + 1, d = c + 1;
                uint32_t quad[6] = {a, c, b, b, c, d};
                memcpy(p->indices + i, quad, sizeof quad);
                i += 6;
            }
        r = ue_gltf_write_file(&s, path, false, true, NULL);
    }
    ue_scene_free(&s);
    return r;
}

/* Issue 23's measure for new models: `unearth import tube.glb -o tube.dat` (no --base) of the
 * skinned tube, whole processes; the result must pass `validate --strict`. Goal: 1 s. */
static int time_hsd_new(const char *cli, const char *dir, int rounds) {
    char glb[300], dat[300];
    snprintf(glb, sizeof glb, "%s/skinned_tube.glb", dir);
    snprintf(dat, sizeof dat, "%s/skinned_tube.dat", dir);
    char *imp[] = {(char *)cli, "import", glb, "-o", dat, "-f", NULL};
    char *check[] = {(char *)cli, "validate", "--strict", dat, NULL};
    samples i = {calloc((size_t)rounds, sizeof(double)), calloc((size_t)rounds, sizeof(double))};
    double w, u;
    int rc = i.wall && i.cpu ? 0 : 3;
    if (!rc && write_skinned_tube(glb) != UE_OK) rc = 3;
    for (int k = 0; !rc && k < rounds; k++)
        if (!run_cli(imp, &i.wall[k], &i.cpu[k])) rc = 1;
    bool valid = !rc && run_cli(check, &w, &u);
    if (!rc) {
        printf("HSD new model, a skinned tube (%d triangles, %d joints, smooth weights: 2-4 a vertex), whole processes, %d rounds:\n",
               ROWS * COLUMNS * 2, SKIN_JOINTS, rounds);
        print_side("unearth import tube.glb -o tube.dat", &i, rounds);
        printf("  ratio to the 1 s goal: wall median %.3f, CPU median %.3f\n", bench_median(i.wall, rounds),
               bench_median(i.cpu, rounds));
        printf("  result passes validate --strict: %s\n", valid ? "yes" : "NO");
    } else {
        fprintf(stderr, "%s failed; run it by hand: %s import %s -o %s\n", cli, cli, glb, dat);
    }
    free(i.wall), free(i.cpu);
    return rc ? rc : valid ? 0 : 1;
}

/* Where import's time goes, in this process (library calls, CPU time, medians): for profiling. */
static int time_phases(const uint8_t *client, size_t client_size, const ue_buf *msh, int rounds) {
    double *tc = calloc((size_t)rounds, sizeof *tc), *ti = calloc((size_t)rounds, sizeof *ti);
    if (!tc || !ti) return 3;
    for (int k = 0; k < rounds; k++) {
        ue_buf g = {0};
        double t0 = now();
        if (convert(msh, &g) != UE_OK) return 1;
        tc[k] = now() - t0;
        ue_buf_free(&g);
    }
    memset(phase, 0, sizeof phase);
    for (int k = 0; k < rounds; k++) {
        ue_buf b = {0};
        ue_diag dk = {0};
        double t0 = now();
        ue_result r = reimport(client, client_size, msh, &b, &dk);
        ti[k] = now() - t0;
        if (r != UE_OK) {
            fprintf(stderr, "import --base failed: %s\n", dk.count ? dk.items[0].message : ue_result_name(r));
            return 1;
        }
        ue_buf_free(&b);
        ue_diag_free(&dk);
    }
    double c = bench_median(tc, rounds), i = bench_median(ti, rounds);
    printf("in this process (library calls, CPU time, medians; no exec, no file I/O, no output check):\n");
    printf("  convert (parse, scene, GLB)               %7.3f ms\n", c * 1e3);
    printf("  import --base (read, parse, apply, write) %7.3f ms (ratio %.2f)\n", i * 1e3, i / c);
    for (int k = 0; k < 4; k++) printf("    %-10s %7.3f ms\n", phase_name[k], phase[k] / rounds * 1e3);
    free(tc);
    free(ti);
    return 0;
}

int main(int argc, char **argv) {
    int rounds = 20;
    bool keep = false, hsd_only = false, hsd_new = false;
    const char *cli = UE_CLI; /* --cli PATH: another build's binary, for a before/after */
    for (int a = 1; a < argc; a++)
        if (!strcmp(argv[a], "--keep")) keep = true;
        else if (!strcmp(argv[a], "--hsd")) hsd_only = true;
        else if (!strcmp(argv[a], "--hsd-new")) hsd_new = true;
        else if (!strcmp(argv[a], "--cli") && a + 1 < argc) cli = argv[++a];
        else rounds = atoi(argv[a]);
    if (rounds < 1 || rounds > 10000) rounds = 20;
    char dir[] = "/tmp/bench_reimport.XXXXXX", model[256], in[256], out[256], ordered[256];
    if (!mkdtemp(dir)) return 3;
    if (hsd_only || hsd_new) {
        int hrc = hsd_new ? time_hsd_new(cli, dir, rounds) : time_hsd_creature(cli, dir, rounds);
        char rm[512];
        snprintf(rm, sizeof rm, "rm -rf '%s'", dir);
        if (!keep && system(rm) != 0) fprintf(stderr, "could not remove %s\n", dir);
        return hrc;
    }
    ue_buf msh = {0}, glb = {0};
    if (make_model(&msh) != UE_OK || convert(&msh, &glb) != UE_OK) return 3;
    snprintf(model, sizeof model, "%s/tube.msh", dir);
    snprintf(in, sizeof in, "%s/tube.glb", dir);
    if (!write_file(model, msh.data, msh.size) || !write_file(in, glb.data, glb.size)) return 3;

    const char *source = "unearth's own glb (no blender on PATH: vertices in convert's order)", *client_path = in;
    uint8_t *client = glb.data;
    size_t client_size = glb.size;
    if (blender_reexport(dir, in, out, ordered, sizeof out)) {
        source = "Blender's re-export (import + export GLB, defaults)";
        client_path = out;
        if (ue_file_read(out, 1u << 30, &client, &client_size, NULL) != UE_OK) return 3;
    }
    printf("model: 1 node, %d triangles, %d vertices (UV seam), MSH %zu bytes, GLB %zu bytes\n", ROWS * COLUMNS * 2,
           (ROWS + 1) * (COLUMNS + 1), msh.size, glb.size);
    printf("re-export imported: %s, %zu bytes\n", source, client_size);
    char shuffled[300];
    snprintf(shuffled, sizeof shuffled, "%s/client_shuffled.glb", dir);
    int rc = time_processes(cli, dir, model, client_path, "the re-export as it is", &msh, rounds);
    if (!rc) rc = time_phases(client, client_size, &msh, rounds);
    /* A client that reorders vertices: no shortcut, every triangle paired by its values. */
    if (!rc && !write_shuffled(client, client_size, shuffled)) rc = 3;
    if (!rc) rc = time_processes(cli, dir, model, shuffled, "the re-export, vertices shuffled", &msh, rounds);
    if (!rc) rc = time_hsd_creature(cli, dir, rounds);
    if (client != glb.data) free(client);
    ue_buf_free(&glb);
    ue_buf_free(&msh);
    if (keep) {
        printf("files kept in %s\n", dir);
        return rc;
    }
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    return rc;
}
