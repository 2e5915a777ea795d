/* Animations: samplers (keyframe times and values, an interpolation) and the channels that
 * drive a node's translation, rotation, scale or morph weights through them. Everything
 * kiln_gltf_animation_sample relies on is checked here, so sampling never fails or reads past
 * an array: times are finite, >= 0 and strictly increasing; each channel's sampler holds
 * key_count values of the channel's width (three times that for CUBICSPLINE, which needs two
 * keyframes); a channel targets a node without a matrix, and weights only a node whose mesh has
 * morph targets; no two channels of one animation drive the same property.
 *
 * A channel without target.node is ignored (the spec leaves it to extensions), as is the
 * KHR_animation_pointer path "pointer"; each ignored channel adds a warning. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gltf_internal.h"

enum { FLOAT = 5126 };

static const char *const path_names[] = {
    [KILN_GLTF_ANIMATE_TRANSLATION] = "translation",
    [KILN_GLTF_ANIMATE_ROTATION] = "rotation",
    [KILN_GLTF_ANIMATE_SCALE] = "scale",
    [KILN_GLTF_ANIMATE_WEIGHTS] = "weights",
};

static const char *const interpolation_names[] = {
    [KILN_GLTF_INTERPOLATION_LINEAR] = "LINEAR",
    [KILN_GLTF_INTERPOLATION_STEP] = "STEP",
    [KILN_GLTF_INTERPOLATION_CUBICSPLINE] = "CUBICSPLINE",
};

static const char *const type_names[17] = {[1] = "SCALAR", [2] = "VEC2", [3] = "VEC3", [4] = "VEC4", [9] = "MAT3",
                                           [16] = "MAT4"};

static bool read_times(gltf_load *L, json_t *item, const char *path, kiln_gltf_animation_sampler *s) {
    int32_t accessor;
    if (!gltf_index(L, item, path, "input", true, L->accessor_count, "accessors", &accessor)) return false;
    char sub[96];
    snprintf(sub, sizeof sub, "%s.input", path);
    const gltf_accessor *a = &L->accessors[accessor];
    if (a->components != 1 || a->component_type != FLOAT)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s: accessors[%d] is not a SCALAR of floats", sub, accessor);
    if (!gltf_accessor_floats(L, (uint32_t)accessor, sub, 1u << 1, 1, 0.0f, &s->times, &s->key_count)) return false;
    for (uint32_t k = 0; k < s->key_count; k++) {
        float t = s->times[k];
        if (!isfinite(t) || t < 0.0f)
            return gltf_fail(L, KILN_ERR_FORMAT, "%s: time %g at %u is not a finite number >= 0", sub, (double)t, k);
        if (k > 0 && !(t > s->times[k - 1]))
            return gltf_fail(L, KILN_ERR_FORMAT, "%s: time %g at %u is not after %g at %u (times must increase)", sub,
                             (double)t, k, (double)s->times[k - 1], k - 1);
    }
    return true;
}

/* What a sampler's output accessor held, for checking it against each channel that uses it. */
typedef struct output_type {
    uint32_t components; /* 1 SCALAR, 3 VEC3, 4 VEC4, ... */
    bool is_float;       /* else normalized integers */
} output_type;

/* The output accessor's values, as floats of its own type. */
static bool read_values(gltf_load *L, json_t *item, const char *path, kiln_gltf_animation_sampler *s,
                        output_type *type) {
    int32_t accessor;
    if (!gltf_index(L, item, path, "output", true, L->accessor_count, "accessors", &accessor)) return false;
    char sub[96];
    snprintf(sub, sizeof sub, "%s.output", path);
    const gltf_accessor *a = &L->accessors[accessor];
    if (a->component_type != FLOAT && !a->normalized)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s: accessors[%d] is neither float nor normalized", sub, accessor);
    *type = (output_type){a->components, a->component_type == FLOAT};
    uint32_t count;
    if (!gltf_accessor_floats(L, (uint32_t)accessor, sub, 1u << a->components, a->components, 0.0f, &s->values, &count))
        return false;
    s->value_count = count * a->components;
    for (uint32_t v = 0; v < s->value_count; v++)
        if (!isfinite(s->values[v]))
            return gltf_fail(L, KILN_ERR_FORMAT, "%s: value %u is not a finite number", sub, v);
    return true;
}

