/* One layout per block shared by C and WGSL, asserted on both sides: the C sizes (the byte
 * writers' own assertions and the struct sizes) against the sizes WGSL's layout rules give the
 * shader structs, read from the renderer's real shader files by kiln's WGSL scanner. A field
 * added on one side only fails here. */
#include <kiln/shader/wgsl_reflect.h>
#include <kiln/render.h>

#include "render/renderer_internal.h"
#include "gfx_fixture.h"

/* Assembles a renderer program and returns the uniform-space size of one of its structs. */
static bool wgsl_struct_size(const char *program, const char *name, uint32_t *size, kiln_error *err) {
    kiln_assembled_wgsl a;
    if (!kiln_wgsl_assemble(&(kiln_wgsl_source){.directory = KILN_RENDER_SHADER_DIR}, program, &a, err)) return false;
    kiln_wgsl_module *m = kiln_wgsl_reflect(a.text, a.length, program, err);
    kiln_assembled_wgsl_free(&a);
    if (!m) return false;
    const kiln_wgsl_struct *s = kiln_wgsl_find_struct(m, name);
    kiln_wgsl_layout layout;
    bool ok = s && kiln_wgsl_type_layout(m, s->type, KILN_WGSL_SPACE_UNIFORM, &layout, err);
    if (!s) kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "%s declares no struct %s", program, name);
    if (ok) *size = layout.size;
    kiln_wgsl_module_free(m);
    return ok;
}

TEST(every_shared_block_has_one_size_on_both_sides) {
    static const struct { const char *program, *name; uint32_t c_size; } blocks[] = {
        {"forward.wgsl", "Frame", KILN_FRAME_UNIFORM_SIZE},
        {"forward.wgsl", "Instance", KILN_INSTANCE_RECORD_SIZE},
        {"forward.wgsl", "MaterialParams", KILN_MATERIAL_UNIFORM_SIZE},
        {"forward.wgsl", "Light", sizeof(kiln_gpu_light)},
        {"forward.wgsl", "ClusterUniform", sizeof(kiln_cluster_uniform)},
        {"forward.wgsl", "PassView", KILN_PASS_VIEW_SIZE},
        {"clusters.wgsl", "ClusterUniform", sizeof(kiln_cluster_uniform)},
        {"post.wgsl", "Frame", KILN_FRAME_UNIFORM_SIZE},
    };
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++) {
        kiln_error err = {0};
        uint32_t size = 0;
        CHECK_MSG(wgsl_struct_size(blocks[i].program, blocks[i].name, &size, &err), "%s", err.message);
        CHECK_MSG(size == blocks[i].c_size, "%s in %s: WGSL %u bytes, C %u bytes", blocks[i].name, blocks[i].program,
                  size, blocks[i].c_size);
    }
}

TEST(the_frame_uniform_writer_fills_exactly_its_size) {
    kiln_render_settings s;
    CHECK(kiln_render_settings_resolve(NULL, &s, NULL));
    kiln_frame_uniform_inputs in = {.view = kiln_mat4_identity(), .projection = kiln_mat4_identity(), .near = 0.1f,
                                    .width = 4, .height = 4, .settings = &s,
                                    .environment = kiln_environment_resolve(NULL)};
    uint8_t bytes[KILN_FRAME_UNIFORM_SIZE + 16];
    memset(bytes, 0xEE, sizeof bytes);
    kiln_error err = {0};
    CHECK_MSG(kiln_frame_uniform_pack(&in, bytes, &err), "%s", err.message);
    for (size_t i = KILN_FRAME_UNIFORM_SIZE; i < sizeof bytes; i++) CHECK_EQ_INT(bytes[i], 0xEE);
    uint8_t record[KILN_INSTANCE_RECORD_SIZE + 8];
    memset(record, 0xEE, sizeof record);
    kiln_instance_record_pack(kiln_mat4_identity(), 3, 1, 2, -1, 0, record);
    for (size_t i = KILN_INSTANCE_RECORD_SIZE; i < sizeof record; i++) CHECK_EQ_INT(record[i], 0xEE);
    uint32_t params[4];
    memcpy(params, record + 128, 16);
    CHECK_EQ_INT(params[0], 3);
    CHECK_EQ_INT(params[1], 1 | (2 << 8));
    CHECK_EQ_INT((int32_t)params[2], -1);
}

TEST_MAIN(T(every_shared_block_has_one_size_on_both_sides), T(the_frame_uniform_writer_fills_exactly_its_size))
