/* Command encoding: the encoder, render and compute passes, copies with their checks. */
#include <string.h>

#include "gfx_internal.h"

bool kiln_encoder_begin(kiln_encoder *enc, kiln_resources *res, const char *label, kiln_error *err) {
    *enc = (kiln_encoder){.res = res};
    WGPUCommandEncoderDescriptor d = {.label = kiln_sv(label)};
    kiln_gfx_scope_due(res->gfx);
    enc->raw = wgpuDeviceCreateCommandEncoder(res->gfx->device, &d);
    if (!enc->raw) return kiln_error_set(err, KILN_ERR_GPU, "could not create command encoder '%s'", label ? label : "");
    return true;
}

static bool encoder_ready(kiln_encoder *enc, const char *what, kiln_error *err) {
    if (!enc->raw) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "%s: the encoder was already submitted or discarded", what);
    if (enc->pass_open) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "%s: end the open pass first", what);
    return true;
}

kiln_color_attachment kiln_color_cleared(WGPUTextureView view, double r, double g, double b, double a) {
    return (kiln_color_attachment){.view = view, .load = WGPULoadOp_Clear, .clear = {r, g, b, a}};
}

kiln_color_attachment kiln_color_cleared_resolving(WGPUTextureView view, WGPUTextureView resolve, double r, double g,
                                                   double b, double a) {
    kiln_color_attachment c = kiln_color_cleared(view, r, g, b, a);
    c.resolve_target = resolve;
    return c;
}

kiln_color_attachment kiln_color_loaded(WGPUTextureView view) {
    return (kiln_color_attachment){.view = view, .load = WGPULoadOp_Load};
}

kiln_depth_attachment kiln_depth_cleared_reverse_z(WGPUTextureView view) {
    return (kiln_depth_attachment){.view = view, .load = WGPULoadOp_Clear, .clear = 0.0f};
}

kiln_depth_attachment kiln_depth_loaded(WGPUTextureView view) {
    return (kiln_depth_attachment){.view = view, .load = WGPULoadOp_Load};
}

bool kiln_encoder_begin_render_pass(kiln_encoder *enc, const char *label, const kiln_color_attachment *colors,
                                    uint32_t color_count, const kiln_depth_attachment *depth, kiln_render_pass *out,
                                    kiln_error *err) {
    return kiln_encoder_begin_render_pass_timed(enc, label, colors, color_count, depth, NULL, out, err);
}

/* Checked here so that a bad index is a kiln error naming the pass, not an uncaptured Dawn error
 * that invalidates the whole encoder. */
static bool timestamps_valid(const kiln_encoder *enc, const char *kind, const char *label,
                             const kiln_pass_timestamps *ts, kiln_error *err) {
    const char *name = label ? label : "";
    if (!enc->res->gfx->features.timestamp_query)
        return kiln_error_set(err, KILN_ERR_GPU, "%s '%s': the device has no timestamp queries", kind, name);
    if (!ts->query_set)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "%s '%s': timestamp writes need a query set", kind, name);
    if (wgpuQuerySetGetType(ts->query_set) != WGPUQueryType_Timestamp)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "%s '%s': the query set is not a timestamp set",
                              kind, name);
    uint32_t count = wgpuQuerySetGetCount(ts->query_set);
    bool has_begin = ts->begin_index != WGPU_QUERY_SET_INDEX_UNDEFINED;
    bool has_end = ts->end_index != WGPU_QUERY_SET_INDEX_UNDEFINED;
    if (!has_begin && !has_end)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "%s '%s': timestamp writes name no query", kind, name);
    if ((has_begin && ts->begin_index >= count) || (has_end && ts->end_index >= count))
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "%s '%s': timestamp query %u is past the set's %u queries", kind, name,
                              has_begin && ts->begin_index >= count ? ts->begin_index : ts->end_index, count);
    if (has_begin && ts->begin_index == ts->end_index)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "%s '%s': beginning and end both write timestamp query %u", kind, name, ts->begin_index);
    return true;
}

