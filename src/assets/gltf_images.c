/* Images, samplers and textures. Every image is decoded once, here, into RGBA8 (PNG or JPEG
 * through core's stb decode), from a bufferView, a data URI or a file beside the model; textures
 * are only (image, sampler) pairs, which materials resolve through gltf_texture_source. */
#include <stdio.h>
#include <stdlib.h>

#include "gltf_internal.h"

static bool load_image(gltf_load *L, json_t *item, uint32_t i) {
    char path[64];
    snprintf(path, sizeof path, "images[%u]", i);
    if (!json_is_object(item)) return gltf_fail(L, KILN_ERR_FORMAT, "%s: is not an object", path);
    kiln_gltf_image *img = &L->doc->images[i];
    if (!(img->name = gltf_name(L, item, path))) return false;
    const char *uri;
    int32_t view;
    if (!gltf_string(L, item, path, "uri", NULL, &uri) ||
        !gltf_index(L, item, path, "bufferView", false, L->view_count, "buffer views", &view))
        return false;
    if (!uri && view < 0) return gltf_fail(L, KILN_ERR_FORMAT, "%s: has neither uri nor bufferView", path);

    uint8_t *owned = NULL;
    const uint8_t *bytes;
    size_t size;
    char source[80];
    if (uri) {
        snprintf(source, sizeof source, "%s.uri", path);
        if (!gltf_uri_read(L, uri, source, &owned, &size)) return false;
        bytes = owned;
    } else {
        snprintf(source, sizeof source, "%s.bufferView", path);
        const gltf_view *v = &L->views[view];
        bytes = v->data;
        size = v->length;
    }
    kiln_error decode_err;
    bool ok = kiln_image_decode(&img->image, bytes, size, &decode_err);
    free(owned);
    if (!ok) return gltf_fail(L, KILN_ERR_FORMAT, "%s: does not decode: %s", source, decode_err.message);
    if (img->image.format != KILN_IMAGE_RGBA8) {
        kiln_image_free(&img->image);
        return gltf_fail(L, KILN_ERR_FORMAT, "%s: is a floating-point image; glTF images are PNG or JPEG", source);
    }
    return true;
}

bool gltf_images_load(gltf_load *L) {
    bool ok;
    json_t *images = gltf_array(L, L->root, "", "images", &ok);
    if (!ok) return false;
    uint32_t n = images ? (uint32_t)json_array_size(images) : 0;
    L->doc->images = calloc(n + 1, sizeof *L->doc->images);
    if (!L->doc->images) return gltf_fail(L, KILN_ERR_OUT_OF_MEMORY, "images: out of memory");
    for (uint32_t i = 0; i < n; i++) {
        L->doc->image_count = i + 1; /* so kiln_gltf_free releases what the failure leaves */
        if (!load_image(L, json_array_get(images, i), i)) return false;
        gltf_progress(L, "images", i + 1, n);
    }
    if (!gltf_count(L, "textures", &L->texture_count)) return false;
    return true;
}

static bool map_wrap(gltf_load *L, json_t *item, const char *path, const char *key, kiln_sampler_wrap *out) {
    uint64_t mode;
    if (!gltf_uint(L, item, path, key, false, 10497, UINT32_MAX, &mode)) return false;
    switch (mode) {
    case 10497: *out = KILN_SAMPLER_WRAP_REPEAT; return true;
    case 33071: *out = KILN_SAMPLER_WRAP_CLAMP_TO_EDGE; return true;
    case 33648: *out = KILN_SAMPLER_WRAP_MIRRORED_REPEAT; return true;
    default:
        return gltf_fail(L, KILN_ERR_FORMAT, "%s.%s: %llu is not a glTF wrap mode", path, key,
                         (unsigned long long)mode);
    }
}

/* minFilter's six values split into the filter within a level and between levels. The two
 * without a mipmap part (9728 NEAREST, 9729 LINEAR) take NEAREST between levels: kiln always
 * builds mips, and a nearest mip filter at a magnified or 1:1 level samples level 0 alone. */
