/* Texture arrays: `layers` square layers of one side and format, each written whole (every level
 * of one layer) by kiln_texture_registry_write_layer, and the upload queue that carries them to
 * the GPU.
 *
 * The CPU copy is one blob per written layer (NULL for a layer never written), and those blobs are
 * the source of truth. Each layer is in one of three states: current (the GPU holds what kiln
 * last put there), written (its blob is newer than the GPU: an upload is queued) or unwritten
 * (never written and not yet cleared: a clear is queued). WebGPU already hands out zeroed
 * textures; the queue still clears explicitly, so what every layer holds is what kiln wrote there
 * and a device replacement rebuilds the same state from the blobs alone.
 *
 * The sync works the queue KILN_TEXTURE_LAYERS_PER_SYNC layers at a time, written layers first; a
 * use of the array's view (the dispatch that binds it) uploads every written layer at once and
 * leaves the clears to the queue, since an unwritten layer reads zero either way. */
#include <stdlib.h>
#include <string.h>

#include "texture_internal.h"

typedef enum layer_state { LAYER_CURRENT, LAYER_WRITTEN, LAYER_UNWRITTEN } layer_state;

struct texture_layers {
    uint8_t **blobs;          /* blobs[layer]: every level, base level first; NULL until first written */
    uint8_t *states;          /* one layer_state per layer */
    size_t layer_bytes;       /* one blob: the sum of its levels */
    uint32_t queued[3];       /* layers in each state (LAYER_CURRENT's count is not kept up) */
};

static uint32_t level_side(uint32_t side, uint32_t level) {
    uint32_t s = side >> level;
    return s ? s : 1;
}

static size_t layer_bytes(kiln_texture_format format, uint32_t side, uint32_t levels) {
    size_t bytes = 0;
    for (uint32_t l = 0; l < levels; l++) bytes += (size_t)level_side(side, l) * level_side(side, l);
    return bytes * kiln_texture_format_bytes(format);
}

/* Moves a layer into `state`, keeping the array's and the registry's queue counts. */
static void set_state(kiln_texture_registry *reg, texture_layers *a, uint32_t layer, layer_state state) {
    layer_state old = (layer_state)a->states[layer];
    if (old != LAYER_CURRENT) a->queued[old]--, reg->queued_layers--;
    if (state != LAYER_CURRENT) a->queued[state]++, reg->queued_layers++;
    a->states[layer] = (uint8_t)state;
}

/* ---- create and write --------------------------------------------------------------------------- */

/* Each rejection names the value at fault; runs before anything is allocated or numbered. */
static bool validate_array(const kiln_texture_registry *reg, const kiln_texture_array_desc *d, kiln_error *err) {
    if (!d) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "create_texture_array: desc is NULL");
    const WGPULimits *limits = &kiln_resources_gfx(reg->res)->limits;
    if (d->side == 0 || d->side > limits->maxTextureDimension2D)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "create_texture_array: side %u is outside 1..%u (the device's maxTextureDimension2D)",
                              d->side, limits->maxTextureDimension2D);
    if (d->layers == 0 || d->layers > limits->maxTextureArrayLayers)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "create_texture_array: layers %u is outside 1..%u (the device's maxTextureArrayLayers)",
                              d->layers, limits->maxTextureArrayLayers);
    if ((unsigned)d->format >= KILN_FORMAT_COUNT)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "create_texture_array: unknown format %d", (int)d->format);
    return true;
}

