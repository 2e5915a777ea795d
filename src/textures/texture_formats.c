/* The six texture formats: one table row each, so every property of a format is stated in one
 * place. Out-of-range values answer 0 / Undefined / NULL / false rather than reading past the
 * table, since the enums reach here from JSON and from callers' casts. */
#include <string.h>

#include <kiln/textures.h>

typedef struct format_row {
    uint32_t bytes;
    WGPUTextureFormat wgpu;
    const char *name;        /* the spec's spelling, matched exactly by from_name */
    bool filterable;         /* linear filtering in core WebGPU (R32Float needs an optional feature) */
    bool resolvable;         /* a multisampled attachment of it can be resolved */
} format_row;

static const format_row FORMATS[KILN_FORMAT_COUNT] = {
    [KILN_FORMAT_RGBA8] = {4, WGPUTextureFormat_RGBA8Unorm, "Rgba8", true, true},
    [KILN_FORMAT_R8] = {1, WGPUTextureFormat_R8Unorm, "R8", true, true},
    [KILN_FORMAT_R32_FLOAT] = {4, WGPUTextureFormat_R32Float, "R32Float", false, false},
    [KILN_FORMAT_R16_FLOAT] = {2, WGPUTextureFormat_R16Float, "R16Float", true, true},
    [KILN_FORMAT_RGBA16_FLOAT] = {8, WGPUTextureFormat_RGBA16Float, "Rgba16Float", true, true},
    [KILN_FORMAT_RGBA8_SRGB] = {4, WGPUTextureFormat_RGBA8UnormSrgb, "Rgba8Srgb", true, true},
};

static const format_row *row_of(kiln_texture_format f) {
    return (unsigned)f < KILN_FORMAT_COUNT ? &FORMATS[f] : NULL;
}

uint32_t kiln_texture_format_bytes(kiln_texture_format f) {
    const format_row *r = row_of(f);
    return r ? r->bytes : 0;
}

WGPUTextureFormat kiln_texture_format_wgpu(kiln_texture_format f) {
    const format_row *r = row_of(f);
    return r ? r->wgpu : WGPUTextureFormat_Undefined;
}

const char *kiln_texture_format_name(kiln_texture_format f) {
    const format_row *r = row_of(f);
    return r ? r->name : NULL;
}

bool kiln_texture_format_from_name(const char *name, kiln_texture_format *out) {
    if (!name) return false;
    for (int f = 0; f < KILN_FORMAT_COUNT; f++) {
        if (strcmp(FORMATS[f].name, name) == 0) {
            if (out) *out = (kiln_texture_format)f;
            return true;
        }
    }
    return false;
}

bool kiln_texture_format_filterable(kiln_texture_format f) {
    const format_row *r = row_of(f);
    return r && r->filterable;
}

bool kiln_texture_format_resolvable(kiln_texture_format f) {
    const format_row *r = row_of(f);
    return r && r->resolvable;
}