static bool load_sampler(gltf_load *L, json_t *item, const char *path, kiln_gltf_animation_sampler *s,
                         output_type *type) {
    if (!json_is_object(item)) return gltf_fail(L, KILN_ERR_FORMAT, "%s: is not an object", path);
    const char *name;
    if (!gltf_string(L, item, path, "interpolation", "LINEAR", &name)) return false;
    uint32_t mode = 0;
    while (mode < 3 && strcmp(name, interpolation_names[mode]) != 0) mode++;
    if (mode == 3)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s.interpolation: \"%s\" is not LINEAR, STEP or CUBICSPLINE", path, name);
    s->interpolation = (kiln_gltf_interpolation)mode;
    if (!read_times(L, item, path, s) || !read_values(L, item, path, s, type)) return false;
    if (s->interpolation == KILN_GLTF_INTERPOLATION_CUBICSPLINE && s->key_count < 2)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s: CUBICSPLINE needs at least 2 keyframes, has %u", path, s->key_count);
    return true;
}

/* The target node and path; *skip when the channel is one the spec lets a loader ignore. */
static bool read_target(gltf_load *L, json_t *item, const char *path, kiln_gltf_animation_channel *c, bool *skip) {
    bool ok;
    char sub[96];
    snprintf(sub, sizeof sub, "%s.target", path);
    json_t *target = gltf_object(L, item, path, "target", &ok);
    if (!ok) return false;
    if (!target) return gltf_fail(L, KILN_ERR_FORMAT, "%s: is required", sub);
    const char *name;
    int32_t node;
    if (!gltf_string(L, target, sub, "path", NULL, &name) ||
        !gltf_index(L, target, sub, "node", false, L->doc->node_count, "nodes", &node))
        return false;
    if (!name) return gltf_fail(L, KILN_ERR_FORMAT, "%s.path: is required", sub);
    if (strcmp(name, "pointer") == 0 || node < 0) {
        *skip = true;
        return gltf_warn(L, "%s: %s; ignored", sub, node < 0 ? "has no node" : "path \"pointer\" is not supported");
    }
    uint32_t p = 0;
    while (p < 4 && strcmp(name, path_names[p]) != 0) p++;
    if (p == 4)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s.path: \"%s\" is not translation, rotation, scale or weights", sub, name);
    const kiln_gltf_node *n = &L->doc->nodes[node];
    if (n->has_matrix)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s: nodes[%d] has a matrix; an animated node takes translation, rotation and "
                         "scale", sub, node);
    c->node = (uint32_t)node;
    c->path = (kiln_gltf_animation_path)p;
    static const uint32_t widths[] = {3, 4, 3};
    if (c->path != KILN_GLTF_ANIMATE_WEIGHTS) {
        c->width = widths[c->path];
        return true;
    }
    if (n->mesh < 0 || L->doc->meshes[n->mesh].target_count == 0)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s: weights of nodes[%d], which has no mesh with morph targets", sub, node);
    c->width = L->doc->meshes[n->mesh].target_count;
    return true;
}

/* The sampler's values fit the channel: its type, and key_count values of the channel's width. */
static bool check_fit(gltf_load *L, const char *path, const kiln_gltf_animation_channel *c,
                      const kiln_gltf_animation_sampler *s, output_type type, const char *sampler_path) {
    uint32_t want_type = c->path == KILN_GLTF_ANIMATE_WEIGHTS ? 1 : c->width;
    if (type.components != want_type)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s: %s wants %s values, but %s.output is %s", path, path_names[c->path],
                         type_names[want_type], sampler_path,
                         type_names[type.components] ? type_names[type.components] : "MAT2");
    /* Normalized integers are allowed for rotations and weights only. */
    if (!type.is_float && (c->path == KILN_GLTF_ANIMATE_TRANSLATION || c->path == KILN_GLTF_ANIMATE_SCALE))
        return gltf_fail(L, KILN_ERR_FORMAT, "%s: %s wants float values, but %s.output is normalized integers", path,
                         path_names[c->path], sampler_path);
    uint32_t per_key = c->width * (s->interpolation == KILN_GLTF_INTERPOLATION_CUBICSPLINE ? 3 : 1);
    uint64_t want = (uint64_t)s->key_count * per_key;
    if (s->value_count != want)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s: %s with %u keyframes wants %llu floats (%u per keyframe), but %s.output "
                         "has %u", path, interpolation_names[s->interpolation], s->key_count, (unsigned long long)want,
                         per_key, sampler_path, s->value_count);
    return true;
}

