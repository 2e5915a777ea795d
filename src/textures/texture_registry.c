/* The texture registry: dense ids, validation before an id is assigned, and the CPU copy of every
 * texture, which is the source of truth the GPU side (texture_gpu.c) uploads from. */
#include <stdlib.h>
#include <string.h>

#include "texture_internal.h"

kiln_texture_registry *kiln_texture_registry_create(kiln_resources *res, kiln_error *err) {
    if (!res) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "texture registry: resources is NULL");
        return NULL;
    }
    kiln_texture_registry *reg = calloc(1, sizeof *reg);
    if (!reg) {
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "texture registry: out of memory");
        return NULL;
    }
    reg->res = res;
    return reg;
}

void texture_registry_mark_pending(kiln_texture_registry *reg, texture_entry *e) {
    if (!e->pending) reg->pending_count++;
    e->pending = true;
}

static void entry_free(kiln_texture_registry *reg, texture_entry *e) {
    if (e->pending) reg->pending_count--;
    texture_gpu_release(reg, e);
    if (e->array) texture_array_free(reg, e);
    free(e->pixels);
    free(e->mips);
    free(e);
}

void kiln_texture_registry_destroy(kiln_texture_registry *reg) {
    if (!reg) return;
    for (uint32_t i = 0; i < reg->count; i++)
        if (reg->entries[i]) entry_free(reg, reg->entries[i]);
    free(reg->entries);
    free(reg->zeros);
    free(reg);
}

texture_entry *texture_registry_lookup(const kiln_texture_registry *reg, uint32_t id, kiln_error *err) {
    texture_entry *e = id >= 1 && id <= reg->count ? reg->entries[id - 1] : NULL;
    if (!e) kiln_error_set(err, KILN_ERR_INVALID_HANDLE, "unknown texture id %u", id);
    return e;
}

const char *texture_kind_text(kiln_texture_kind kind) {
    switch (kind) {
    case KILN_TEXTURE_ARRAY: return "a texture array";
    case KILN_TEXTURE_VOLUME: return "a volume texture";
    default: return "a plain texture";
    }
}

/* A plain-texture path treats an array's or a volume's id as unknown, as the spec's update_texture
 * does, saying what the id names. */
static texture_entry *lookup_plain(const kiln_texture_registry *reg, uint32_t id, kiln_error *err) {
    texture_entry *e = texture_registry_lookup(reg, id, err);
    if (e && e->info.kind != KILN_TEXTURE_PLAIN) {
        kiln_error_set(err, KILN_ERR_INVALID_HANDLE, "unknown texture id %u (it names %s)", id,
                       texture_kind_text(e->info.kind));
        return NULL;
    }
    return e;
}

/* Each rejection names the value at fault. Runs before anything is allocated or numbered. */
static bool validate_create(const kiln_texture_registry *reg, const kiln_texture_create_desc *d, kiln_error *err) {
    if (!d) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "create_texture: desc is NULL");
    uint32_t max = kiln_resources_gfx(reg->res)->limits.maxTextureDimension2D;
    if (d->width == 0 || d->width > max)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "create_texture: width %u is outside 1..%u (the device's maxTextureDimension2D)",
                              d->width, max);
    if (d->height == 0 || d->height > max)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "create_texture: height %u is outside 1..%u (the device's maxTextureDimension2D)",
                              d->height, max);
    if ((unsigned)d->format >= KILN_FORMAT_COUNT)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "create_texture: unknown format %d", (int)d->format);
    if ((unsigned)d->usage > KILN_USAGE_WRITABLE)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "create_texture: unknown usage %d", (int)d->usage);
    if ((unsigned)d->sampling > KILN_SAMPLING_NEAREST)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "create_texture: unknown sampling %d",
                              (int)d->sampling);
    uint64_t expected = (uint64_t)d->width * d->height * kiln_texture_format_bytes(d->format);
    if (d->pixels && d->pixels_size != expected)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "create_texture: pixels hold %zu bytes, expected %llu (%ux%u %s)", d->pixels_size,
                              (unsigned long long)expected, d->width, d->height, kiln_texture_format_name(d->format));
    if (!d->pixels && d->pixels_size)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "create_texture: pixels is NULL but pixels_size is %zu (NULL means zero-filled, size 0)",
                              d->pixels_size);
    if (d->mips && d->format != KILN_FORMAT_RGBA8 && d->format != KILN_FORMAT_RGBA8_SRGB)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "create_texture: mips are built for Rgba8 and Rgba8Srgb textures, not %s",
                              kiln_texture_format_name(d->format));
    if (d->mips && d->usage == KILN_USAGE_WRITABLE)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "create_texture: a Writable texture cannot have mips (a program writes only the base level)");
    return true;
}

/* Room for one more id, grown by doubling so a long session's creates stay amortised O(1). */
bool texture_registry_reserve(kiln_texture_registry *reg, const char *kind, kiln_error *err) {
    if (reg->count < reg->capacity) return true;
    if (reg->count == UINT32_MAX) return kiln_error_set(err, KILN_ERR_CAPACITY, "%s: the id sequence is exhausted", kind);
    texture_entry **grown = kiln_array_reserve(reg->entries, &reg->capacity, reg->count + 1, sizeof *grown);
    if (!grown) return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "%s: out of memory for the id table", kind);
    reg->entries = grown;
    return true;
}

