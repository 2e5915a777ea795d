/* Pipeline builders: bind group layouts for every binding kind, bind groups, render and compute
 * pipelines that fail at creation with the validation message instead of at the next submit. */
#include <stdio.h>
#include <string.h>

#include "gfx_internal.h"

/* Maps one engine-side binding kind onto the four WebGPU binding layouts. */
static bool fill_layout_entry(const kiln_layout_entry *in, WGPUBindGroupLayoutEntry *out, kiln_error *err) {
    *out = (WGPUBindGroupLayoutEntry){.binding = in->binding, .visibility = in->visibility};
    WGPUTextureBindingLayout *tex = &out->texture;
    switch (in->kind) {
    case KILN_BINDING_UNIFORM_BUFFER:
    case KILN_BINDING_STORAGE_BUFFER:
    case KILN_BINDING_READ_ONLY_STORAGE_BUFFER:
        out->buffer.type = in->kind == KILN_BINDING_UNIFORM_BUFFER ? WGPUBufferBindingType_Uniform
                         : in->kind == KILN_BINDING_STORAGE_BUFFER ? WGPUBufferBindingType_Storage
                                                                   : WGPUBufferBindingType_ReadOnlyStorage;
        out->buffer.hasDynamicOffset = in->dynamic_offset;
        out->buffer.minBindingSize = in->min_binding_size;
        return true;
    case KILN_BINDING_TEXTURE_2D: *tex = (WGPUTextureBindingLayout){.sampleType = WGPUTextureSampleType_Float, .viewDimension = WGPUTextureViewDimension_2D}; return true;
    case KILN_BINDING_TEXTURE_CUBE: *tex = (WGPUTextureBindingLayout){.sampleType = WGPUTextureSampleType_Float, .viewDimension = WGPUTextureViewDimension_Cube}; return true;
    case KILN_BINDING_TEXTURE_2D_ARRAY: *tex = (WGPUTextureBindingLayout){.sampleType = WGPUTextureSampleType_Float, .viewDimension = WGPUTextureViewDimension_2DArray}; return true;
    case KILN_BINDING_TEXTURE_3D: *tex = (WGPUTextureBindingLayout){.sampleType = WGPUTextureSampleType_Float, .viewDimension = WGPUTextureViewDimension_3D}; return true;
    case KILN_BINDING_DEPTH_TEXTURE_2D: *tex = (WGPUTextureBindingLayout){.sampleType = WGPUTextureSampleType_Depth, .viewDimension = WGPUTextureViewDimension_2D}; return true;
    case KILN_BINDING_DEPTH_TEXTURE_2D_ARRAY: *tex = (WGPUTextureBindingLayout){.sampleType = WGPUTextureSampleType_Depth, .viewDimension = WGPUTextureViewDimension_2DArray}; return true;
    case KILN_BINDING_MULTISAMPLED_DEPTH_TEXTURE_2D: *tex = (WGPUTextureBindingLayout){.sampleType = WGPUTextureSampleType_Depth, .viewDimension = WGPUTextureViewDimension_2D, .multisampled = 1}; return true;
    case KILN_BINDING_UNFILTERABLE_TEXTURE_2D: *tex = (WGPUTextureBindingLayout){.sampleType = WGPUTextureSampleType_UnfilterableFloat, .viewDimension = WGPUTextureViewDimension_2D}; return true;
    case KILN_BINDING_UNFILTERABLE_TEXTURE_2D_ARRAY: *tex = (WGPUTextureBindingLayout){.sampleType = WGPUTextureSampleType_UnfilterableFloat, .viewDimension = WGPUTextureViewDimension_2DArray}; return true;
    case KILN_BINDING_UNFILTERABLE_TEXTURE_3D: *tex = (WGPUTextureBindingLayout){.sampleType = WGPUTextureSampleType_UnfilterableFloat, .viewDimension = WGPUTextureViewDimension_3D}; return true;
    case KILN_BINDING_FILTERING_SAMPLER: out->sampler.type = WGPUSamplerBindingType_Filtering; return true;
    case KILN_BINDING_NON_FILTERING_SAMPLER: out->sampler.type = WGPUSamplerBindingType_NonFiltering; return true;
    case KILN_BINDING_COMPARISON_SAMPLER: out->sampler.type = WGPUSamplerBindingType_Comparison; return true;
    case KILN_BINDING_WRITE_ONLY_STORAGE_TEXTURE_2D:
    case KILN_BINDING_WRITE_ONLY_STORAGE_TEXTURE_2D_ARRAY:
        if (in->storage_format == WGPUTextureFormat_Undefined)
            return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "binding %u: a storage texture needs storage_format",
                                  in->binding);
        out->storageTexture = (WGPUStorageTextureBindingLayout){.access = WGPUStorageTextureAccess_WriteOnly,
                                                                .format = in->storage_format,
                                                                .viewDimension = in->kind == KILN_BINDING_WRITE_ONLY_STORAGE_TEXTURE_2D
                                                                                     ? WGPUTextureViewDimension_2D
                                                                                     : WGPUTextureViewDimension_2DArray};
        return true;
    default: return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "binding %u: unknown binding kind %d", in->binding, (int)in->kind);
    }
}

