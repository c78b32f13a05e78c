/* unearth — where the glTF reader's bytes come from: the GLB BIN chunk, base64 data: URIs and
 * files beside the .gltf (relative URIs only: no scheme, no absolute path, no ".." segment). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/io.h"
#include "import/gltf_read_int.h"

static int b64_value(unsigned char ch) {
    if (ch >= 'A' && ch <= 'Z') return ch - 'A';
    if (ch >= 'a' && ch <= 'z') return ch - 'a' + 26;
    if (ch >= '0' && ch <= '9') return ch - '0' + 52;
    if (ch == '+' || ch == '-') return 62; /* '-' and '_': the URL-safe alphabet */
    if (ch == '/' || ch == '_') return 63;
    return -1;
}

/* Strict base64: only alphabet characters, then at most two '=' at the very end. */
static bool b64_decode(const char *in, size_t n, uint8_t *out, size_t *out_n) {
    while (n > 0 && in[n - 1] == '=') n--;
    uint32_t acc = 0;
    int bits = 0;
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        int v = b64_value((unsigned char)in[i]);
        if (v < 0) return false;
        acc = (acc << 6) | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (uint8_t)(acc >> bits);
            acc &= (1u << bits) - 1u;
        }
    }
    *out_n = o;
    return bits < 6; /* a lone trailing character cannot encode a byte */
}

bool gr_data_uri(gr_ctx *c, const char *uri, const char *path, uint8_t **out, size_t *size,
                 char *mime, size_t mime_cap) {
    const char *comma = strchr(uri, ',');
    if (!comma)
        return gr_fail(c, "gltf.uri.data", UE_NO_OFFSET, path, "data: URI without a comma");
    size_t head = (size_t)(comma - uri) - 5; /* after "data:" */
    const char *b64 = (head >= 7 && memcmp(comma - 7, ";base64", 7) == 0) ? comma - 7 : NULL;
    if (!b64)
        return gr_fail(c, "gltf.uri.data", UE_NO_OFFSET, path, "data: URI that is not base64");
    snprintf(mime, mime_cap, "%.*s", (int)(b64 - (uri + 5)), uri + 5);
    size_t n = strlen(comma + 1);
    *out = malloc(n / 4 * 3 + 3);
    if (!*out) {
        ue_parse_fail(&c->pc, UE_ERR_NOMEM);
        return false;
    }
    if (!b64_decode(comma + 1, n, *out, size)) {
        free(*out);
        *out = NULL;
        return gr_fail(c, "gltf.uri.data", UE_NO_OFFSET, path, "malformed base64 payload");
    }
    return true;
}

static int hex_value(char ch) {
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}

/* Percent-decodes into out; false for a bad escape or an encoded NUL. */
static bool percent_decode(const char *in, char *out, size_t cap) {
    size_t o = 0;
    for (size_t i = 0; in[i]; i++) {
        char ch = in[i];
        if (ch == '%') {
            int hi = hex_value(in[i + 1]), lo = hi < 0 ? -1 : hex_value(in[i + 2]);
            if (lo < 0 || (hi == 0 && lo == 0)) return false;
            ch = (char)(hi * 16 + lo);
            i += 2;
        }
        if (o + 1 >= cap) return false;
        out[o++] = ch;
    }
    out[o] = 0;
    return true;
}

/* A relative path that stays inside its directory: no scheme, no leading '/', no backslash,
 * no "." or ".." segment that could leave it. */
static const char *unsafe_reason(const char *rel) {
    if (!rel[0]) return "empty";
    if (rel[0] == '/') return "an absolute path";
    if (strchr(rel, '\\')) return "a backslash (not a URI path separator)";
    const char *colon = strchr(rel, ':'), *slash = strchr(rel, '/');
    if (colon && (!slash || colon < slash)) return "a URI scheme or drive letter";
    for (const char *seg = rel; seg;) {
        const char *end = strchr(seg, '/');
        size_t n = end ? (size_t)(end - seg) : strlen(seg);
        if (n == 2 && seg[0] == '.' && seg[1] == '.') return "a \"..\" segment";
        seg = end ? end + 1 : NULL;
    }
    return NULL;
}

/* The file already read under the same identity, or NULL (and its identity in *dev, *ino). */
static const gr_file *known_file(const gr_ctx *c, const char *full, uint64_t *dev, uint64_t *ino) {
    struct stat st;
    if (stat(full, &st) != 0) return NULL; /* the read below reports why */
    *dev = (uint64_t)st.st_dev;
    *ino = (uint64_t)st.st_ino;
    for (size_t i = 0; i < c->file_count; i++)
        if (c->files[i].dev == *dev && c->files[i].ino == *ino) return &c->files[i];
    return NULL;
}

/* Keeps a file just read (taking `data`); false (memory) frees it. */
static bool remember_file(gr_ctx *c, const char *full, uint64_t dev, uint64_t ino, uint8_t *data,
                          size_t size) {
    if (c->file_count == c->file_cap) {
        size_t cap = c->file_cap ? c->file_cap * 2 : 4;
        gr_file *grown = realloc(c->files, cap * sizeof *grown);
        if (!grown) goto nomem;
        c->files = grown;
        c->file_cap = cap;
    }
    char *copy = malloc(strlen(full) + 1);
    if (!copy) goto nomem;
    strcpy(copy, full);
    c->files[c->file_count++] = (gr_file){copy, dev, ino, data, size};
    return true;
nomem:
    free(data);
    ue_parse_fail(&c->pc, UE_ERR_NOMEM);
    return false;
}

