/* Errors: a class code plus a message that names the input at fault.
 *
 * A function that can fail returns bool and takes an optional `kiln_error *err` as its last
 * argument. The caller owns the kiln_error (usually on the stack); passing NULL means "I only
 * care whether it worked". Nothing in kiln aborts on bad input. */
#ifndef KILN_CORE_ERROR_H
#define KILN_CORE_ERROR_H

#include <stdarg.h>
#include <stdbool.h>

/* Generic classes of failure. The message says what exactly went wrong; the code lets a caller
 * branch (retry on BUSY, rebuild on DEVICE_LOST) without parsing text. */
typedef enum kiln_error_code {
    KILN_ERR_NONE = 0,          /* no error */
    KILN_ERR_INVALID_ARGUMENT,
    KILN_ERR_INVALID_HANDLE,
    KILN_ERR_OUT_OF_MEMORY,
    KILN_ERR_IO,
    KILN_ERR_FORMAT,
    KILN_ERR_GPU,
    KILN_ERR_TIMEOUT,
    KILN_ERR_DEVICE_LOST,
    KILN_ERR_SHADER,
    KILN_ERR_PIPELINE,
    KILN_ERR_CAPACITY,
    KILN_ERR_BUSY,
} kiln_error_code;

/* A failure report: filled by the function that failed, owned by the caller. */
typedef struct kiln_error {
    int code;          /* a kiln_error_code */
    char message[512]; /* always NUL-terminated; long messages are truncated */
} kiln_error;

/* Fills err (when not NULL) with code and a printf-formatted message; always returns false so
 * callers can `return kiln_error_set(...)`. */
bool kiln_error_set(kiln_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The va_list form of kiln_error_set, for wrappers that add their own context. */
bool kiln_error_vset(kiln_error *err, int code, const char *fmt, va_list args)
    __attribute__((format(printf, 3, 0)));

/* Resets err (when not NULL) to KILN_ERR_NONE with an empty message. */
void kiln_error_clear(kiln_error *err);

/* A short lower-case name for a code ("invalid argument", "device lost"); "unknown" otherwise. */
const char *kiln_error_code_name(int code);

#endif