bool kiln_encoder_begin_render_pass_timed(kiln_encoder *enc, const char *label, const kiln_color_attachment *colors,
                                          uint32_t color_count, const kiln_depth_attachment *depth,
                                          const kiln_pass_timestamps *ts, kiln_render_pass *out, kiln_error *err) {
    *out = (kiln_render_pass){0};
    if (!encoder_ready(enc, "begin_render_pass", err)) return false;
    if (color_count > KILN_MAX_COLOR_ATTACHMENTS)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "render pass '%s': %u colour attachments, at most %d",
                              label ? label : "", color_count, KILN_MAX_COLOR_ATTACHMENTS);
    if (ts && !timestamps_valid(enc, "render pass", label, ts, err)) return false;
    WGPURenderPassColorAttachment raw_colors[KILN_MAX_COLOR_ATTACHMENTS];
    for (uint32_t i = 0; i < color_count; i++) {
        raw_colors[i] = (WGPURenderPassColorAttachment){
            .view = colors[i].view,
            .depthSlice = WGPU_DEPTH_SLICE_UNDEFINED,
            .resolveTarget = colors[i].resolve_target,
            .loadOp = colors[i].load ? colors[i].load : WGPULoadOp_Clear,
            .storeOp = colors[i].discard ? WGPUStoreOp_Discard : WGPUStoreOp_Store,
            .clearValue = colors[i].clear,
        };
        /* A multisampled attachment that is resolved need not be kept, unless a later pass loads it. */
        if (colors[i].resolve_target && !colors[i].keep_samples) raw_colors[i].storeOp = WGPUStoreOp_Discard;
    }
    WGPURenderPassDepthStencilAttachment raw_depth;
    if (depth) {
        raw_depth = (WGPURenderPassDepthStencilAttachment){
            .view = depth->view,
            .depthLoadOp = depth->read_only ? WGPULoadOp_Undefined : (depth->load ? depth->load : WGPULoadOp_Clear),
            .depthStoreOp = depth->read_only ? WGPUStoreOp_Undefined
                                              : depth->discard ? WGPUStoreOp_Discard : WGPUStoreOp_Store,
            .depthClearValue = depth->clear,
            .depthReadOnly = depth->read_only,
        };
    }
    WGPUPassTimestampWrites writes;
    if (ts)
        writes = (WGPUPassTimestampWrites){
            .querySet = ts->query_set,
            .beginningOfPassWriteIndex = ts->begin_index,
            .endOfPassWriteIndex = ts->end_index,
        };
    WGPURenderPassDescriptor d = {
        .label = kiln_sv(label),
        .colorAttachmentCount = color_count,
        .colorAttachments = raw_colors,
        .depthStencilAttachment = depth ? &raw_depth : NULL,
        .timestampWrites = ts ? &writes : NULL,
    };
    out->raw = wgpuCommandEncoderBeginRenderPass(enc->raw, &d);
    if (!out->raw) return kiln_error_set(err, KILN_ERR_GPU, "could not begin render pass '%s'", label ? label : "");
    out->encoder = enc;
    enc->pass_open = true;
    return true;
}

bool kiln_encoder_begin_compute_pass(kiln_encoder *enc, const char *label, kiln_compute_pass *out, kiln_error *err) {
    return kiln_encoder_begin_compute_pass_timed(enc, label, NULL, out, err);
}

bool kiln_encoder_begin_compute_pass_timed(kiln_encoder *enc, const char *label, const kiln_pass_timestamps *ts,
                                           kiln_compute_pass *out, kiln_error *err) {
    *out = (kiln_compute_pass){0};
    if (!encoder_ready(enc, "begin_compute_pass", err)) return false;
    if (ts && !timestamps_valid(enc, "compute pass", label, ts, err)) return false;
    WGPUPassTimestampWrites writes;
    if (ts)
        writes = (WGPUPassTimestampWrites){
            .querySet = ts->query_set,
            .beginningOfPassWriteIndex = ts->begin_index,
            .endOfPassWriteIndex = ts->end_index,
        };
    WGPUComputePassDescriptor d = {.label = kiln_sv(label), .timestampWrites = ts ? &writes : NULL};
    out->raw = wgpuCommandEncoderBeginComputePass(enc->raw, &d);
    if (!out->raw) return kiln_error_set(err, KILN_ERR_GPU, "could not begin compute pass '%s'", label ? label : "");
    out->encoder = enc;
    enc->pass_open = true;
    return true;
}

