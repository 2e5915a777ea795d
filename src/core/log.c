/* The log ring: records live in one array allocated at init; `start` is the oldest and the
 * ring wraps, so adding is a formatted copy into the next slot and never allocates. */
#include <kiln/core/log.h>
#include <kiln/core/utf8.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool kiln_log_init(kiln_log *log, uint32_t capacity) {
    if (!log) return false;
    memset(log, 0, sizeof *log);
    if (capacity == 0) return false;
    log->records = calloc(capacity, sizeof *log->records);
    if (!log->records) return false;
    log->capacity = capacity;
    return true;
}

void kiln_log_free(kiln_log *log) {
    if (!log) return;
    free(log->records);
    memset(log, 0, sizeof *log);
}

static uint32_t slot_of(const kiln_log *log, uint32_t i) {
    /* start < capacity and i < capacity, so the sum fits in 64 bits without wrapping. */
    return (uint32_t)(((uint64_t)log->start + i) % log->capacity);
}

void kiln_log_vadd(kiln_log *log, kiln_log_level level, const char *category, const char *fmt,
                   va_list args) {
    if (!log || !log->records || log->capacity == 0) return;

    kiln_log_record *r;
    if (log->count < log->capacity) {
        r = &log->records[slot_of(log, log->count)];
        log->count++;
    } else {
        /* Full: the oldest slot becomes the newest. */
        r = &log->records[log->start];
        log->start = slot_of(log, 1);
        log->dropped++;
    }

    r->level = level;
    kiln_utf8_copy(r->category, sizeof r->category, category);
    r->message[0] = '\0';
    kiln_utf8_vformat(r->message, sizeof r->message, fmt, args);
}

void kiln_log_add(kiln_log *log, kiln_log_level level, const char *category, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    kiln_log_vadd(log, level, category, fmt, args);
    va_end(args);
}

uint32_t kiln_log_count(const kiln_log *log) {
    return log ? log->count : 0;
}

const kiln_log_record *kiln_log_at(const kiln_log *log, uint32_t i) {
    if (!log || i >= log->count) return NULL;
    return &log->records[slot_of(log, i)];
}

bool kiln_log_take(kiln_log *log, kiln_log_record *out) {
    if (!log || log->count == 0) return false;
    if (out) *out = log->records[log->start];
    log->start = slot_of(log, 1);
    log->count--;
    return true;
}

void kiln_log_clear(kiln_log *log) {
    if (!log) return;
    log->start = 0;
    log->count = 0;
}

uint32_t kiln_log_count_category(const kiln_log *log, const char *category) {
    if (!log || !category) return 0;
    uint32_t n = 0;
    for (uint32_t i = 0; i < log->count; i++)
        if (strcmp(log->records[slot_of(log, i)].category, category) == 0) n++;
    return n;
}

const char *kiln_log_level_name(kiln_log_level level) {
    switch (level) {
    case KILN_LOG_DEBUG: return "debug";
    case KILN_LOG_INFO: return "info";
    case KILN_LOG_WARN: return "warn";
    case KILN_LOG_ERROR: return "error";
    }
    return "unknown";
}