static bool load_animation(gltf_load *L, json_t *item, uint32_t i) {
    char path[64];
    snprintf(path, sizeof path, "animations[%u]", i);
    if (!json_is_object(item)) return gltf_fail(L, KILN_ERR_FORMAT, "%s: is not an object", path);
    kiln_gltf_animation *anim = &L->doc->animations[i];
    if (!(anim->name = gltf_name(L, item, path))) return false;
    bool ok;
    json_t *samplers = gltf_array(L, item, path, "samplers", &ok);
    json_t *channels = ok ? gltf_array(L, item, path, "channels", &ok) : NULL;
    if (!ok) return false;
    if (!samplers || json_array_size(samplers) == 0)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s.samplers: is required and not empty", path);
    if (!channels || json_array_size(channels) == 0)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s.channels: is required and not empty", path);
    uint32_t sampler_count = (uint32_t)json_array_size(samplers), channel_count = (uint32_t)json_array_size(channels);
    anim->samplers = calloc(sampler_count, sizeof *anim->samplers);
    anim->channels = calloc(channel_count, sizeof *anim->channels);
    output_type *types = calloc(sampler_count, sizeof *types);
    ok = anim->samplers && anim->channels && types;
    if (!ok) gltf_fail(L, KILN_ERR_OUT_OF_MEMORY, "%s: out of memory", path);
    for (uint32_t s = 0; ok && s < sampler_count; s++) {
        char sub[96];
        snprintf(sub, sizeof sub, "%s.samplers[%u]", path, s);
        anim->sampler_count = s + 1; /* counted first, so a failure's arrays are freed with the document */
        ok = load_sampler(L, json_array_get(samplers, s), sub, &anim->samplers[s], &types[s]);
        if (!ok) break;
        const kiln_gltf_animation_sampler *sm = &anim->samplers[s];
        if (s == 0 || sm->times[0] < anim->start) anim->start = sm->times[0];
        if (s == 0 || sm->times[sm->key_count - 1] > anim->end) anim->end = sm->times[sm->key_count - 1];
    }
    for (uint32_t ch = 0; ok && ch < channel_count; ch++) {
        char sub[96], sampler_path[96];
        snprintf(sub, sizeof sub, "%s.channels[%u]", path, ch);
        json_t *channel = json_array_get(channels, ch);
        kiln_gltf_animation_channel *c = &anim->channels[anim->channel_count];
        int32_t sampler;
        bool skip = false;
        ok = json_is_object(channel) ? true : gltf_fail(L, KILN_ERR_FORMAT, "%s: is not an object", sub);
        ok = ok && gltf_index(L, channel, sub, "sampler", true, sampler_count, "samplers", &sampler) &&
             read_target(L, channel, sub, c, &skip);
        if (!ok || skip) continue;
        snprintf(sampler_path, sizeof sampler_path, "%s.samplers[%d]", path, sampler);
        c->sampler = (uint32_t)sampler;
        ok = check_fit(L, sub, c, &anim->samplers[sampler], types[sampler], sampler_path);
        for (uint32_t k = 0; ok && k < anim->channel_count; k++)
            if (anim->channels[k].node == c->node && anim->channels[k].path == c->path)
                ok = gltf_fail(L, KILN_ERR_FORMAT, "%s.target: nodes[%u].%s is already driven by another channel of %s",
                               sub, c->node, path_names[c->path], path);
        if (ok) anim->channel_count++;
    }
    free(types);
    return ok;
}

bool gltf_animations_load(gltf_load *L) {
    bool ok;
    json_t *animations = gltf_array(L, L->root, "", "animations", &ok);
    if (!ok) return false;
    uint32_t n = animations ? (uint32_t)json_array_size(animations) : 0;
    L->doc->animations = calloc(n + 1, sizeof *L->doc->animations);
    if (!L->doc->animations) return gltf_fail(L, KILN_ERR_OUT_OF_MEMORY, "animations: out of memory");
    for (uint32_t i = 0; i < n; i++) {
        L->doc->animation_count = i + 1;
        if (!load_animation(L, json_array_get(animations, i), i)) return false;
    }
    return true;
}