bool kiln_encoder_add_hook(kiln_encoder *enc, kiln_encoder_hook hook, kiln_error *err) {
    if (!enc->raw)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "add_hook: the encoder was already submitted or discarded");
    if (!hook.fn) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "add_hook: the hook has no function");
    if (enc->hook_count == KILN_ENCODER_MAX_HOOKS)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "add_hook: the encoder already carries %d hooks",
                              KILN_ENCODER_MAX_HOOKS);
    enc->hooks[enc->hook_count++] = hook;
    return true;
}

/* Runs and forgets the hooks, in the order they were added. */
static void run_hooks(kiln_encoder *enc, bool submitted) {
    uint32_t n = enc->hook_count;
    enc->hook_count = 0;
    for (uint32_t i = 0; i < n; i++) enc->hooks[i].fn(enc->hooks[i].ctx, enc->hooks[i].arg, submitted);
}

/* The sticky-error rule of kiln_render_pass / kiln_compute_pass (gfx.h). */
static bool stuck(const kiln_error *sticky, kiln_error *err) {
    if (err && err != sticky) *err = *sticky;
    return false;
}

static bool stick(bool *failed, const kiln_error *sticky, kiln_error *err) {
    *failed = true;
    return stuck(sticky, err);
}

void kiln_render_pass_end(kiln_render_pass *pass) {
    if (!pass->raw) return;
    wgpuRenderPassEncoderEnd(pass->raw);
    wgpuRenderPassEncoderRelease(pass->raw);
    pass->raw = NULL;
    pass->encoder->pass_open = false;
}

void kiln_render_pass_fail(kiln_render_pass *pass, const kiln_error *why) {
    if (pass->failed) return;
    pass->failed = true;
    pass->error = *why;
}

bool kiln_render_pass_set_pipeline(kiln_render_pass *pass, kiln_render_pipeline p, kiln_error *err) {
    if (pass->failed) return stuck(&pass->error, err);
    WGPURenderPipeline raw = kiln_resources_render_pipeline_raw(pass->encoder->res, p, &pass->error);
    if (!raw) return stick(&pass->failed, &pass->error, err);
    wgpuRenderPassEncoderSetPipeline(pass->raw, raw);
    return true;
}

bool kiln_render_pass_set_bind_group(kiln_render_pass *pass, uint32_t index, kiln_bind_group g,
                                     const uint32_t *dynamic_offsets, uint32_t dynamic_count, kiln_error *err) {
    if (pass->failed) return stuck(&pass->error, err);
    WGPUBindGroup raw = kiln_resources_bind_group_raw(pass->encoder->res, g, &pass->error);
    if (!raw) return stick(&pass->failed, &pass->error, err);
    wgpuRenderPassEncoderSetBindGroup(pass->raw, index, raw, dynamic_count, dynamic_offsets);
    return true;
}

static WGPUBuffer buffer_at(kiln_resources *res, kiln_buffer b, uint64_t offset, const char *what, kiln_error *err) {
    WGPUBuffer raw = kiln_resources_buffer_raw(res, b, err);
    if (!raw) return NULL;
    uint64_t size = kiln_resources_buffer_size(res, b);
    if (offset > size) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "%s: offset %llu is past the end of buffer 0x%08x (%llu bytes)", what,
                       (unsigned long long)offset, b.id, (unsigned long long)size);
        return NULL;
    }
    return raw;
}

bool kiln_render_pass_set_vertex_buffer(kiln_render_pass *pass, uint32_t slot, kiln_buffer b, uint64_t offset,
                                        kiln_error *err) {
    if (pass->failed) return stuck(&pass->error, err);
    WGPUBuffer raw = buffer_at(pass->encoder->res, b, offset, "set_vertex_buffer", &pass->error);
    if (!raw) return stick(&pass->failed, &pass->error, err);
    wgpuRenderPassEncoderSetVertexBuffer(pass->raw, slot, raw, offset, WGPU_WHOLE_SIZE);
    return true;
}

