/* Shared set-up for GPU tests: a headless device and resource pools, and a teardown that fails
 * the test when Dawn reported any uncaptured error. */
#ifndef KILN_GFX_FIXTURE_H
#define KILN_GFX_FIXTURE_H

#include <dlfcn.h>

#include <kiln/gfx.h>

#include "test.h"

#ifdef __SANITIZE_ADDRESS__
/* The Vulkan loader unloads the driver when the last instance goes; LeakSanitizer then finds the
 * driver's global allocations unreachable and cannot even name the module. Loading lavapipe once
 * more with RTLD_NODELETE keeps it mapped, so leak reports speak only of real leaks. A machine
 * without lavapipe simply skips this. */
__attribute__((constructor)) static void fixture_pin_vulkan_driver(void) {
    const char *name = getenv("KILN_PIN_VULKAN_DRIVER");
    dlopen(name && *name ? name : "libvulkan_lvp.so", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
}
#endif

typedef struct gfx_fixture {
    kiln_gfx *gfx;
    kiln_resources *res;
} gfx_fixture;

/* Prints every diagnostic record at error level, so a failing test shows what Dawn said. */
static inline void fixture_print_errors(kiln_gfx *gfx) {
    for (uint32_t i = 0; i < kiln_log_count(&gfx->diagnostics); i++) {
        const kiln_log_record *r = kiln_log_at(&gfx->diagnostics, i);
        if (r->level >= KILN_LOG_WARN) fprintf(stderr, "  [%s] %s: %s\n", kiln_log_level_name(r->level), r->category, r->message);
    }
}

static inline bool fixture_open(gfx_fixture *f) {
    kiln_error err = {0};
    f->gfx = kiln_gfx_create(&(kiln_gfx_desc){.label = "test device"}, &err);
    if (!f->gfx) {
        fprintf(stderr, "kiln_gfx_create: %s\n", err.message);
        return false;
    }
    f->res = kiln_resources_create(f->gfx, 256, &err);
    if (!f->res) fprintf(stderr, "kiln_resources_create: %s\n", err.message);
    return f->res != NULL;
}

/* Returns the number of uncaptured errors seen over the fixture's life. */
static inline uint64_t fixture_close(gfx_fixture *f) {
    if (!f->gfx) return 0;
    kiln_gfx_pump(f->gfx, true);
    kiln_resources_destroy(f->res);
    kiln_gfx_pump(f->gfx, true);
    uint64_t errors = f->gfx->error_count;
    if (errors) fixture_print_errors(f->gfx);
    kiln_gfx_destroy(f->gfx);
    *f = (gfx_fixture){0};
    return errors;
}

#define FIXTURE_OPEN(f) CHECK_MSG(fixture_open(&(f)), "no GPU device")
#define FIXTURE_CLOSE_CLEAN(f) CHECK_EQ_INT(fixture_close(&(f)), 0)

/* Builds a path for a scratch file of this test run. */
static inline void fixture_tmp_path(char *out, size_t size, const char *name) {
    const char *dir = getenv("KILN_TEST_TMP");
    snprintf(out, size, "%s/%s", dir && *dir ? dir : "/tmp", name);
}

#endif
