/* Packing of the shared blocks (layouts in shaders/common.wgsl and post.wgsl) and the check of
 * their sizes against the WGSL by reflection. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <kiln/shader/wgsl_reflect.h>

#include "clusters.h"
#include "material_gpu.h"
#include "uniforms.h"

static bool is_zero(kiln_vec3 v) { return v.x == 0.0f && v.y == 0.0f && v.z == 0.0f; }

kiln_environment kiln_environment_resolve(const kiln_environment *in) {
    kiln_environment e = in ? *in : (kiln_environment){0};
    if (is_zero(e.zenith)) e.zenith = (kiln_vec3){0.25f, 0.45f, 0.9f};
    if (is_zero(e.ground)) e.ground = (kiln_vec3){0.28f, 0.25f, 0.22f};
    if (e.sun_intensity <= 0.0f) e.sun_intensity = 1.0f;
    return e;
}

bool kiln_view_uniform_pack(const kiln_view_uniform_inputs *in, uint8_t out[KILN_VIEW_UNIFORM_SIZE], kiln_error *err) {
    kiln_mat4 view_projection = kiln_mat4_mul(in->projection, in->view), inverse_view, inverse_projection;
    if (!kiln_mat4_inverse(in->view, &inverse_view)) inverse_view = kiln_mat4_identity();
    if (!kiln_mat4_inverse(in->projection, &inverse_projection)) inverse_projection = kiln_mat4_identity();
    kiln_bytes w;
    kiln_bytes_init(&w, out, KILN_VIEW_UNIFORM_SIZE);
    kiln_bytes_mat4(&w, in->view);
    kiln_bytes_mat4(&w, in->projection);
    kiln_bytes_mat4(&w, view_projection);
    kiln_bytes_mat4(&w, inverse_view);
    kiln_bytes_mat4(&w, inverse_projection);
    kiln_bytes_vec3(&w, in->camera_position);
    kiln_bytes_f32(&w, in->near);
    kiln_bytes_vec2(&w, (kiln_vec2){(float)in->width, (float)in->height});
    kiln_bytes_vec2(&w, (kiln_vec2){1.0f / (float)in->width, 1.0f / (float)in->height});
    kiln_bytes_u32(&w, (uint32_t)in->debug);
    kiln_bytes_end_struct(&w, 16);
    return kiln_bytes_expect(&w, KILN_VIEW_UNIFORM_SIZE, err);
}

bool kiln_lighting_uniform_pack(const kiln_lighting_uniform_inputs *in, uint8_t out[KILN_LIGHTING_UNIFORM_SIZE],
                                kiln_error *err) {
    kiln_bytes w;
    kiln_bytes_init(&w, out, KILN_LIGHTING_UNIFORM_SIZE);
    kiln_bytes_vec3(&w, in->sun_direction);
    kiln_bytes_f32(&w, in->sun_intensity);
    kiln_bytes_vec3(&w, in->sun_color);
    kiln_bytes_u32(&w, in->has_sun ? 1u : 0u);
    kiln_bytes_vec3(&w, in->environment.zenith);
    kiln_bytes_f32(&w, in->ibl_intensity);
    kiln_bytes_vec3(&w, in->environment.ground);
    kiln_bytes_f32(&w, in->environment.sun_intensity);
    kiln_bytes_end_struct(&w, 16);
    return kiln_bytes_expect(&w, KILN_LIGHTING_UNIFORM_SIZE, err);
}

bool kiln_post_uniform_pack(float exposure, kiln_tonemapper tonemapper, bool output_srgb_encode,
                            uint8_t out[KILN_POST_UNIFORM_SIZE], kiln_error *err) {
    kiln_bytes w;
    kiln_bytes_init(&w, out, KILN_POST_UNIFORM_SIZE);
    kiln_bytes_f32(&w, exposure);
    kiln_bytes_u32(&w, (uint32_t)tonemapper);
    kiln_bytes_u32(&w, output_srgb_encode ? 1u : 0u);
    kiln_bytes_u32(&w, 0u);
    return kiln_bytes_expect(&w, KILN_POST_UNIFORM_SIZE, err);
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

/* Every block a renderer program shares with C, by the program that declares it. */
static const struct {
    const char *program, *block;
    uint32_t c_size;
} SHARED_BLOCKS[] = {
    {"forward.wgsl", "View", KILN_VIEW_UNIFORM_SIZE},
    {"forward.wgsl", "Lighting", KILN_LIGHTING_UNIFORM_SIZE},
    {"forward.wgsl", "Instance", KILN_INSTANCE_RECORD_SIZE},
    {"forward.wgsl", "PassView", KILN_PASS_VIEW_SIZE},
    {"forward.wgsl", "MaterialParams", KILN_MATERIAL_UNIFORM_SIZE},
    {"forward.wgsl", "Light", sizeof(kiln_gpu_light)},
    {"forward.wgsl", "ClusterUniform", sizeof(kiln_cluster_uniform)},
    {"sky.wgsl", "View", KILN_VIEW_UNIFORM_SIZE},
    {"sky.wgsl", "Lighting", KILN_LIGHTING_UNIFORM_SIZE},
    {"post.wgsl", "View", KILN_VIEW_UNIFORM_SIZE},
    {"post.wgsl", "Post", KILN_POST_UNIFORM_SIZE},
    {"clusters.wgsl", "ClusterUniform", sizeof(kiln_cluster_uniform)},
    {"clusters.wgsl", "Light", sizeof(kiln_gpu_light)},
};
#define SHARED_BLOCK_COUNT (sizeof SHARED_BLOCKS / sizeof SHARED_BLOCKS[0])

static bool check_block(const kiln_wgsl_module *m, const char *program, const char *block, uint32_t c_size,
                        kiln_error *err) {
    const kiln_wgsl_struct *s = kiln_wgsl_find_struct(m, block);
    if (!s) return kiln_error_set(err, KILN_ERR_SHADER, "renderer: %s declares no struct %s", program, block);
    kiln_wgsl_layout layout;
    if (!kiln_wgsl_type_layout(m, s->type, KILN_WGSL_SPACE_UNIFORM, &layout, err)) return false;
    if (layout.size != c_size)
        return kiln_error_set(err, KILN_ERR_SHADER,
                              "renderer: struct %s in %s is %u bytes in WGSL but %u in C (src/render/uniforms.c)", block,
                              program, layout.size, c_size);
    return true;
}

static bool check_program(const kiln_wgsl_source *source, const char *program, kiln_error *err) {
    kiln_assembled_wgsl a;
    if (!kiln_wgsl_assemble(source, program, &a, err)) return false;
    kiln_wgsl_module *m = kiln_wgsl_reflect(a.text, a.length, program, err);
    kiln_assembled_wgsl_free(&a);
    if (!m) return false;
    bool ok = true;
    for (size_t i = 0; i < SHARED_BLOCK_COUNT && ok; i++)
        if (!strcmp(SHARED_BLOCKS[i].program, program))
            ok = check_block(m, program, SHARED_BLOCKS[i].block, SHARED_BLOCKS[i].c_size, err);
    kiln_wgsl_module_free(m);
    return ok;
}

bool renderer_check_layouts(const kiln_wgsl_source *source, kiln_error *err) {
    for (size_t i = 0; i < SHARED_BLOCK_COUNT; i++) {
        bool first = true; /* each program once, where it first appears in the table */
        for (size_t j = 0; j < i && first; j++) first = strcmp(SHARED_BLOCKS[j].program, SHARED_BLOCKS[i].program) != 0;
        if (first && !check_program(source, SHARED_BLOCKS[i].program, err)) return false;
    }
    return true;
}