bool kiln_render_pass_set_index_buffer(kiln_render_pass *pass, kiln_buffer b, WGPUIndexFormat format, uint64_t offset,
                                       kiln_error *err) {
    if (pass->failed) return stuck(&pass->error, err);
    WGPUBuffer raw = buffer_at(pass->encoder->res, b, offset, "set_index_buffer", &pass->error);
    if (!raw) return stick(&pass->failed, &pass->error, err);
    wgpuRenderPassEncoderSetIndexBuffer(pass->raw, raw, format, offset, WGPU_WHOLE_SIZE);
    return true;
}

void kiln_render_pass_set_viewport(kiln_render_pass *pass, float x, float y, float w, float h) {
    if (pass->failed) return;
    wgpuRenderPassEncoderSetViewport(pass->raw, x, y, w, h, 0.0f, 1.0f);
}

void kiln_render_pass_set_scissor(kiln_render_pass *pass, uint32_t x, uint32_t y, uint32_t w, uint32_t h) {
    if (pass->failed) return;
    wgpuRenderPassEncoderSetScissorRect(pass->raw, x, y, w, h);
}

void kiln_render_pass_draw(kiln_render_pass *pass, uint32_t vertex_count, uint32_t instance_count,
                           uint32_t first_vertex, uint32_t first_instance) {
    if (pass->failed) return;
    wgpuRenderPassEncoderDraw(pass->raw, vertex_count, instance_count, first_vertex, first_instance);
}

void kiln_render_pass_draw_indexed(kiln_render_pass *pass, uint32_t index_count, uint32_t instance_count,
                                   uint32_t first_index, int32_t base_vertex, uint32_t first_instance) {
    if (pass->failed) return;
    wgpuRenderPassEncoderDrawIndexed(pass->raw, index_count, instance_count, first_index, base_vertex, first_instance);
}

bool kiln_render_pass_draw_indexed_indirect(kiln_render_pass *pass, kiln_buffer args, uint64_t offset, kiln_error *err) {
    if (pass->failed) return stuck(&pass->error, err);
    WGPUBuffer raw = buffer_at(pass->encoder->res, args, offset, "draw_indexed_indirect", &pass->error);
    uint64_t size = raw ? kiln_resources_buffer_size(pass->encoder->res, args) : 0;
    if (raw && (offset % 4 || offset + 20 > size)) {
        kiln_error_set(&pass->error, KILN_ERR_INVALID_ARGUMENT,
                       "draw_indexed_indirect: arguments at offset %llu do not fit buffer 0x%08x (%llu bytes, 20 "
                       "needed at a multiple of 4)", (unsigned long long)offset, args.id, (unsigned long long)size);
        raw = NULL;
    }
    if (!raw) return stick(&pass->failed, &pass->error, err);
    wgpuRenderPassEncoderDrawIndexedIndirect(pass->raw, raw, offset);
    return true;
}

void kiln_compute_pass_end(kiln_compute_pass *pass) {
    if (!pass->raw) return;
    wgpuComputePassEncoderEnd(pass->raw);
    wgpuComputePassEncoderRelease(pass->raw);
    pass->raw = NULL;
    pass->encoder->pass_open = false;
}

bool kiln_compute_pass_set_pipeline(kiln_compute_pass *pass, kiln_compute_pipeline p, kiln_error *err) {
    if (pass->failed) return stuck(&pass->error, err);
    WGPUComputePipeline raw = kiln_resources_compute_pipeline_raw(pass->encoder->res, p, &pass->error);
    if (!raw) return stick(&pass->failed, &pass->error, err);
    wgpuComputePassEncoderSetPipeline(pass->raw, raw);
    return true;
}

bool kiln_compute_pass_set_bind_group(kiln_compute_pass *pass, uint32_t index, kiln_bind_group g,
                                      const uint32_t *dynamic_offsets, uint32_t dynamic_count, kiln_error *err) {
    if (pass->failed) return stuck(&pass->error, err);
    WGPUBindGroup raw = kiln_resources_bind_group_raw(pass->encoder->res, g, &pass->error);
    if (!raw) return stick(&pass->failed, &pass->error, err);
    wgpuComputePassEncoderSetBindGroup(pass->raw, index, raw, dynamic_count, dynamic_offsets);
    return true;
}

void kiln_compute_pass_dispatch(kiln_compute_pass *pass, uint32_t x, uint32_t y, uint32_t z) {
    if (pass->failed) return;
    wgpuComputePassEncoderDispatchWorkgroups(pass->raw, x, y, z);
}