/* Runs after a creation call inside kiln_gfx_push_scope: turns a caught error into
 * "<kind> '<label>' is invalid: <message>" and reports whether the object is usable. */
static bool creation_ok(kiln_gfx *gfx, const char *kind, const char *label, kiln_error *err) {
    kiln_gfx_scope_result scope;
    if (!kiln_gfx_pop_scope(gfx, &scope, err)) return false;
    if (!scope.failed) return true;
    return kiln_error_set(err, KILN_ERR_PIPELINE, "%s '%s' is invalid: %s", kind, label ? label : "", scope.message);
}

#define MAX_LAYOUT_ENTRIES 32

kiln_bind_group_layout kiln_resources_create_bind_group_layout(kiln_resources *res, const char *label,
                                                         const kiln_layout_entry *entries, uint32_t count,
                                                         kiln_error *err) {
    WGPUBindGroupLayoutEntry raw_entries[MAX_LAYOUT_ENTRIES];
    if (count > MAX_LAYOUT_ENTRIES) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "bind group layout '%s': %u entries, at most %d", label ? label : "",
                       count, MAX_LAYOUT_ENTRIES);
        return (kiln_bind_group_layout){0};
    }
    for (uint32_t i = 0; i < count; i++)
        if (!fill_layout_entry(&entries[i], &raw_entries[i], err)) return (kiln_bind_group_layout){0};
    WGPUBindGroupLayoutDescriptor d = {.label = kiln_sv(label), .entryCount = count, .entries = raw_entries};
    kiln_gfx_push_scope(res->gfx);
    WGPUBindGroupLayout raw = wgpuDeviceCreateBindGroupLayout(res->gfx->device, &d);
    if (!creation_ok(res->gfx, "bind group layout", label, err)) {
        if (raw) wgpuBindGroupLayoutRelease(raw);
        return (kiln_bind_group_layout){0};
    }
    return (kiln_bind_group_layout){kiln_resources_adopt_object(res, KILN_POOL_BIND_GROUP_LAYOUT, raw, label, err)};
}

kiln_pipeline_layout kiln_resources_create_pipeline_layout(kiln_resources *res, const char *label,
                                                     const kiln_bind_group_layout *layouts, uint32_t count,
                                                     kiln_error *err) {
    WGPUBindGroupLayout raw_layouts[8];
    if (count > 8) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "pipeline layout '%s': %u groups, at most 8", label ? label : "", count);
        return (kiln_pipeline_layout){0};
    }
    for (uint32_t i = 0; i < count; i++) {
        raw_layouts[i] = kiln_resources_bind_group_layout_raw(res, layouts[i], err);
        if (!raw_layouts[i]) return (kiln_pipeline_layout){0};
    }
    WGPUPipelineLayoutDescriptor d = {.label = kiln_sv(label), .bindGroupLayoutCount = count, .bindGroupLayouts = raw_layouts};
    kiln_gfx_push_scope(res->gfx);
    WGPUPipelineLayout raw = wgpuDeviceCreatePipelineLayout(res->gfx->device, &d);
    if (!creation_ok(res->gfx, "pipeline layout", label, err)) {
        if (raw) wgpuPipelineLayoutRelease(raw);
        return (kiln_pipeline_layout){0};
    }
    return (kiln_pipeline_layout){kiln_resources_adopt_object(res, KILN_POOL_PIPELINE_LAYOUT, raw, label, err)};
}