uint32_t kiln_texture_registry_add_array(kiln_texture_registry *reg, const kiln_texture_array_desc *desc,
                                         kiln_error *err) {
    if (!validate_array(reg, desc, err) || !texture_registry_reserve(reg, "create_texture_array", err)) return 0;
    texture_entry *e = calloc(1, sizeof *e);
    texture_layers *a = calloc(1, sizeof *a);
    uint8_t **blobs = calloc(desc->layers, sizeof *blobs);
    uint8_t *states = calloc(desc->layers, 1);
    if (!e || !a || !blobs || !states) {
        free(e), free(a), free(blobs), free(states);
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "create_texture_array: out of memory for %u layers", desc->layers);
        return 0;
    }
    uint32_t levels = desc->mips ? kiln_mip_count(desc->side, desc->side) : 1;
    *a = (texture_layers){.blobs = blobs, .states = states, .layer_bytes = layer_bytes(desc->format, desc->side, levels)};
    e->info = (kiln_texture_info){
        .kind = KILN_TEXTURE_ARRAY, .format = desc->format, .width = desc->side, .height = desc->side,
        .layers = desc->layers, .mip_levels = levels, .usage = KILN_USAGE_SAMPLED,
        .sampling = kiln_texture_format_filterable(desc->format) ? KILN_SAMPLING_LINEAR : KILN_SAMPLING_NEAREST};
    e->array = a;
    texture_registry_insert(reg, e);
    for (uint32_t l = 0; l < desc->layers; l++) set_state(reg, a, l, LAYER_UNWRITTEN);
    return e->id;
}

bool kiln_texture_registry_write_layer(kiln_texture_registry *reg, uint32_t id, uint32_t layer, const void *pixels,
                                       size_t size, kiln_error *err) {
    texture_entry *e = texture_registry_lookup(reg, id, NULL);
    if (!e) return kiln_error_set(err, KILN_ERR_INVALID_HANDLE, "write_texture_layer: unknown texture id %u", id);
    if (e->info.kind != KILN_TEXTURE_ARRAY)
        return kiln_error_set(err, KILN_ERR_INVALID_HANDLE, "write_texture_layer: texture %u is %s, not a texture array",
                              id, texture_kind_text(e->info.kind));
    if (layer >= e->info.layers)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "write_texture_layer: layer %u is outside 0..%u (texture %u has %u layer%s)", layer,
                              e->info.layers - 1, id, e->info.layers, e->info.layers == 1 ? "" : "s");
    texture_layers *a = e->array;
    if (!pixels || size != a->layer_bytes)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "write_texture_layer: texture %u, layer %u: pixels hold %zu bytes, expected %zu "
                              "(every level of one layer: %u level%s from side %u, %s)", id, layer, pixels ? size : 0,
                              a->layer_bytes, e->info.mip_levels, e->info.mip_levels == 1 ? "" : "s", e->info.width,
                              kiln_texture_format_name(e->info.format));
    /* A layer's blob is allocated at its first write and reused by every later one. */
    uint8_t *blob = a->blobs[layer] ? a->blobs[layer] : malloc(a->layer_bytes);
    if (!blob)
        return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "write_texture_layer: out of memory for %zu bytes",
                              a->layer_bytes);
    memcpy(blob, pixels, size);
    a->blobs[layer] = blob;
    set_state(reg, a, layer, LAYER_WRITTEN);
    return true;
}

size_t kiln_texture_registry_layer_bytes(const kiln_texture_registry *reg, uint32_t id) {
    const texture_entry *e = texture_registry_lookup(reg, id, NULL);
    return e && e->array ? e->array->layer_bytes : 0;
}

/* ---- the GPU side -------------------------------------------------------------------------------- */

static bool realize(kiln_texture_registry *reg, texture_entry *e, kiln_error *err) {
    kiln_texture_desc desc = {
        .width = e->info.width, .height = e->info.height, .depth_or_layers = e->info.layers,
        .mip_levels = e->info.mip_levels, .format = kiln_texture_format_wgpu(e->info.format),
        .usage = WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst | WGPUTextureUsage_CopySrc};
    /* Explicitly 2D-array, so a one-layer array still binds as texture_2d_array. */
    return texture_gpu_create(reg, e, desc, WGPUTextureViewDimension_2DArray, err);
}

/* Zeros for a clear: one buffer, the size of the largest base level cleared so far, that every
 * level of a layer is written from. It lives while the queue has work (a large array's base level
 * is large), and goes when the queue is empty. */
static const uint8_t *zeros(kiln_texture_registry *reg, size_t size, kiln_error *err) {
    if (reg->zeros_size >= size) return reg->zeros;
    uint8_t *grown = calloc(1, size);
    if (!grown) {
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "out of memory for %zu bytes of zeros", size);
        return NULL;
    }
    free(reg->zeros);
    reg->zeros = grown;
    reg->zeros_size = size;
    return grown;
}

