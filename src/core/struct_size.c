/* A caller's size of a public struct: the check and the two copies every sized entry point makes. */
#include <kiln/core/struct_size.h>

#include <string.h>

bool kiln_struct_size_check(const char *owner, const char *type, size_t caller, size_t first_release,
                            size_t library, kiln_error *err) {
    if (caller > library)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "%s: the caller's %s is %zu bytes, this library's %zu: built against a newer kiln", owner,
                              type, caller, library);
    if (caller < first_release)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "%s: the caller's %s is %zu bytes, smaller than the first release's %zu", owner, type,
                              caller, first_release);
    return true;
}

void kiln_struct_read(void *dst, size_t library, const void *src, size_t caller) {
    size_t n = caller < library ? caller : library;
    memcpy(dst, src, n);
    memset((char *)dst + n, 0, library - n);
}

void kiln_struct_write(void *dst, size_t caller, const void *src, size_t library) {
    memcpy(dst, src, caller < library ? caller : library);
}
