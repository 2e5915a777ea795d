/* Shader compilation with file:line:col diagnostics. Where the source comes from (files,
 * #include, hot reload) is the shader layer's business; gfx only turns text into a module. */
#include <stdio.h>
#include <string.h>

#include "gfx_internal.h"

void kiln_shader_report_format(const kiln_shader_report *report, uint32_t i, char *out, size_t out_size) {
    if (i >= report->count) {
        snprintf(out, out_size, "%s: error: shader compilation failed", report->path);
        return;
    }
    const kiln_shader_message *m = &report->messages[i];
    snprintf(out, out_size, "%s:%u:%u: %s: %s", report->path, m->line, m->column, m->is_error ? "error" : "warning",
             m->text);
}

typedef struct info_request {
    WGPUCompilationInfoRequestStatus status;
    kiln_shader_report *report;
} info_request;

static void on_compilation_info(WGPUCompilationInfoRequestStatus status, WGPUCompilationInfo const *info, void *ud1,
                                void *ud2) {
    (void)ud2;
    info_request *r = ud1;
    r->status = status;
    if (status != WGPUCompilationInfoRequestStatus_Success || !info) return;
    /* Errors first: the first message is the one users see in the error string. */
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < info->messageCount && r->report->count < KILN_SHADER_MAX_MESSAGES; i++) {
            const WGPUCompilationMessage *m = &info->messages[i];
            bool is_error = m->type == WGPUCompilationMessageType_Error;
            if (is_error != (pass == 0)) continue;
            kiln_shader_message *out = &r->report->messages[r->report->count++];
            out->line = (uint32_t)m->lineNum;
            out->column = (uint32_t)m->linePos;
            out->is_error = is_error;
            kiln_sv_copy(m->message, out->text, sizeof out->text);
        }
    }
}

static bool report_has_error(const kiln_shader_report *report) {
    for (uint32_t i = 0; i < report->count; i++)
        if (report->messages[i].is_error) return true;
    return false;
}

WGPUShaderModule kiln_gfx_compile_shader(kiln_gfx *gfx, const char *path, const char *source,
                                         kiln_shader_report *report, kiln_error *err) {
    kiln_shader_report local;
    if (!report) report = &local;
    *report = (kiln_shader_report){0};
    snprintf(report->path, sizeof report->path, "%s", path ? path : "<wgsl>");

    WGPUShaderSourceWGSL wgsl = {.chain = {.sType = WGPUSType_ShaderSourceWGSL}, .code = kiln_sv(source)};
    WGPUShaderModuleDescriptor d = {.nextInChain = &wgsl.chain, .label = kiln_sv(report->path)};
    kiln_gfx_push_scope(gfx);
    WGPUShaderModule module = wgpuDeviceCreateShaderModule(gfx->device, &d);
    kiln_gfx_scope_result scope;
    kiln_error scope_err = {0};
    bool popped = kiln_gfx_pop_scope(gfx, &scope, &scope_err);

    if (module) {
        info_request req = {.report = report};
        WGPUCompilationInfoCallbackInfo cb = {.mode = WGPUCallbackMode_WaitAnyOnly, .callback = on_compilation_info,
                                              .userdata1 = &req};
        WGPUFuture f = wgpuShaderModuleGetCompilationInfo(module, cb);
        kiln_gfx_await(gfx, f, KILN_GFX_DEFAULT_TIMEOUT_NS, "shader compilation info", NULL);
    }
    bool failed = !popped || scope.failed || !module || report_has_error(report);
    if (!failed) return module;

    if (report->count == 0) {
        /* No located message: keep the scope's text at line 0 so the error still says why. */
        report->count = 1;
        report->messages[0] = (kiln_shader_message){.is_error = true};
        const char *why = popped ? (scope.failed ? scope.message : "shader module creation failed") : scope_err.message;
        kiln_utf8_copy(report->messages[0].text, sizeof report->messages[0].text, why);
    }
    char first[sizeof err->message];
    kiln_shader_report_format(report, 0, first, sizeof first);
    kiln_error_set(err, KILN_ERR_SHADER, "%s", first);
    if (module) wgpuShaderModuleRelease(module);
    return NULL;
}
