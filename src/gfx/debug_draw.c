/* kiln_debug_draw: coloured lines accumulated on the CPU, uploaded once per frame and drawn with
 * one line-list pipeline. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gfx_internal.h"

extern const char kiln_wgsl_debug_lines[];

#define KILN_PI_F 3.14159265358979f

typedef struct debug_vertex {
    float position[3];
    kiln_color8 color;
} debug_vertex; /* 16 bytes: Float32x3 + Unorm8x4 */

struct kiln_debug_draw {
    kiln_resources *res;
    kiln_shader shader;
    kiln_bind_group_layout group_layout;
    kiln_pipeline_layout layout;
    kiln_render_pipeline pipeline;
    kiln_buffer camera;
    kiln_bind_group group;
    kiln_buffer vertices;             /* GPU copy; grows by doubling */
    uint64_t vertex_capacity;         /* in vertices */
    debug_vertex *cpu;                /* CPU list; grows by doubling, never shrinks */
    uint32_t cpu_count, cpu_capacity;
    uint32_t uploaded;                /* vertices written by the last upload */
    uint32_t grows;
};

kiln_debug_draw *kiln_debug_draw_create(kiln_resources *res, WGPUTextureFormat color_format,
                                        WGPUTextureFormat depth_format, kiln_error *err) {
    kiln_debug_draw *dd = calloc(1, sizeof *dd);
    if (!dd) {
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "out of memory creating kiln_debug_draw");
        return NULL;
    }
    dd->res = res;
    WGPUShaderModule module = kiln_gfx_compile_shader(res->gfx, "kiln/gfx/debug_lines.wgsl", kiln_wgsl_debug_lines, NULL, err);
    if (!module || !(dd->shader = kiln_resources_adopt_shader(res, module, "debug lines", err)).id) goto fail;

    kiln_layout_entry entry = {.binding = 0, .visibility = WGPUShaderStage_Vertex, .kind = KILN_BINDING_UNIFORM_BUFFER,
                               .min_binding_size = 64};
    dd->group_layout = kiln_resources_create_bind_group_layout(res, "debug lines", &entry, 1, err);
    if (!dd->group_layout.id) goto fail;
    dd->layout = kiln_resources_create_pipeline_layout(res, "debug lines", &dd->group_layout, 1, err);
    if (!dd->layout.id) goto fail;

    kiln_render_pipeline_desc pd = {
        .label = "debug lines",
        .layout = dd->layout,
        .shader = dd->shader,
        .vertex_buffer_count = 1,
        .vertex_buffers = {{.stride = sizeof(debug_vertex), .attribute_count = 2,
                            .attributes = {{WGPUVertexFormat_Float32x3, 0, 0}, {WGPUVertexFormat_Unorm8x4, 12, 1}}}},
        .target_count = 1,
        .targets = {{.format = color_format, .blend = KILN_BLEND_ALPHA}},
        .topology = WGPUPrimitiveTopology_LineList,
    };
    if (depth_format != WGPUTextureFormat_Undefined) pd.depth = kiln_depth_reverse_z(depth_format, false);
    dd->pipeline = kiln_resources_create_render_pipeline(res, &pd, err);
    if (!dd->pipeline.id) goto fail;

    kiln_buffer_desc cam = {.label = "debug lines camera", .size = 64, .usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst};
    dd->camera = kiln_resources_create_buffer(res, &cam, err);
    if (!dd->camera.id) goto fail;
    kiln_binding_resource binding = {.binding = 0, .buffer = dd->camera, .size = 64};
    dd->group = kiln_resources_create_bind_group(res, "debug lines", dd->group_layout, &binding, 1, err);
    if (!dd->group.id) goto fail;
    return dd;
fail:
    kiln_debug_draw_destroy(dd);
    return NULL;
}

void kiln_debug_draw_destroy(kiln_debug_draw *dd) {
    if (!dd) return;
    kiln_resources *res = dd->res;
    if (dd->group.id) kiln_resources_destroy_bind_group(res, dd->group, NULL);
    if (dd->camera.id) kiln_resources_destroy_buffer(res, dd->camera, NULL);
    if (dd->vertices.id) kiln_resources_destroy_buffer(res, dd->vertices, NULL);
    if (dd->pipeline.id) kiln_resources_destroy_render_pipeline(res, dd->pipeline, NULL);
    if (dd->layout.id) kiln_resources_destroy_pipeline_layout(res, dd->layout, NULL);
    if (dd->group_layout.id) kiln_resources_destroy_bind_group_layout(res, dd->group_layout, NULL);
    if (dd->shader.id) kiln_resources_destroy_shader(res, dd->shader, NULL);
    free(dd->cpu);
    free(dd);
}

static void push_vertex(kiln_debug_draw *dd, kiln_vec3 p, kiln_color8 c) {
    if (dd->cpu_count == dd->cpu_capacity) {
        uint32_t cap = dd->cpu_capacity ? dd->cpu_capacity * 2 : 1024;
        debug_vertex *grown = realloc(dd->cpu, cap * sizeof *grown);
        if (!grown) return; /* out of memory: the line is dropped, nothing else breaks */
        dd->cpu = grown;
        dd->cpu_capacity = cap;
    }
    dd->cpu[dd->cpu_count++] = (debug_vertex){{p.x, p.y, p.z}, c};
}