static void release_zeros_when_idle(kiln_texture_registry *reg) {
    if (reg->queued_layers) return;
    free(reg->zeros);
    reg->zeros = NULL;
    reg->zeros_size = 0;
}

/* Writes every level of one queued layer: its blob when written, zeros when not. */
static bool upload_layer(kiln_texture_registry *reg, texture_entry *e, uint32_t layer, kiln_error *err) {
    texture_layers *a = e->array;
    uint32_t bytes = kiln_texture_format_bytes(e->info.format), side = e->info.width;
    bool clear = a->states[layer] == LAYER_UNWRITTEN;
    const uint8_t *level = clear ? zeros(reg, (size_t)side * side * bytes, err) : a->blobs[layer];
    if (!level) return false;
    for (uint32_t l = 0; l < e->info.mip_levels; l++) {
        uint32_t s = level_side(side, l);
        size_t size = (size_t)s * s * bytes;
        if (!kiln_resources_write_texture(reg->res, e->gpu, l, layer, level, size, s * bytes, s, s, err)) return false;
        if (!clear) level += size;
    }
    if (clear) reg->stats.layer_clears++;
    else reg->stats.layer_uploads++;
    set_state(reg, a, layer, LAYER_CURRENT);
    return true;
}

bool texture_array_ensure(kiln_texture_registry *reg, texture_entry *e, kiln_error *err) {
    if (!e->gpu.id && !realize(reg, e, err)) return false;
    texture_layers *a = e->array;
    for (uint32_t l = 0; a->queued[LAYER_WRITTEN] && l < e->info.layers; l++)
        if (a->states[l] == LAYER_WRITTEN && !upload_layer(reg, e, l, err)) return false;
    return true;
}

/* Up to `*budget` layers of `e` in `state`, in layer order. */
static bool work_queue(kiln_texture_registry *reg, texture_entry *e, layer_state state, uint32_t *budget,
                       kiln_error *err) {
    texture_layers *a = e->array;
    if (!e->gpu.id && !realize(reg, e, err)) return false;
    for (uint32_t l = 0; *budget && a->queued[state] && l < e->info.layers; l++) {
        if (a->states[l] != state) continue;
        if (!upload_layer(reg, e, l, err)) return false;
        (*budget)--;
    }
    return true;
}

/* Written layers over every array first, then clears, in id and layer order, until the budget is
 * spent; a failure names the array and leaves its layers queued for the next sync. */
bool texture_arrays_sync(kiln_texture_registry *reg, kiln_error *err) {
    static const layer_state ORDER[] = {LAYER_WRITTEN, LAYER_UNWRITTEN};
    uint32_t budget = KILN_TEXTURE_LAYERS_PER_SYNC;
    for (int phase = 0; phase < 2; phase++)
        for (uint32_t i = 0; budget && reg->queued_layers && i < reg->count; i++) {
            texture_entry *e = reg->entries[i];
            if (!e || !e->array || !e->array->queued[ORDER[phase]]) continue;
            kiln_error cause = {0};
            if (!work_queue(reg, e, ORDER[phase], &budget, &cause))
                return kiln_error_set(err, cause.code, "texture registry sync: texture %u: %s", e->id, cause.message);
        }
    release_zeros_when_idle(reg);
    return true;
}

void texture_array_requeue(kiln_texture_registry *reg, texture_entry *e) {
    texture_layers *a = e->array;
    for (uint32_t l = 0; l < e->info.layers; l++) set_state(reg, a, l, a->blobs[l] ? LAYER_WRITTEN : LAYER_UNWRITTEN);
}

void texture_array_free(kiln_texture_registry *reg, texture_entry *e) {
    texture_layers *a = e->array;
    reg->queued_layers -= a->queued[LAYER_WRITTEN] + a->queued[LAYER_UNWRITTEN];
    for (uint32_t l = 0; l < e->info.layers; l++) free(a->blobs[l]);
    free(a->blobs);
    free(a->states);
    free(a);
    e->array = NULL;
    release_zeros_when_idle(reg);
}