kiln_bind_group kiln_resources_create_bind_group(kiln_resources *res, const char *label, kiln_bind_group_layout layout,
                                           const kiln_binding_resource *entries, uint32_t count, kiln_error *err) {
    WGPUBindGroupEntry raw_entries[MAX_LAYOUT_ENTRIES];
    if (count > MAX_LAYOUT_ENTRIES) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "bind group '%s': %u entries, at most %d", label ? label : "", count,
                       MAX_LAYOUT_ENTRIES);
        return (kiln_bind_group){0};
    }
    WGPUBindGroupLayout raw_layout = kiln_resources_bind_group_layout_raw(res, layout, err);
    if (!raw_layout) return (kiln_bind_group){0};
    for (uint32_t i = 0; i < count; i++) {
        const kiln_binding_resource *e = &entries[i];
        WGPUBindGroupEntry *r = &raw_entries[i];
        *r = (WGPUBindGroupEntry){.binding = e->binding, .offset = e->offset,
                                  .size = e->size ? e->size : WGPU_WHOLE_SIZE};
        int kinds = (e->buffer.id != 0) + (e->sampler.id != 0) + (e->view.id != 0);
        if (kinds != 1) {
            kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "bind group '%s': entry %u (binding %u) must name exactly one of buffer, sampler, view",
                           label ? label : "", i, e->binding);
            return (kiln_bind_group){0};
        }
        if (e->buffer.id && !(r->buffer = kiln_resources_buffer_raw(res, e->buffer, err))) return (kiln_bind_group){0};
        if (e->sampler.id && !(r->sampler = kiln_resources_sampler_raw(res, e->sampler, err))) return (kiln_bind_group){0};
        if (e->view.id && !(r->textureView = kiln_resources_texture_view_raw(res, e->view, err))) return (kiln_bind_group){0};
    }
    WGPUBindGroupDescriptor d = {.label = kiln_sv(label), .layout = raw_layout, .entryCount = count, .entries = raw_entries};
    kiln_gfx_push_scope(res->gfx);
    WGPUBindGroup raw = wgpuDeviceCreateBindGroup(res->gfx->device, &d);
    if (!creation_ok(res->gfx, "bind group", label, err)) {
        if (raw) wgpuBindGroupRelease(raw);
        return (kiln_bind_group){0};
    }
    return (kiln_bind_group){kiln_resources_adopt_object(res, KILN_POOL_BIND_GROUP, raw, label, err)};
}

/* --- render pipelines ---------------------------------------------------------------------------- */

kiln_depth_state kiln_depth_reverse_z(WGPUTextureFormat format, bool write) {
    return (kiln_depth_state){.format = format, .write = write, .compare = WGPUCompareFunction_GreaterEqual};
}

kiln_depth_state kiln_depth_reverse_z_biased(WGPUTextureFormat format, int32_t bias, float slope_scale, float clamp) {
    kiln_depth_state d = kiln_depth_reverse_z(format, true);
    d.bias = bias;
    d.bias_slope_scale = slope_scale;
    d.bias_clamp = clamp;
    return d;
}

