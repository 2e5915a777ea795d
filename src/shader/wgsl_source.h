/* Where WGSL file names resolve: a kiln_wgsl_source (a directory or an embedded set), then kiln's
 * built-in set. Shared by the assembler (which reads) and the library (which checks sources). */
#ifndef KILN_WGSL_SOURCE_H
#define KILN_WGSL_SOURCE_H

#include <stdint.h>
#include <sys/types.h>

#include <kiln/shader/library.h>

/* The identity of a file: two names for one file on disk (`a.wgsl`, `./a.wgsl`, a symlink) are
 * the same include, so it is spliced once. An embedded file is identified by its text. */
typedef struct wgsl_file_identity {
    dev_t device;
    ino_t inode;
    const char *embedded;        /* NULL for a file on disk */
} wgsl_file_identity;

/* A name resolved to its text. */
typedef struct wgsl_found_file {
    wgsl_file_identity identity;
    char *path;                  /* directory/name for a file on disk (owned); NULL when embedded */
    char *text;                  /* owned, NUL-terminated */
    size_t length;
    int64_t mtime_ns;            /* 0 when embedded */
} wgsl_found_file;

/* Refuses a source that names both a directory and an embedded set, or has an unnamed entry. */
bool wgsl_source_check(const kiln_wgsl_source *source, kiln_error *err);
/* Resolves `name`: 0 with *found filled (the caller frees path and text), or the errno value
 * saying why not (ENOENT when neither the source nor the built-ins have it). */
int wgsl_source_find(const kiln_wgsl_source *source, const char *name, wgsl_found_file *found);
/* Why wgsl_source_find failed, as a message: strerror's, except for what only a source refuses
 * (a path that is not a regular file, a file over KILN_WGSL_MAX_FILE_BYTES). */
const char *wgsl_source_error_text(int error_number);
bool wgsl_same_file(wgsl_file_identity a, wgsl_file_identity b);
/* directory/name, or name alone when directory is "" (malloc'd; NULL when out of memory). */
char *wgsl_join_path(const char *directory, const char *name);
/* Compiles a->text (shader_compile.c); on failure err holds every message mapped to its own
 * file, one per line, errors first (kiln_gfx_compile_shader orders them so). */
WGPUShaderModule wgsl_compile_assembled(kiln_gfx *gfx, const kiln_assembled_wgsl *a, kiln_error *err);

#endif