static bool map_sampler(gltf_load *L, json_t *item, uint32_t i) {
    char path[64];
    snprintf(path, sizeof path, "samplers[%u]", i);
    if (!json_is_object(item)) return gltf_fail(L, KILN_ERR_FORMAT, "%s: is not an object", path);
    kiln_sampler_state *s = &L->doc->samplers[i];
    *s = (kiln_sampler_state){0};
    uint64_t mag, min;
    if (!gltf_uint(L, item, path, "magFilter", false, 9729, UINT32_MAX, &mag) ||
        !gltf_uint(L, item, path, "minFilter", false, 9987, UINT32_MAX, &min) ||
        !map_wrap(L, item, path, "wrapS", &s->wrap_u) || !map_wrap(L, item, path, "wrapT", &s->wrap_v))
        return false;
    if (mag != 9728 && mag != 9729)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s.magFilter: %llu is not NEAREST or LINEAR", path,
                         (unsigned long long)mag);
    s->mag_filter = mag == 9728 ? KILN_SAMPLER_FILTER_NEAREST : KILN_SAMPLER_FILTER_LINEAR;
    switch (min) {
    case 9728: s->min_filter = KILN_SAMPLER_FILTER_NEAREST; s->mip_filter = KILN_SAMPLER_FILTER_NEAREST; break;
    case 9729: s->min_filter = KILN_SAMPLER_FILTER_LINEAR; s->mip_filter = KILN_SAMPLER_FILTER_NEAREST; break;
    case 9984: s->min_filter = KILN_SAMPLER_FILTER_NEAREST; s->mip_filter = KILN_SAMPLER_FILTER_NEAREST; break;
    case 9985: s->min_filter = KILN_SAMPLER_FILTER_LINEAR; s->mip_filter = KILN_SAMPLER_FILTER_NEAREST; break;
    case 9986: s->min_filter = KILN_SAMPLER_FILTER_NEAREST; s->mip_filter = KILN_SAMPLER_FILTER_LINEAR; break;
    case 9987: s->min_filter = KILN_SAMPLER_FILTER_LINEAR; s->mip_filter = KILN_SAMPLER_FILTER_LINEAR; break;
    default:
        return gltf_fail(L, KILN_ERR_FORMAT, "%s.minFilter: %llu is not a glTF minification filter", path,
                         (unsigned long long)min);
    }
    return true;
}

bool gltf_samplers_load(gltf_load *L) {
    bool ok;
    json_t *samplers = gltf_array(L, L->root, "", "samplers", &ok);
    if (!ok) return false;
    uint32_t n = samplers ? (uint32_t)json_array_size(samplers) : 0;
    L->doc->samplers = calloc(n + 1, sizeof *L->doc->samplers);
    if (!L->doc->samplers) return gltf_fail(L, KILN_ERR_OUT_OF_MEMORY, "samplers: out of memory");
    L->doc->sampler_count = n;
    for (uint32_t i = 0; i < n; i++)
        if (!map_sampler(L, json_array_get(samplers, i), i)) return false;
    return true;
}

bool gltf_texture_source(gltf_load *L, uint32_t texture, int32_t *image, int32_t *sampler) {
    char path[64];
    snprintf(path, sizeof path, "textures[%u]", texture);
    json_t *item = json_array_get(json_object_get(L->root, "textures"), texture);
    if (!json_is_object(item)) return gltf_fail(L, KILN_ERR_FORMAT, "%s: is not an object", path);
    if (!gltf_index(L, item, path, "source", false, L->doc->image_count, "images", image) ||
        !gltf_index(L, item, path, "sampler", false, L->doc->sampler_count, "samplers", sampler))
        return false;
    if (*image < 0 && !gltf_warn(L, "%s: has no source image (only extensions kiln does not read); untextured",
                                 path))
        return false;
    return true;
}