static WGPUBlendState blend_state(kiln_blend_mode mode) {
    WGPUBlendComponent one_over = {WGPUBlendOperation_Add, WGPUBlendFactor_One, WGPUBlendFactor_OneMinusSrcAlpha};
    switch (mode) {
    case KILN_BLEND_ALPHA:
        return (WGPUBlendState){{WGPUBlendOperation_Add, WGPUBlendFactor_SrcAlpha, WGPUBlendFactor_OneMinusSrcAlpha}, one_over};
    case KILN_BLEND_PREMULTIPLIED: return (WGPUBlendState){one_over, one_over};
    case KILN_BLEND_ADDITIVE: {
        WGPUBlendComponent add = {WGPUBlendOperation_Add, WGPUBlendFactor_One, WGPUBlendFactor_One};
        return (WGPUBlendState){add, add};
    }
    default: {
        WGPUBlendComponent replace = {WGPUBlendOperation_Add, WGPUBlendFactor_One, WGPUBlendFactor_Zero};
        return (WGPUBlendState){replace, replace};
    }
    }
}

WGPURenderPipeline kiln_resources_build_render_pipeline(kiln_resources *res, const kiln_render_pipeline_desc *desc,
                                                  kiln_error *err) {
    const char *label = desc->label ? desc->label : "";
    if (desc->vertex_buffer_count > KILN_MAX_VERTEX_BUFFERS || desc->target_count > KILN_MAX_COLOR_ATTACHMENTS) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "pipeline '%s': %u vertex buffers / %u targets exceed %d / %d", label,
                       desc->vertex_buffer_count, desc->target_count, KILN_MAX_VERTEX_BUFFERS, KILN_MAX_COLOR_ATTACHMENTS);
        return NULL;
    }
    WGPUShaderModule module = kiln_resources_shader_raw(res, desc->shader, err);
    if (!module) return NULL;
    WGPUShaderModule fragment_module = module;
    if (desc->fragment_shader.id && !(fragment_module = kiln_resources_shader_raw(res, desc->fragment_shader, err))) return NULL;
    WGPUPipelineLayout layout = NULL;
    if (desc->layout.id && !(layout = kiln_resources_pipeline_layout_raw(res, desc->layout, err))) return NULL;

    WGPUVertexAttribute attributes[KILN_MAX_VERTEX_BUFFERS][KILN_MAX_VERTEX_ATTRIBUTES];
    WGPUVertexBufferLayout buffers[KILN_MAX_VERTEX_BUFFERS];
    for (uint32_t b = 0; b < desc->vertex_buffer_count; b++) {
        const kiln_vertex_layout *vl = &desc->vertex_buffers[b];
        if (vl->attribute_count > KILN_MAX_VERTEX_ATTRIBUTES) {
            kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "pipeline '%s': vertex buffer %u has %u attributes, at most %d",
                           label, b, vl->attribute_count, KILN_MAX_VERTEX_ATTRIBUTES);
            return NULL;
        }
        for (uint32_t a = 0; a < vl->attribute_count; a++)
            attributes[b][a] = (WGPUVertexAttribute){.format = vl->attributes[a].format,
                                                     .offset = vl->attributes[a].offset,
                                                     .shaderLocation = vl->attributes[a].location};
        buffers[b] = (WGPUVertexBufferLayout){
            .stepMode = vl->per_instance ? WGPUVertexStepMode_Instance : WGPUVertexStepMode_Vertex,
            .arrayStride = vl->stride,
            .attributeCount = vl->attribute_count,
            .attributes = attributes[b],
        };
    }
    WGPUBlendState blends[KILN_MAX_COLOR_ATTACHMENTS];
    WGPUColorTargetState targets[KILN_MAX_COLOR_ATTACHMENTS];
    for (uint32_t t = 0; t < desc->target_count; t++) {
        const kiln_color_target *ct = &desc->targets[t];
        blends[t] = blend_state(ct->blend);
        targets[t] = (WGPUColorTargetState){
            .format = ct->format,
            .blend = ct->blend == KILN_BLEND_OPAQUE ? NULL : &blends[t],
            .writeMask = ct->write_mask ? ct->write_mask : WGPUColorWriteMask_All,
        };
    }
    WGPUFragmentState fragment = {
        .module = fragment_module,
        .entryPoint = kiln_sv(desc->fragment_entry ? desc->fragment_entry : "fs_main"),
        .targetCount = desc->target_count,
        .targets = targets,
    };
    WGPUStencilFaceState keep = {WGPUCompareFunction_Always, WGPUStencilOperation_Keep, WGPUStencilOperation_Keep,
                                 WGPUStencilOperation_Keep};
    WGPUDepthStencilState depth = {
        .format = desc->depth.format,
        .depthWriteEnabled = desc->depth.write ? WGPUOptionalBool_True : WGPUOptionalBool_False,
        .depthCompare = desc->depth.compare ? desc->depth.compare : WGPUCompareFunction_Always,
        .stencilFront = keep,
        .stencilBack = keep,
        .stencilReadMask = 0xFFFFFFFFu,
        .stencilWriteMask = 0xFFFFFFFFu,
        .depthBias = desc->depth.bias,
        .depthBiasSlopeScale = desc->depth.bias_slope_scale,
        .depthBiasClamp = desc->depth.bias_clamp,
    };
    WGPURenderPipelineDescriptor d = {
        .label = kiln_sv(desc->label),
        .layout = layout,
        .vertex = {.module = module,
                   .entryPoint = kiln_sv(desc->vertex_entry ? desc->vertex_entry : "vs_main"),
                   .bufferCount = desc->vertex_buffer_count,
                   .buffers = buffers},
        .primitive = {.topology = desc->topology ? desc->topology : WGPUPrimitiveTopology_TriangleList,
                      .frontFace = desc->front_face ? desc->front_face : WGPUFrontFace_CCW,
                      .cullMode = desc->cull ? desc->cull : WGPUCullMode_None},
        .depthStencil = desc->depth.format != WGPUTextureFormat_Undefined ? &depth : NULL,
        .multisample = {.count = desc->sample_count ? desc->sample_count : 1, .mask = 0xFFFFFFFFu},
        .fragment = desc->no_fragment ? NULL : &fragment,
    };
    kiln_gfx_push_scope(res->gfx);
    WGPURenderPipeline raw = wgpuDeviceCreateRenderPipeline(res->gfx->device, &d);
    if (!creation_ok(res->gfx, "pipeline", label, err)) {
        if (raw) wgpuRenderPipelineRelease(raw);
        return NULL;
    }
    return raw;
}