uint32_t texture_registry_insert(kiln_texture_registry *reg, texture_entry *e) {
    e->id = ++reg->count;
    reg->entries[e->id - 1] = e;
    return e->id;
}

uint32_t kiln_texture_registry_add(kiln_texture_registry *reg, const kiln_texture_create_desc *desc, kiln_error *err) {
    if (!validate_create(reg, desc, err) || !texture_registry_reserve(reg, "create_texture", err)) return 0;
    size_t size = (size_t)desc->width * desc->height * kiln_texture_format_bytes(desc->format);
    uint32_t levels = desc->mips ? kiln_mip_count(desc->width, desc->height) : 1;
    size_t mips_size = texture_mip_chain_bytes(desc->width, desc->height, levels);
    texture_entry *e = calloc(1, sizeof *e);
    uint8_t *pixels = desc->pixels ? malloc(size) : calloc(1, size);
    uint8_t *mips = mips_size ? malloc(mips_size) : NULL;
    if (!e || !pixels || (mips_size && !mips)) {
        free(e);
        free(pixels);
        free(mips);
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "create_texture: out of memory for %zu bytes of pixels",
                       size + mips_size);
        return 0;
    }
    if (desc->pixels) memcpy(pixels, desc->pixels, size);
    if (mips)
        texture_mip_chain_build(pixels, desc->width, desc->height, levels, desc->format, mips);
    e->info = (kiln_texture_info){.kind = KILN_TEXTURE_PLAIN, .format = desc->format, .width = desc->width,
                                  .height = desc->height, .layers = 1, .mip_levels = levels, .usage = desc->usage,
                                  .sampling = desc->sampling};
    e->pixels = pixels;
    e->pixels_size = size;
    e->mips = mips;
    /* Only now, with nothing left that can fail, is the id taken. */
    texture_registry_insert(reg, e);
    texture_registry_mark_pending(reg, e);
    return e->id;
}

bool kiln_texture_registry_update(kiln_texture_registry *reg, uint32_t id, const void *pixels, size_t size, kiln_error *err) {
    texture_entry *e = lookup_plain(reg, id, err);
    if (!e) return false;
    if (!pixels || size != e->pixels_size)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "update_texture %u: pixels hold %zu bytes, expected %zu (%ux%u %s)", id,
                              pixels ? size : 0, e->pixels_size, e->info.width, e->info.height,
                              kiln_texture_format_name(e->info.format));
    memcpy(e->pixels, pixels, size);
    if (e->mips)
        texture_mip_chain_build(e->pixels, e->info.width, e->info.height, e->info.mip_levels, e->info.format, e->mips);
    /* The GPU copy (if any) is now older than the CPU one, Writable or not: it is re-uploaded at
     * the next sync, gpu_* call or read. */
    texture_registry_mark_pending(reg, e);
    return true;
}

bool kiln_texture_registry_remove(kiln_texture_registry *reg, uint32_t id, kiln_error *err) {
    texture_entry *e = texture_registry_lookup(reg, id, err);
    if (!e) return false;
    reg->entries[id - 1] = NULL;
    entry_free(reg, e);
    return true;
}

const kiln_texture_info *kiln_texture_registry_info(const kiln_texture_registry *reg, uint32_t id) {
    texture_entry *e = texture_registry_lookup(reg, id, NULL);
    return e ? &e->info : NULL;
}

bool kiln_texture_registry_read(kiln_texture_registry *reg, uint32_t id, void **pixels, size_t *size, kiln_error *err) {
    texture_entry *e = lookup_plain(reg, id, err);
    if (!e) return false;
    if (!pixels || !size) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "read_texture %u: no output given", id);
    uint8_t *out = malloc(e->pixels_size);
    if (!out) return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "read_texture %u: out of memory", id);
    /* Only a realized Writable texture can hold pixels newer than the CPU copy (a program renders
     * into it); everything else reads the copy without touching the GPU. */
    bool from_gpu = e->info.usage == KILN_USAGE_WRITABLE && e->gpu.id;
    if (from_gpu) {
        if (!texture_gpu_ensure(reg, e, err) || !texture_gpu_read(reg, e, out, err)) {
            free(out);
            return false;
        }
    } else {
        memcpy(out, e->pixels, e->pixels_size);
    }
    *pixels = out;
    *size = e->pixels_size;
    return true;
}

uint32_t kiln_texture_registry_next_id(const kiln_texture_registry *reg) {
    return reg->count + 1;
}

void kiln_texture_registry_move_to(kiln_texture_registry *reg, kiln_resources *res) {
    for (uint32_t i = 0; i < reg->count; i++) {
        texture_entry *e = reg->entries[i];
        if (!e) continue;
        texture_gpu_release(reg, e);
        if (e->info.kind == KILN_TEXTURE_ARRAY) texture_array_requeue(reg, e);
        if (e->info.kind != KILN_TEXTURE_PLAIN) continue; /* a volume is realized again at its next use */
        /* A Writable texture's pixels lived on the lost GPU, and its CPU copy is whatever it was
         * created or last updated with, not what was painted since: it comes back cleared (the
         * programs spec's device replacement), until the next dispatch paints it. */
        if (e->info.usage == KILN_USAGE_WRITABLE && e->pixels) memset(e->pixels, 0, e->pixels_size);
        texture_registry_mark_pending(reg, e);
    }
    reg->res = res;
}

kiln_resources *kiln_texture_registry_resources(const kiln_texture_registry *reg) { return reg->res; }