void kiln_debug_draw_line(kiln_debug_draw *dd, kiln_vec3 a, kiln_vec3 b, kiln_color8 color) {
    push_vertex(dd, a, color);
    push_vertex(dd, b, color);
}

void kiln_debug_draw_aabb(kiln_debug_draw *dd, kiln_vec3 lo, kiln_vec3 hi, kiln_color8 color) {
    kiln_vec3 c[8];
    for (int i = 0; i < 8; i++)
        c[i] = (kiln_vec3){(i & 1) ? hi.x : lo.x, (i & 2) ? hi.y : lo.y, (i & 4) ? hi.z : lo.z};
    /* The 12 edges join corners that differ in exactly one axis bit. */
    for (int i = 0; i < 8; i++)
        for (int bit = 1; bit < 8; bit <<= 1)
            if (!(i & bit)) kiln_debug_draw_line(dd, c[i], c[i | bit], color);
}

void kiln_debug_draw_sphere(kiln_debug_draw *dd, kiln_vec3 center, float radius, kiln_color8 color, uint32_t segments) {
    if (segments < 3) segments = 3;
    /* Three great circles, one per axis plane. */
    for (int axis = 0; axis < 3; axis++) {
        for (uint32_t s = 0; s < segments; s++) {
            float a0 = 2.0f * KILN_PI_F * (float)s / (float)segments;
            float a1 = 2.0f * KILN_PI_F * (float)(s + 1) / (float)segments;
            float u0 = cosf(a0) * radius, v0 = sinf(a0) * radius, u1 = cosf(a1) * radius, v1 = sinf(a1) * radius;
            kiln_vec3 p0 = center, p1 = center;
            if (axis == 0) p0.x += u0, p0.y += v0, p1.x += u1, p1.y += v1;
            else if (axis == 1) p0.y += u0, p0.z += v0, p1.y += u1, p1.z += v1;
            else p0.x += u0, p0.z += v0, p1.x += u1, p1.z += v1;
            kiln_debug_draw_line(dd, p0, p1, color);
        }
    }
}

void kiln_debug_draw_axes(kiln_debug_draw *dd, kiln_vec3 o, float length) {
    kiln_debug_draw_line(dd, o, (kiln_vec3){o.x + length, o.y, o.z}, (kiln_color8){255, 0, 0, 255});
    kiln_debug_draw_line(dd, o, (kiln_vec3){o.x, o.y + length, o.z}, (kiln_color8){0, 255, 0, 255});
    kiln_debug_draw_line(dd, o, (kiln_vec3){o.x, o.y, o.z + length}, (kiln_color8){0, 0, 255, 255});
}

void kiln_debug_draw_grid(kiln_debug_draw *dd, uint32_t half_cells, float spacing, kiln_color8 color) {
    float extent = (float)half_cells * spacing;
    for (int i = -(int)half_cells; i <= (int)half_cells; i++) {
        float t = (float)i * spacing;
        kiln_debug_draw_line(dd, (kiln_vec3){t, 0, -extent}, (kiln_vec3){t, 0, extent}, color);
        kiln_debug_draw_line(dd, (kiln_vec3){-extent, 0, t}, (kiln_vec3){extent, 0, t}, color);
    }
}

bool kiln_debug_draw_upload(kiln_debug_draw *dd, kiln_mat4 view_proj, kiln_error *err) {
    if (!kiln_resources_write_buffer(dd->res, dd->camera, 0, view_proj.m, sizeof view_proj.m, err)) return false;
    dd->uploaded = dd->cpu_count;
    if (!dd->cpu_count) return true;
    if (dd->cpu_count > dd->vertex_capacity) {
        uint64_t cap = dd->vertex_capacity ? dd->vertex_capacity : 1024;
        while (cap < dd->cpu_count) cap *= 2;
        kiln_buffer_desc bd = {.label = "debug lines vertices", .size = cap * sizeof(debug_vertex),
                               .usage = WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst};
        kiln_buffer grown = kiln_resources_create_buffer(dd->res, &bd, err);
        if (!grown.id) return false;
        if (dd->vertices.id) {
            kiln_resources_destroy_buffer(dd->res, dd->vertices, NULL);
            dd->grows++;
        }
        dd->vertices = grown;
        dd->vertex_capacity = cap;
    }
    return kiln_resources_write_buffer(dd->res, dd->vertices, 0, dd->cpu, dd->cpu_count * sizeof(debug_vertex), err);
}

bool kiln_debug_draw_flush(kiln_debug_draw *dd, kiln_render_pass *pass, kiln_error *err) {
    uint32_t count = dd->uploaded;
    dd->cpu_count = 0;
    dd->uploaded = 0;
    if (!count) return true;
    if (!kiln_render_pass_set_pipeline(pass, dd->pipeline, err) ||
        !kiln_render_pass_set_bind_group(pass, 0, dd->group, NULL, 0, err) ||
        !kiln_render_pass_set_vertex_buffer(pass, 0, dd->vertices, 0, err))
        return false;
    kiln_render_pass_draw(pass, count, 1, 0, 0);
    return true;
}

uint32_t kiln_debug_draw_vertex_count(const kiln_debug_draw *dd) { return dd->cpu_count; }
uint32_t kiln_debug_draw_grows(const kiln_debug_draw *dd) { return dd->grows; }
