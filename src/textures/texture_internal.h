/* Internal to src/textures: one registry entry and the calls the registry (ids, CPU copies) and the
 * GPU side (realization, uploads, readback) make of each other.
 *
 * An entry lives from create to destroy, allocated on its own so that the kiln_texture_info
 * pointer kiln_texture_registry_info hands out stays valid while the texture exists, however many
 * textures are created after it. */
#ifndef KILN_TEXTURE_INTERNAL_H
#define KILN_TEXTURE_INTERNAL_H

#include <kiln/textures.h>

typedef struct texture_layers texture_layers;

typedef struct texture_entry {
    uint32_t id;
    kiln_texture_info info;
    /* The CPU copy: the source of truth; tightly packed, top-down (a volume's slices one after
     * another). NULL for an array, whose copy is its layers' blobs. */
    uint8_t *pixels;
    size_t pixels_size;
    uint8_t *mips;            /* levels 1.. of the chain, consecutive, rebuilt from pixels; NULL without mips */
    texture_layers *array;    /* an array's layers and their upload state (texture_arrays.c); else NULL */
    /* The GPU side: both zero until a sync or a gpu_* call realizes the texture. */
    kiln_texture gpu;
    kiln_texture_view view;
    bool pending;             /* a plain texture's GPU copy is missing or older than the CPU copy */
} texture_entry;

struct kiln_texture_registry {
    kiln_resources *res;
    /* entries[id - 1]; NULL once destroyed. Ids are never reused, so the array only grows: a
     * retired id costs one pointer. */
    texture_entry **entries;
    uint32_t count;           /* ids handed out so far; the next id is count + 1 */
    uint32_t capacity;
    /* Live entries with pending set, so a sync with nothing to do returns without a scan. */
    uint32_t pending_count;
    /* Array layers waiting for the upload queue (an upload or a clear), over every array. */
    uint64_t queued_layers;
    /* Zeros the queue clears a layer's levels from, grown to the largest base level cleared and
     * freed when the queue runs empty. */
    uint8_t *zeros;
    size_t zeros_size;
    kiln_texture_registry_stats stats;
};

/* The live entry for `id`, or NULL with "unknown texture id N". */
texture_entry *texture_registry_lookup(const kiln_texture_registry *reg, uint32_t id, kiln_error *err);

/* CPU mip chains of Rgba8 and Rgba8Srgb images (mip_chain.c): the bytes of levels 1..levels-1, and those
 * levels built from `base` into `chain`, consecutive, each from the one before, in linear light
 * when `format` is an sRGB one. */
size_t texture_mip_chain_bytes(uint32_t width, uint32_t height, uint32_t levels);
void texture_mip_chain_build(const uint8_t *base, uint32_t width, uint32_t height, uint32_t levels,
                             kiln_texture_format format, uint8_t *chain);

/* Room for one more id in the table (false with err naming `kind` when it cannot grow), and the
 * entry numbered and stored under the next id, which it takes only now. */
bool texture_registry_reserve(kiln_texture_registry *reg, const char *kind, kiln_error *err);
uint32_t texture_registry_insert(kiln_texture_registry *reg, texture_entry *e);
/* How a message names a kind: "a plain texture", "a texture array", "a volume texture". */
const char *texture_kind_text(kiln_texture_kind kind);

/* Marks the GPU copy of `e` as missing or stale (counted once however often it is marked). */
void texture_registry_mark_pending(kiln_texture_registry *reg, texture_entry *e);

/* GPU side (texture_gpu.c). Realizes the texture if it is not yet, and uploads the CPU copy if it
 * is pending; false (nothing left half-made) when the GPU objects cannot be created. */
bool texture_gpu_ensure(kiln_texture_registry *reg, texture_entry *e, kiln_error *err);
/* Reads the realized texture's pixels back into `out` (pixels_size bytes, tightly packed). */
bool texture_gpu_read(kiln_texture_registry *reg, texture_entry *e, uint8_t *out, kiln_error *err);
/* Releases the view and the texture, if realized. */
void texture_gpu_release(kiln_texture_registry *reg, texture_entry *e);
/* Creates the GPU texture of `desc` and its view (of dimension `view_dimension`: Undefined derives
 * it), labelled after the entry; false with nothing left half-made. */
bool texture_gpu_create(kiln_texture_registry *reg, texture_entry *e, kiln_texture_desc desc,
                        WGPUTextureViewDimension view_dimension, kiln_error *err);

/* Arrays (texture_arrays.c). Realizes the array if it is not yet and uploads every written layer
 * still queued; unwritten layers stay on the queue. */
bool texture_array_ensure(kiln_texture_registry *reg, texture_entry *e, kiln_error *err);
/* Runs the upload queue for at most KILN_TEXTURE_LAYERS_PER_SYNC layers. */
bool texture_arrays_sync(kiln_texture_registry *reg, kiln_error *err);
/* Puts every layer back on the queue, after the GPU texture was released (a device replacement). */
void texture_array_requeue(kiln_texture_registry *reg, texture_entry *e);
/* Frees the layers and takes them off the queue. */
void texture_array_free(kiln_texture_registry *reg, texture_entry *e);

/* Volumes (texture_volumes.c): realizes the volume and uploads its blob if it is not yet. */
bool texture_volume_ensure(kiln_texture_registry *reg, texture_entry *e, kiln_error *err);

#endif
