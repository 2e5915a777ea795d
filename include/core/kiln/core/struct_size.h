/* kiln/core/struct_size: a caller's size of a public struct, for the structs that grow between
 * releases (docs/adr/003-public-struct-abi.md).
 *
 * A public struct only ever grows at its end and its zero means the default, so a caller built
 * against an older header hands the library a shorter struct: the library reads it as far as the
 * caller's size goes and takes the rest as zero, and writes the caller no further than that. */
#ifndef KILN_CORE_STRUCT_SIZE_H
#define KILN_CORE_STRUCT_SIZE_H

#include <stddef.h>

#include <kiln/core/error.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Whether `caller` bytes is a size of `type` this library reads and writes: from the first
 * release's size to the library's own. Refused otherwise, the message starting with `owner`
 * ("renderer: the caller's kiln_render_settings is 160 bytes, this library's 144: built against
 * a newer kiln"; "...is 40 bytes, smaller than the first release's 88"). */
bool kiln_struct_size_check(const char *owner, const char *type, size_t caller, size_t first_release,
                            size_t library, kiln_error *err);
/* The caller's struct `src` of `caller` bytes into the library's `dst` of `library` bytes: the
 * caller's bytes, then zeros (the defaults). */
void kiln_struct_read(void *dst, size_t library, const void *src, size_t caller);
/* The library's struct `src` into the caller's `dst`, no further than the caller's size. */
void kiln_struct_write(void *dst, size_t caller, const void *src, size_t library);

#ifdef __cplusplus
}
#endif

#endif