/* Reads a file not seen before, keeps it and counts it once into the decode budget. */
static bool read_new_file(gr_ctx *c, const char *full, const char *rel, const char *path,
                          uint64_t dev, uint64_t ino) {
    uint8_t *data = NULL;
    size_t size = 0;
    ue_result r = ue_file_read(full, UE_CAP_ENTRY_BYTES, &data, &size, c->pc.d);
    if (r != UE_OK && !ue_path_exists(full)) {
        /* a .bin left behind when the .gltf was copied: not a refused URI, so its own code */
        gr_fail(c, "gltf.uri.missing", UE_NO_OFFSET, path, "\"%.80s\" is missing (looked for %.300s)", rel, full);
        if (r != UE_ERR_INVALID) c->pc.failure = r;
        return false;
    }
    if (r != UE_OK) {
        gr_fail(c, "gltf.uri.external", UE_NO_OFFSET, path, "cannot read \"%.80s\"", rel);
        if (r != UE_ERR_INVALID) c->pc.failure = r;
        return false;
    }
    if (!remember_file(c, full, dev, ino, data, size)) return false;
    /* a file named later (an image) raises the budget as if it had been counted from the start */
    size_t before = ue_cap_decoded(c->input_bytes);
    c->input_bytes += size;
    c->budget += ue_cap_decoded(c->input_bytes) - before;
    return true;
}

bool gr_external_uri(gr_ctx *c, const char *uri, const char *path, const uint8_t **out, size_t *size) {
    char rel[1024], full[4096];
    if (!c->base_dir)
        return gr_fail(c, "gltf.uri.external", UE_NO_OFFSET, path,
                       "external file \"%.80s\" but no base directory (read from memory)", uri);
    if (!percent_decode(uri, rel, sizeof rel))
        return gr_fail(c, "gltf.uri.external", UE_NO_OFFSET, path, "malformed URI \"%.80s\"", uri);
    const char *why = unsafe_reason(rel);
    if (why)
        return gr_fail(c, "gltf.uri.external", UE_NO_OFFSET, path,
                       "URI \"%.80s\" refused: %s (only paths inside the file's folder)", uri, why);
    if ((size_t)snprintf(full, sizeof full, "%s/%s", c->base_dir, rel) >= sizeof full)
        return gr_fail(c, "gltf.uri.external", UE_NO_OFFSET, path, "path too long");
    uint64_t dev = 0, ino = 0;
    const gr_file *f = known_file(c, full, &dev, &ino);
    if (!f) {
        if (!read_new_file(c, full, rel, path, dev, ino)) return false;
        f = &c->files[c->file_count - 1];
    }
    *out = f->data;
    *size = f->size;
    return true;
}

static bool load_uri(gr_ctx *c, const char *uri, const char *path, gr_buffer *b) {
    size_t got = 0;
    char mime[64];
    bool ok = strncmp(uri, "data:", 5) == 0
                  ? gr_data_uri(c, uri, path, &b->owned, &got, mime, sizeof mime)
                  : gr_external_uri(c, uri, path, &b->data, &got);
    if (!ok) return false;
    if (b->owned) b->data = b->owned; /* a file's bytes stay the context's (shared) */
    if (got < b->size)
        return gr_fail(c, "gltf.buffer.short", UE_NO_OFFSET, path,
                       "byteLength %zu but the URI holds %zu bytes", b->size, got);
    b->file_base = UE_NO_OFFSET;
    return true;
}

static bool load_buffer(gr_ctx *c, const ue_jv *buf, size_t i, gr_buffer *b) {
    char path[64];
    snprintf(path, sizeof path, "/buffers/%zu", i);
    uint64_t len;
    const char *uri;
    if (!ue_jv_is(buf, UE_JV_OBJECT))
        return gr_fail(c, "gltf.json.type", UE_NO_OFFSET, path, "expected an object");
    if (!gr_uint(c, buf, "byteLength", SIZE_MAX / 2, 0, true, path, &len) ||
        !gr_string(c, buf, "uri", NULL, path, &uri))
        return false;
    b->size = (size_t)len;
    if (uri) return load_uri(c, uri, path, b);
    if (i != 0 || !c->bin)
        return gr_fail(c, "gltf.buffer.uri", UE_NO_OFFSET, path,
                       "no uri, and it is not the GLB's BIN chunk (buffer 0 of a .glb)");
    if (c->bin_size < b->size)
        return gr_fail(c, "gltf.buffer.short", c->bin_offset, path,
                       "byteLength %zu but the BIN chunk holds %zu bytes", b->size, c->bin_size);
    b->data = c->bin;
    b->file_base = c->bin_offset;
    return true;
}

bool gr_read_buffers(gr_ctx *c) {
    bool ok = true;
    const ue_jv *bufs = gr_array(c, c->root, "buffers", "", &ok);
    size_t n = ue_jv_items(bufs);
    if (!ok) return false;
    if (n) {
        c->buffers = calloc(n, sizeof *c->buffers);
        if (!c->buffers) {
            ue_parse_fail(&c->pc, UE_ERR_NOMEM);
            return false;
        }
        c->buffer_count = n;
    }
    for (size_t i = 0; i < n && ok; i++)
        ok = load_buffer(c, ue_jv_at(bufs, i), i, &c->buffers[i]);
    /* every decode after this point is paid from a budget linear in the bytes present */
    c->budget = ue_cap_decoded(c->input_bytes);
    return ok;
}
