/* The log: a fixed-capacity ring of records that the engine writes and the application reads.
 *
 * Storage is allocated once by kiln_log_init; adding a record never allocates, so logging is safe
 * on the frame path. When the ring is full the oldest record is overwritten and `dropped` counts
 * it. Records are kept rather than printed so tests and tools can inspect what was reported
 * (`kiln_log_count_category(&log, "shader")`).
 *
 * Ownership: the caller owns the kiln_log struct; kiln_log_free releases its storage.
 * Not thread-safe: one writer at a time, or a lock around it. */
#ifndef KILN_CORE_LOG_H
#define KILN_CORE_LOG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

/* Severity of a record, in increasing order. */
typedef enum kiln_log_level {
    KILN_LOG_DEBUG, /* detail for diagnosing kiln itself */
    KILN_LOG_INFO,  /* normal operation worth noting */
    KILN_LOG_WARN,  /* something is off but work goes on */
    KILN_LOG_ERROR, /* an operation failed */
} kiln_log_level;

/* One log entry, stored by value (no pointers into other memory). */
typedef struct kiln_log_record {
    kiln_log_level level; /* severity */
    char category[32]; /* e.g. "gfx", "shader"; truncated to 31 bytes, at a character boundary */
    char message[512]; /* truncated to 511 bytes, at a character boundary (kiln/core/utf8.h) */
} kiln_log_record;

/* A ring of records; see the top of this file. Set up with kiln_log_init. */
typedef struct kiln_log {
    kiln_log_record *records; /* `capacity` slots */
    uint32_t capacity;        /* slots in records; 0 when init failed */
    uint32_t start;           /* slot of the oldest record */
    uint32_t count;           /* records held, <= capacity */
    uint64_t dropped;         /* records overwritten because the ring was full, since init */
} kiln_log;

/* Allocates room for `capacity` records (at least 1). False when capacity is 0 or memory is
 * short; the log is then left empty and safe to add to (adds are ignored) or free. */
bool kiln_log_init(kiln_log *log, uint32_t capacity);
/* Releases the records; the log is left empty (and may be freed again). */
void kiln_log_free(kiln_log *log);

/* Appends a record. A NULL category is stored as "", a NULL fmt as an empty message. */
void kiln_log_add(kiln_log *log, kiln_log_level level, const char *category, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The va_list form of kiln_log_add. */
void kiln_log_vadd(kiln_log *log, kiln_log_level level, const char *category, const char *fmt,
                   va_list args) __attribute__((format(printf, 4, 0)));

/* Records held now (at most capacity). */
uint32_t kiln_log_count(const kiln_log *log);
/* The i-th record held, 0 being the oldest; NULL past the end. The pointer is valid until the
 * next add, take or clear. */
const kiln_log_record *kiln_log_at(const kiln_log *log, uint32_t i);
/* Copies the oldest record to out (when not NULL) and removes it; false when empty. */
bool kiln_log_take(kiln_log *log, kiln_log_record *out);
/* Removes every record. `dropped` is a lifetime counter and is left as it is. */
void kiln_log_clear(kiln_log *log);
/* How many held records have exactly this category. */
uint32_t kiln_log_count_category(const kiln_log *log, const char *category);
/* "debug", "info", "warn", "error"; "unknown" for anything else. */
const char *kiln_log_level_name(kiln_log_level level);

#endif