/* --- copies ----------------------------------------------------------------------------------------- */

bool kiln_encoder_copy_buffer_to_buffer(kiln_encoder *enc, kiln_buffer src, uint64_t src_offset, kiln_buffer dst,
                                        uint64_t dst_offset, uint64_t size, kiln_error *err) {
    if (!encoder_ready(enc, "copy_buffer_to_buffer", err)) return false;
    WGPUBuffer s = kiln_resources_buffer_raw(enc->res, src, err), d = s ? kiln_resources_buffer_raw(enc->res, dst, err) : NULL;
    if (!s || !d) return false;
    uint64_t ss = kiln_resources_buffer_size(enc->res, src), ds = kiln_resources_buffer_size(enc->res, dst);
    if (src_offset > ss || size > ss - src_offset || dst_offset > ds || size > ds - dst_offset)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "copy_buffer_to_buffer: %llu bytes from %llu (of %llu) to %llu (of %llu) leave a buffer",
                              (unsigned long long)size, (unsigned long long)src_offset, (unsigned long long)ss,
                              (unsigned long long)dst_offset, (unsigned long long)ds);
    wgpuCommandEncoderCopyBufferToBuffer(enc->raw, s, src_offset, d, dst_offset, size);
    return true;
}

uint32_t kiln_gfx_aligned_bytes_per_row(uint32_t bytes) { return (bytes + 255u) & ~255u; }

bool kiln_encoder_copy_texture_to_buffer(kiln_encoder *enc, WGPUTexture src, uint32_t mip, kiln_buffer dst,
                                         uint32_t bytes_per_row, uint32_t width, uint32_t height, kiln_error *err) {
    if (!encoder_ready(enc, "copy_texture_to_buffer", err)) return false;
    if (bytes_per_row % 256)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "copy_texture_to_buffer: bytes_per_row %u is not a multiple of 256", bytes_per_row);
    uint32_t texel = kiln_gfx_format_texel_size(wgpuTextureGetFormat(src));
    if (texel && (uint64_t)texel * width > bytes_per_row)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "copy_texture_to_buffer: %u texels of %u bytes do not fit a row of %u bytes", width, texel,
                              bytes_per_row);
    WGPUBuffer d = kiln_resources_buffer_raw(enc->res, dst, err);
    if (!d) return false;
    uint64_t need = (uint64_t)bytes_per_row * height;
    if (need > kiln_resources_buffer_size(enc->res, dst))
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "copy_texture_to_buffer: %llu bytes needed, buffer 0x%08x holds %llu",
                              (unsigned long long)need, dst.id, (unsigned long long)kiln_resources_buffer_size(enc->res, dst));
    WGPUTexelCopyTextureInfo s = {.texture = src, .mipLevel = mip, .aspect = WGPUTextureAspect_All};
    WGPUTexelCopyBufferInfo b = {.layout = {.offset = 0, .bytesPerRow = bytes_per_row, .rowsPerImage = height}, .buffer = d};
    WGPUExtent3D extent = {width, height, 1};
    wgpuCommandEncoderCopyTextureToBuffer(enc->raw, &s, &b, &extent);
    return true;
}

bool kiln_encoder_finish_and_submit(kiln_encoder *enc, kiln_error *err) {
    if (!encoder_ready(enc, "finish_and_submit", err)) return false;
    kiln_gfx_scope_due(enc->res->gfx);
    WGPUCommandBuffer cb = wgpuCommandEncoderFinish(enc->raw, NULL);
    wgpuCommandEncoderRelease(enc->raw);
    enc->raw = NULL;
    if (!cb) {
        run_hooks(enc, false);
        return kiln_error_set(err, KILN_ERR_GPU, "finishing the command encoder failed");
    }
    wgpuQueueSubmit(enc->res->gfx->queue, 1, &cb);
    wgpuCommandBufferRelease(cb);
    run_hooks(enc, true);
    return true;
}

void kiln_encoder_discard(kiln_encoder *enc) {
    if (!enc->raw) return;
    wgpuCommandEncoderRelease(enc->raw);
    enc->raw = NULL;
    enc->pass_open = false;
    run_hooks(enc, false);
}
