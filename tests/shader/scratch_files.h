/* Scratch WGSL files for shader-layer tests: a fresh directory under $KILN_TEST_TMP, text written
 * into it, and rewrites that move the modification time so a change within one clock tick is
 * still seen. */
#ifndef KILN_TEST_SCRATCH_FILES_H
#define KILN_TEST_SCRATCH_FILES_H

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>

#include "gfx_fixture.h"

static inline bool scratch_write(const char *dir, const char *name, const char *text) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    fputs(text, f);
    return fclose(f) == 0;
}

/* $KILN_TEST_TMP/<group>/<name>, created (emptied of nothing: names are unique per test). */
static inline bool scratch_dir(char *out, size_t size, const char *group, const char *name) {
    char base[512];
    fixture_tmp_path(base, sizeof base, group);
    if (mkdir(base, 0755) != 0 && errno != EEXIST) return false;
    int n = snprintf(out, size, "%s/%s", base, name);
    return n > 0 && (size_t)n < size && (mkdir(out, 0755) == 0 || errno == EEXIST);
}

static inline bool scratch_rewrite(const char *dir, const char *name, const char *text, int seconds) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    struct stat st;
    if (stat(path, &st) != 0 || !scratch_write(dir, name, text)) return false;
    struct timespec times[2] = {st.st_atim, st.st_mtim};
    times[1].tv_sec += seconds;
    return utimensat(AT_FDCWD, path, times, 0) == 0;
}

#endif
