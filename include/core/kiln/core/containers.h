/* Small growable arrays and whole-file reads: the two helpers every layer kept writing again. */
#ifndef KILN_CORE_CONTAINERS_H
#define KILN_CORE_CONTAINERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <kiln/core/error.h>

/* Returns `items` grown (each item_size bytes) to hold at least `need` items, doubling from 8 and
 * updating *capacity; returns `items` unchanged when it is already large enough, and NULL when
 * memory is short (`items` is then left as it was, still owned by the caller). */
void *kiln_array_reserve(void *items, uint32_t *capacity, uint32_t need, size_t item_size);

/* Reads a whole file into a new malloc'd buffer the caller frees, NUL-terminated one byte past
 * *size so text can be used as a C string. Errors name the path and the reason. */
bool kiln_read_file(const char *path, char **bytes, size_t *size, kiln_error *err);

#endif
