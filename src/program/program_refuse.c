/* The formatter behind REFUSE (program_refuse.h). */
#include "program_refuse.h"

#include <stdarg.h>

#include <kiln/core/utf8.h>

bool program_refuse_format(char *message, size_t size, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    kiln_utf8_vformat(message, size, fmt, args);
    va_end(args);
    return false;
}
