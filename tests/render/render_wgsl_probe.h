/* The renderer's WGSL as the renderer assembles it, for tests: a directory of its files with the
 * generated kiln_enums.wgsl, and a probe program (one file of the test's, "probe.wgsl", that
 * #includes what it evaluates) over the embedded set. */
#ifndef KILN_TEST_RENDER_WGSL_PROBE_H
#define KILN_TEST_RENDER_WGSL_PROBE_H

#include <string.h>

#include "render/names.h"
#include "render/renderer_internal.h"

#define RENDER_WGSL_PROBE_FILES 64

/* The renderer's shaders as files in `directory`, with the generated file the renderer adds. */
static inline kiln_wgsl_source render_wgsl_directory(const char *directory) {
    return (kiln_wgsl_source){.directory = directory, .generated = renderer_enums_wgsl(), .generated_count = 1};
}

static inline WGPUShaderModule render_wgsl_probe_compile(kiln_gfx *gfx, const char *probe, kiln_error *err) {
    static kiln_wgsl_embedded_file files[RENDER_WGSL_PROBE_FILES];
    if (kiln_render_wgsl_count >= RENDER_WGSL_PROBE_FILES) {
        kiln_error_set(err, KILN_ERR_CAPACITY, "probe: %u renderer files, room for %d", kiln_render_wgsl_count,
                       RENDER_WGSL_PROBE_FILES - 1);
        return NULL;
    }
    memcpy(files, kiln_render_wgsl, kiln_render_wgsl_count * sizeof files[0]);
    files[kiln_render_wgsl_count] = (kiln_wgsl_embedded_file){"probe.wgsl", probe};
    kiln_wgsl_source source = {.files = files, .file_count = kiln_render_wgsl_count + 1,
                               .generated = renderer_enums_wgsl(), .generated_count = 1};
    return kiln_wgsl_compile(gfx, &source, "probe.wgsl", err);
}

#endif
