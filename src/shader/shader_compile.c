/* Compiling an assembled program, with every message Dawn gives mapped back to the file and line
 * that holds it: what the library does for each program it loads and reloads, and what
 * kiln_wgsl_compile does once for a fixed program (a tool's own shader over the built-ins). */
#include <string.h>

#include "wgsl_source.h"

WGPUShaderModule wgsl_compile_assembled(kiln_gfx *gfx, const kiln_assembled_wgsl *a, kiln_error *err) {
    kiln_shader_report report;
    kiln_error compile_err = {0};
    WGPUShaderModule module = kiln_gfx_compile_shader(gfx, a->files[0].name, a->text, &report, &compile_err);
    if (module) return module;
    char message[sizeof err->message];
    size_t used = 0;
    message[0] = '\0';
    for (uint32_t i = 0; i < report.count && used + 1 < sizeof message; i++) {
        if (i) message[used++] = '\n';
        kiln_assembled_wgsl_format_message(a, &report, i, message + used, sizeof message - used);
        used += strlen(message + used);
    }
    if (report.count == 0) kiln_assembled_wgsl_format_message(a, &report, 0, message, sizeof message);
    kiln_error_set(err, KILN_ERR_SHADER, "%s", message);
    return NULL;
}

WGPUShaderModule kiln_wgsl_compile(kiln_gfx *gfx, const kiln_wgsl_source *source, const char *entry, kiln_error *err) {
    kiln_assembled_wgsl a;
    if (!kiln_wgsl_assemble(source, entry, &a, err)) return NULL;
    WGPUShaderModule module = wgsl_compile_assembled(gfx, &a, err);
    kiln_assembled_wgsl_free(&a);
    return module;
}
