/* Every WGSL program of the renderer assembles from its includes (the source files on disk, with
 * the generated kiln_enums.wgsl the renderer adds) and compiles on the device. */
#include <kiln/shader/library.h>

#include "gfx_fixture.h"
#include "render_wgsl_probe.h"

static const char *PROGRAMS[] = {"forward.wgsl", "sky.wgsl", "post.wgsl", "clusters.wgsl"};

TEST(every_renderer_program_compiles) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_wgsl_source source = render_wgsl_directory(KILN_RENDER_SHADER_DIR);
    kiln_shader_library *lib = kiln_shader_library_create(f.gfx, f.res, &source, &err);
    CHECK_MSG(lib, "%s", err.message);
    int compiled = 0;
    for (size_t i = 0; i < sizeof PROGRAMS / sizeof PROGRAMS[0]; i++) {
        kiln_shader s = kiln_shader_library_load(lib, PROGRAMS[i], &err);
        if (!s.id) fprintf(stderr, "%s\n", err.message);
        compiled += s.id != 0;
    }
    kiln_shader_library_destroy(lib);
    FIXTURE_CLOSE_CLEAN(f);
    CHECK_EQ_INT(compiled, (int)(sizeof PROGRAMS / sizeof PROGRAMS[0]));
}

TEST_MAIN(T(every_renderer_program_compiles))
