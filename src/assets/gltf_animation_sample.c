/* Sampling animations at a time: the node poses an animation gives (kiln_gltf_rest_pose,
 * kiln_gltf_animation_sample in kiln/assets/gltf.h). Pure arithmetic over what
 * gltf_animations.c checked, so nothing here fails or allocates.
 *
 * The interpolations are glTF's: with keyframes k and k + 1 around t, u = (t - t_k) / d where
 * d = t_{k+1} - t_k,
 *   STEP         v_k
 *   LINEAR       (1 - u) v_k + u v_{k+1}; rotations slerp along the shorter arc
 *   CUBICSPLINE  (2u^3 - 3u^2 + 1) v_k + d (u^3 - 2u^2 + u) b_k + (-2u^3 + 3u^2) v_{k+1} + d (u^3 - u^2) a_{k+1}
 *                with b_k the out-tangent of k and a_{k+1} the in-tangent of k + 1 (the tangents
 *                are per second, hence the scaling by d); rotations are normalised after.
 * Before the first keyframe and after the last, the first and last value hold. */
#include <math.h>
#include <string.h>

#include <kiln/assets/gltf.h>

/* Where `time` falls: keyframe k and the fraction u of the way to k + 1 (u = 0 at and outside
 * the ends, k then being the first or last keyframe). */
static void locate(const kiln_gltf_animation_sampler *s, float time, uint32_t *k, float *u) {
    uint32_t last = s->key_count - 1;
    *u = 0.0f;
    if (time <= s->times[0]) {
        *k = 0;
        return;
    }
    if (time >= s->times[last]) {
        *k = last;
        return;
    }
    /* The last keyframe at or before `time`: times[lo] <= time < times[hi]. */
    uint32_t lo = 0, hi = last;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (s->times[mid] <= time) lo = mid;
        else hi = mid;
    }
    *k = lo;
    *u = (time - s->times[lo]) / (s->times[hi] - s->times[lo]);
}

/* The value of keyframe k: for CUBICSPLINE the middle of its (in-tangent, value, out-tangent). */
static const float *key_value(const kiln_gltf_animation_sampler *s, uint32_t width, uint32_t k) {
    if (s->interpolation == KILN_GLTF_INTERPOLATION_CUBICSPLINE) return s->values + ((size_t)k * 3 + 1) * width;
    return s->values + (size_t)k * width;
}

/* The first n of the `width` floats of the channel's value at `time`, component by component. */
static void sample_floats(const kiln_gltf_animation_sampler *s, uint32_t width, float time, float *out, uint32_t n) {
    uint32_t k;
    float u;
    locate(s, time, &k, &u);
    const float *a = key_value(s, width, k);
    if (u == 0.0f || s->interpolation == KILN_GLTF_INTERPOLATION_STEP) {
        memcpy(out, a, n * sizeof *out);
        return;
    }
    const float *b = key_value(s, width, k + 1);
    if (s->interpolation == KILN_GLTF_INTERPOLATION_LINEAR) {
        for (uint32_t c = 0; c < n; c++) out[c] = (1.0f - u) * a[c] + u * b[c];
        return;
    }
    float d = s->times[k + 1] - s->times[k];
    float u2 = u * u, u3 = u2 * u;
    float h00 = 2.0f * u3 - 3.0f * u2 + 1.0f, h10 = u3 - 2.0f * u2 + u, h01 = -2.0f * u3 + 3.0f * u2, h11 = u3 - u2;
    const float *out_tangent = a + width, *in_tangent = b - width;
    for (uint32_t c = 0; c < n; c++)
        out[c] = h00 * a[c] + d * h10 * out_tangent[c] + h01 * b[c] + d * h11 * in_tangent[c];
}

static kiln_quat sample_rotation(const kiln_gltf_animation_sampler *s, float time) {
    uint32_t k;
    float u;
    locate(s, time, &k, &u);
    if (s->interpolation == KILN_GLTF_INTERPOLATION_LINEAR && u != 0.0f) {
        const float *a = key_value(s, 4, k), *b = key_value(s, 4, k + 1);
        return kiln_quat_slerp((kiln_quat){a[0], a[1], a[2], a[3]}, (kiln_quat){b[0], b[1], b[2], b[3]}, u);
    }
    kiln_quat q;
    sample_floats(s, 4, time, &q.x, 4);
    /* A keyframe's own value is returned as the file wrote it; a spline between two is not unit. */
    return s->interpolation == KILN_GLTF_INTERPOLATION_CUBICSPLINE && u != 0.0f ? kiln_quat_normalize(q) : q;
}

void kiln_gltf_rest_pose(const kiln_gltf *doc, kiln_gltf_node_pose *poses) {
    for (uint32_t i = 0; i < doc->node_count; i++) {
        const kiln_gltf_node *node = &doc->nodes[i];
        kiln_gltf_node_pose *pose = &poses[i];
        *pose = (kiln_gltf_node_pose){.translation = node->translation, .rotation = node->rotation, .scale = node->scale};
        if (node->mesh < 0) continue;
        const kiln_gltf_mesh *mesh = &doc->meshes[node->mesh];
        const float *weights = node->weights ? node->weights : mesh->weights;
        uint32_t n = mesh->target_count < KILN_MAX_MORPH_TARGETS ? mesh->target_count : KILN_MAX_MORPH_TARGETS;
        if (n) memcpy(pose->weights, weights, n * sizeof *weights);
    }
}

bool kiln_gltf_animation_sample(const kiln_gltf *doc, uint32_t animation, float time, kiln_gltf_node_pose *poses) {
    if (!doc || animation >= doc->animation_count || !isfinite(time)) return false;
    const kiln_gltf_animation *anim = &doc->animations[animation];
    for (uint32_t i = 0; i < anim->channel_count; i++) {
        const kiln_gltf_animation_channel *c = &anim->channels[i];
        const kiln_gltf_animation_sampler *s = &anim->samplers[c->sampler];
        kiln_gltf_node_pose *pose = &poses[c->node];
        switch (c->path) {
        case KILN_GLTF_ANIMATE_TRANSLATION: sample_floats(s, 3, time, &pose->translation.x, 3); break;
        case KILN_GLTF_ANIMATE_SCALE: sample_floats(s, 3, time, &pose->scale.x, 3); break;
        case KILN_GLTF_ANIMATE_ROTATION: pose->rotation = sample_rotation(s, time); break;
        case KILN_GLTF_ANIMATE_WEIGHTS:
            sample_floats(s, c->width, time, pose->weights, c->width < KILN_MAX_MORPH_TARGETS ? c->width : KILN_MAX_MORPH_TARGETS);
            break;
        }
    }
    return true;
}
