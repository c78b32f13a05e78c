/* unearth — the one parser of FILE[:ENTRY[:ENTRY...]] addresses (docs/addresses.md): which part
 * is the file, which the chain of entries, whatever ':' the file's own name holds. */
#include <string.h>

#include "unearth/common.h"
#include "common/io.h"

/* Fills the entry fields of `out` for FILE = the first `file_length` bytes of `address`. */
static void set_entries(const char *address, size_t file_length, ue_address *out) {
    size_t length = strlen(address);
    out->entries = address + (file_length < length ? file_length + 1 : length);
    const char *colon = file_length < length ? strrchr(address, ':') : NULL;
    out->last_entry = colon ? colon + 1 : NULL;
    out->parent_length = colon ? (size_t)(colon - address) : length;
}

static ue_result set_file(const char *address, size_t file_length, ue_address *out) {
    if (file_length >= sizeof out->file) return UE_ERR_USAGE;
    memcpy(out->file, address, file_length);
    out->file[file_length] = 0;
    set_entries(address, file_length, out);
    return UE_OK;
}

ue_result ue_address_split(const char *address, unsigned flags, ue_address *out) {
    size_t length = strlen(address);
    out->file[0] = 0;
    set_entries(address, length, out);
    if (!(flags & UE_ADDRESS_NAMES_ENTRY) && ue_path_exists(address)) return set_file(address, length, out);
    /* Longest first: from the last ':' back to the first. */
    for (size_t cut = length; cut > 0; cut--) {
        if (address[cut - 1] != ':' || cut - 1 == 0) continue;
        size_t file_length = cut - 1;
        if (file_length >= sizeof out->file) return UE_ERR_USAGE;
        memcpy(out->file, address, file_length);
        out->file[file_length] = 0;
        if (ue_path_exists(out->file)) return set_file(address, file_length, out);
    }
    const char *first = strchr(address, ':');
    ue_result r = set_file(address, first && first != address ? (size_t)(first - address) : length, out);
    return r == UE_OK ? UE_ERR_IO : r;
}

const char *ue_address_next_entry(const char *chain, char *name, size_t cap) {
    const char *colon = strchr(chain, ':');
    size_t length = colon ? (size_t)(colon - chain) : strlen(chain);
    if (cap > 0) {
        size_t kept = length < cap ? length : cap - 1;
        memcpy(name, chain, kept);
        name[kept] = 0;
    }
    return colon ? colon + 1 : NULL;
}

const char *ue_address_leaf(const char *address) {
    ue_address at;
    ue_address_split(address, 0, &at);
    if (at.last_entry) return at.last_entry;
    const char *slash = strrchr(address, '/');
    return slash ? slash + 1 : address;
}
