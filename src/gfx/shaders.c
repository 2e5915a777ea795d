/* Shader compilation with file:line:col diagnostics, and hot reload by modification time. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gfx_internal.h"

typedef struct shader_file {
    char path[256];
    struct timespec mtime;
    off_t size;
    kiln_shader handle;
} shader_file;

struct kiln_shaders {
    kiln_gfx *gfx;
    kiln_resources *res;
    shader_file *files;
    uint32_t file_count, file_capacity;
    uint32_t reload_failures;
};

kiln_shaders *kiln_shaders_create(kiln_gfx *gfx, kiln_resources *res, kiln_error *err) {
    kiln_shaders *s = calloc(1, sizeof *s);
    if (!s) {
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "out of memory creating kiln_shaders");
        return NULL;
    }
    s->gfx = gfx;
    s->res = res;
    return s;
}

void kiln_shaders_destroy(kiln_shaders *s) {
    if (!s) return;
    free(s->files);
    free(s);
}

uint32_t kiln_shaders_reload_failures(const kiln_shaders *s) { return s->reload_failures; }

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

WGPUShaderModule kiln_shaders_compile(kiln_shaders *s, const char *path, const char *source, kiln_shader_report *report,
                                      kiln_error *err) {
    kiln_shader_report local;
    if (!report) report = &local;
    *report = (kiln_shader_report){0};
    snprintf(report->path, sizeof report->path, "%s", path ? path : "<wgsl>");

    WGPUShaderSourceWGSL wgsl = {.chain = {.sType = WGPUSType_ShaderSourceWGSL}, .code = kiln_sv(source)};
    WGPUShaderModuleDescriptor d = {.nextInChain = &wgsl.chain, .label = kiln_sv(report->path)};
    kiln_gfx_push_scope(s->gfx);
    WGPUShaderModule module = wgpuDeviceCreateShaderModule(s->gfx->device, &d);
    kiln_gfx_scope_result scope;
    kiln_error scope_err = {0};
    bool popped = kiln_gfx_pop_scope(s->gfx, &scope, &scope_err);

    if (module) {
        info_request req = {.report = report};
        WGPUCompilationInfoCallbackInfo cb = {.mode = WGPUCallbackMode_WaitAnyOnly, .callback = on_compilation_info,
                                              .userdata1 = &req};
        WGPUFuture f = wgpuShaderModuleGetCompilationInfo(module, cb);
        kiln_gfx_await(s->gfx, f, KILN_GFX_DEFAULT_TIMEOUT_NS, "shader compilation info", NULL);
    }
    bool failed = !popped || scope.failed || !module || report_has_error(report);
    if (!failed) return module;

    if (report->count == 0) {
        /* No located message: keep the scope's text at line 0 so the error still says why. */
        report->count = 1;
        report->messages[0] = (kiln_shader_message){.is_error = true};
        const char *why = popped ? (scope.failed ? scope.message : "shader module creation failed") : scope_err.message;
        size_t n = strlen(why);
        if (n >= sizeof report->messages[0].text) n = sizeof report->messages[0].text - 1;
        memcpy(report->messages[0].text, why, n);
        report->messages[0].text[n] = '\0';
    }
    char first[sizeof err->message];
    kiln_shader_report_format(report, 0, first, sizeof first);
    kiln_error_set(err, KILN_ERR_SHADER, "%s", first);
    if (module) wgpuShaderModuleRelease(module);
    return NULL;
}

static WGPUShaderModule compile_file(kiln_shaders *s, const char *path, kiln_shader_report *report, kiln_error *err) {
    char *source;
    size_t size;
    if (!kiln_read_file(path, &source, &size, err)) return NULL;
    WGPUShaderModule m = kiln_shaders_compile(s, path, source, report, err);
    free(source);
    return m;
}

kiln_shader kiln_shaders_load(kiln_shaders *s, const char *path, kiln_shader_report *report, kiln_error *err) {
    if (strlen(path) >= sizeof s->files[0].path) {
        kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "shader path too long: %s", path);
        return (kiln_shader){0};
    }
    struct stat st;
    if (stat(path, &st) != 0) {
        kiln_error_set(err, KILN_ERR_IO, "%s: %s", path, strerror(errno));
        return (kiln_shader){0};
    }
    shader_file *grown = kiln_array_reserve(s->files, &s->file_capacity, s->file_count + 1, sizeof *s->files);
    if (!grown) {
        kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "out of memory registering %s", path);
        return (kiln_shader){0};
    }
    s->files = grown;
    WGPUShaderModule module = compile_file(s, path, report, err);
    if (!module) return (kiln_shader){0};
    kiln_shader h = kiln_gfx_adopt_shader(s->res, module, path, err);
    if (!h.id) return h;
    shader_file *f = &s->files[s->file_count++];
    snprintf(f->path, sizeof f->path, "%s", path);
    f->mtime = st.st_mtim;
    f->size = st.st_size;
    f->handle = h;
    return h;
}

uint32_t kiln_shaders_check_for_changes(kiln_shaders *s, kiln_shader_reload *results, uint32_t max) {
    uint32_t changed = 0;
    for (uint32_t i = 0; i < s->file_count; i++) {
        shader_file *f = &s->files[i];
        struct stat st;
        if (stat(f->path, &st) != 0) continue; /* mid-save or removed: try again next time */
        if (st.st_mtim.tv_sec == f->mtime.tv_sec && st.st_mtim.tv_nsec == f->mtime.tv_nsec && st.st_size == f->size)
            continue;
        f->mtime = st.st_mtim;
        f->size = st.st_size;
        kiln_error err = {0};
        WGPUShaderModule module = compile_file(s, f->path, NULL, &err);
        bool ok = module && kiln_gfx_replace_shader(s->res, f->handle, module, &err);
        if (ok) {
            kiln_log_add(&s->gfx->diagnostics, KILN_LOG_INFO, "gfx.shaders", "reloaded %s", f->path);
        } else {
            s->reload_failures++;
            kiln_log_add(&s->gfx->diagnostics, KILN_LOG_ERROR, "gfx.shaders", "reload failed, keeping last good module: %s",
                         err.message);
        }
        if (changed < max && results) {
            results[changed] = (kiln_shader_reload){.shader = f->handle, .success = ok};
            snprintf(results[changed].path, sizeof results[changed].path, "%s", f->path);
        }
        changed++;
    }
    return changed;
}
