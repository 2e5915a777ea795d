/* The frame uniform (group 0, binding 0) and the 144-byte instance record: the C side of
 * `Frame` and `Instance` in shaders/common.wgsl. One layout, asserted on both sides. */
#ifndef KILN_RENDER_FRAME_UNIFORM_H
#define KILN_RENDER_FRAME_UNIFORM_H

#include <kiln/render/scene.h>

#define KILN_FRAME_UNIFORM_SIZE 432
#define KILN_INSTANCE_RECORD_SIZE 144

/* Pass uniforms: one 256-byte slot per view a pass renders from (the dynamic-offset alignment),
 * selected with a dynamic offset on group 3. Slots 0..3 are the shadow cascades, then one per
 * shadow atlas view, then the camera; KILN_MAX_PASS_VIEWS in all. A slot holds `PassView`
 * (common.wgsl): the view-projection, 64 bytes. */
#define KILN_PASS_SLOT_SIZE 256
#define KILN_PASS_VIEW_SIZE 64
#define KILN_MAX_PASS_VIEWS 128
#define KILN_PASS_SLOT_FIRST_CASCADE 0
#define KILN_PASS_SLOT_FIRST_ATLAS 4

typedef struct kiln_frame_uniform_inputs {
    kiln_mat4 view, projection;
    kiln_vec3 camera_position;
    float near;
    uint32_t width, height;
    bool has_sun;
    kiln_vec3 sun_direction, sun_color;
    float sun_intensity;
    kiln_environment environment;      /* defaults already applied */
    const kiln_render_settings *settings;
    bool output_srgb_encode;
} kiln_frame_uniform_inputs;

/* Writes exactly KILN_FRAME_UNIFORM_SIZE bytes; false (and err) if the layout drifted. */
bool kiln_frame_uniform_pack(const kiln_frame_uniform_inputs *in, uint8_t out[KILN_FRAME_UNIFORM_SIZE], kiln_error *err);

/* Writes one instance record: model, normal matrix, params (material, flags | lod << 8, joint
 * offset, morph slot). */
void kiln_instance_record_pack(kiln_mat4 model, uint32_t material, uint32_t flags, uint32_t lod, int32_t joint_offset,
                               uint32_t morph_slot, uint8_t out[KILN_INSTANCE_RECORD_SIZE]);

/* Environment with zero fields replaced by the documented defaults. */
kiln_environment kiln_environment_resolve(const kiln_environment *in);

#endif
