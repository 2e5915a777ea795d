/* The classed error fill of the program runtime (internal to src/program).
 *
 * Every refusal of program.h is a struct of the same shape, `{<enum> cls; char message[N];}`
 * (kiln_program_error, kiln_geometry_error, kiln_instances_error, kiln_draw_set_error), differing
 * only in the enum and the buffer size. The macros below fill any of them, so each module states
 * its refusals in one line instead of keeping its own formatter. err may be NULL (the caller only
 * wants to know whether it worked); the message is cut at a UTF-8 character boundary when long. */
#ifndef KILN_PROGRAM_REFUSE_H
#define KILN_PROGRAM_REFUSE_H

#include <stdbool.h>
#include <stddef.h>

/* Formats into message (size > 0) through kiln_utf8_vformat; always returns false. */
bool program_refuse_format(char *message, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Sets err->cls to `value` and err->message from the printf arguments; yields false, so a
 * function returning bool can `return REFUSE(err, KILN_..., "...", ...)`. */
#define REFUSE(err, value, ...)                                                                                \
    ((err) ? ((err)->cls = (value), program_refuse_format((err)->message, sizeof(err)->message, __VA_ARGS__))  \
           : false)

/* The same fill, yielding the class itself, for a check that returns its class. */
#define REFUSE_CLASS(err, value, ...) (REFUSE(err, value, __VA_ARGS__), (value))

#endif