WGPUComputePipeline kiln_resources_build_compute_pipeline(kiln_resources *res, const kiln_compute_pipeline_desc *desc,
                                                    kiln_error *err) {
    WGPUShaderModule module = kiln_resources_shader_raw(res, desc->shader, err);
    if (!module) return NULL;
    WGPUPipelineLayout layout = NULL;
    if (desc->layout.id && !(layout = kiln_resources_pipeline_layout_raw(res, desc->layout, err))) return NULL;
    WGPUComputePipelineDescriptor d = {
        .label = kiln_sv(desc->label),
        .layout = layout,
        .compute = {.module = module, .entryPoint = kiln_sv(desc->entry ? desc->entry : "cs_main")},
    };
    kiln_gfx_push_scope(res->gfx);
    WGPUComputePipeline raw = wgpuDeviceCreateComputePipeline(res->gfx->device, &d);
    if (!creation_ok(res->gfx, "pipeline", desc->label, err)) {
        if (raw) wgpuComputePipelineRelease(raw);
        return NULL;
    }
    return raw;
}

kiln_render_pipeline kiln_resources_create_render_pipeline(kiln_resources *res, const kiln_render_pipeline_desc *desc,
                                                     kiln_error *err) {
    WGPURenderPipeline raw = kiln_resources_build_render_pipeline(res, desc, err);
    if (!raw) return (kiln_render_pipeline){0};
    return kiln_resources_adopt_render_pipeline(res, raw, err);
}

kiln_compute_pipeline kiln_resources_create_compute_pipeline(kiln_resources *res, const kiln_compute_pipeline_desc *desc,
                                                       kiln_error *err) {
    WGPUComputePipeline raw = kiln_resources_build_compute_pipeline(res, desc, err);
    if (!raw) return (kiln_compute_pipeline){0};
    return kiln_resources_adopt_compute_pipeline(res, raw, err);
}
