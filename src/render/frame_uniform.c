/* Packing of the frame uniform and the instance records (layouts in shaders/common.wgsl). */
#include <math.h>

#include "frame_uniform.h"

static bool is_zero(kiln_vec3 v) { return v.x == 0.0f && v.y == 0.0f && v.z == 0.0f; }

kiln_environment kiln_environment_resolve(const kiln_environment *in) {
    kiln_environment e = in ? *in : (kiln_environment){0};
    if (is_zero(e.zenith)) e.zenith = (kiln_vec3){0.25f, 0.45f, 0.9f};
    if (is_zero(e.ground)) e.ground = (kiln_vec3){0.28f, 0.25f, 0.22f};
    if (e.sun_intensity <= 0.0f) e.sun_intensity = 1.0f;
    return e;
}

bool kiln_frame_uniform_pack(const kiln_frame_uniform_inputs *in, uint8_t out[KILN_FRAME_UNIFORM_SIZE], kiln_error *err) {
    kiln_mat4 view_projection = kiln_mat4_mul(in->projection, in->view), inverse_view, inverse_projection;
    if (!kiln_mat4_inverse(in->view, &inverse_view)) inverse_view = kiln_mat4_identity();
    if (!kiln_mat4_inverse(in->projection, &inverse_projection)) inverse_projection = kiln_mat4_identity();
    const kiln_render_settings *s = in->settings;
    kiln_bytes w;
    kiln_bytes_init(&w, out, KILN_FRAME_UNIFORM_SIZE);
    kiln_bytes_mat4(&w, in->view);
    kiln_bytes_mat4(&w, in->projection);
    kiln_bytes_mat4(&w, view_projection);
    kiln_bytes_mat4(&w, inverse_view);
    kiln_bytes_mat4(&w, inverse_projection);
    kiln_bytes_vec3(&w, in->camera_position);
    kiln_bytes_f32(&w, in->near);
    kiln_bytes_vec2(&w, (kiln_vec2){(float)in->width, (float)in->height});
    kiln_bytes_vec2(&w, (kiln_vec2){1.0f / (float)in->width, 1.0f / (float)in->height});
    kiln_bytes_vec3(&w, in->sun_direction);
    kiln_bytes_f32(&w, in->sun_intensity);
    kiln_bytes_vec3(&w, in->sun_color);
    kiln_bytes_u32(&w, in->has_sun ? 1u : 0u);
    kiln_bytes_vec3(&w, in->environment.zenith);
    kiln_bytes_f32(&w, s->ibl_intensity);
    kiln_bytes_vec3(&w, in->environment.ground);
    kiln_bytes_f32(&w, s->exposure);
    kiln_bytes_f32(&w, in->environment.sun_intensity);
    kiln_bytes_u32(&w, (uint32_t)s->debug);
    kiln_bytes_u32(&w, (uint32_t)s->tonemapper);
    kiln_bytes_u32(&w, in->output_srgb_encode ? 1u : 0u);
    kiln_bytes_end_struct(&w, 16);
    return kiln_bytes_expect(&w, KILN_FRAME_UNIFORM_SIZE, err);
}

void kiln_instance_record_pack(kiln_mat4 model, uint32_t material, uint32_t flags, uint32_t lod, int32_t joint_offset,
                               uint32_t morph_slot, uint8_t out[KILN_INSTANCE_RECORD_SIZE]) {
    /* The normal matrix is the inverse transpose of the upper 3x3; a singular model (a zero
     * scale) keeps its own matrix, which at worst shades that degenerate object wrongly. */
    kiln_mat4 inverse, normal = model;
    if (kiln_mat4_inverse(model, &inverse)) normal = kiln_mat4_transpose(inverse);
    normal.m[3] = normal.m[7] = normal.m[11] = 0.0f;
    normal.m[12] = normal.m[13] = normal.m[14] = 0.0f;
    normal.m[15] = 1.0f;
    kiln_bytes w;
    kiln_bytes_init(&w, out, KILN_INSTANCE_RECORD_SIZE);
    kiln_bytes_mat4(&w, model);
    kiln_bytes_mat4(&w, normal);
    kiln_bytes_u32(&w, material);
    kiln_bytes_u32(&w, flags | (lod << 8));
    kiln_bytes_i32(&w, joint_offset);
    kiln_bytes_u32(&w, morph_slot);
}
