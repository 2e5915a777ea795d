/* Included once by each tool's main file. In a sanitizer build (where tests run the tools), keep
 * the Vulkan driver mapped after the device goes, as tests/gfx/gfx_fixture.h does for the tests:
 * otherwise the loader unloads it at exit and LeakSanitizer reports the driver's global
 * allocations as unattributable leaks, failing every run. KILN_PIN_VULKAN_DRIVER names another
 * driver than lavapipe. A normal build pins nothing. */
#ifndef KILN_TOOLS_VULKAN_DRIVER_PIN_H
#define KILN_TOOLS_VULKAN_DRIVER_PIN_H

#ifdef __SANITIZE_ADDRESS__
#include <dlfcn.h>
#include <stdlib.h>

__attribute__((constructor)) static void pin_vulkan_driver(void) {
    const char *name = getenv("KILN_PIN_VULKAN_DRIVER");
    dlopen(name && *name ? name : "libvulkan_lvp.so", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
}
#endif

#endif
