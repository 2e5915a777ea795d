/* Error reporting: formatting a message into the caller's kiln_error. */
#include <kiln/core/error.h>
#include <kiln/core/utf8.h>

#include <stdio.h>

bool kiln_error_vset(kiln_error *err, int code, const char *fmt, va_list args) {
    if (!err) return false;
    err->code = code;
    err->message[0] = '\0';
    kiln_utf8_vformat(err->message, sizeof err->message, fmt, args);
    return false;
}

bool kiln_error_set(kiln_error *err, int code, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    kiln_error_vset(err, code, fmt, args);
    va_end(args);
    return false;
}

void kiln_error_clear(kiln_error *err) {
    if (!err) return;
    err->code = KILN_ERR_NONE;
    err->message[0] = '\0';
}

const char *kiln_error_code_name(int code) {
    switch (code) {
    case KILN_ERR_NONE: return "none";
    case KILN_ERR_INVALID_ARGUMENT: return "invalid argument";
    case KILN_ERR_INVALID_HANDLE: return "invalid handle";
    case KILN_ERR_OUT_OF_MEMORY: return "out of memory";
    case KILN_ERR_IO: return "i/o error";
    case KILN_ERR_FORMAT: return "bad format";
    case KILN_ERR_GPU: return "gpu error";
    case KILN_ERR_TIMEOUT: return "timeout";
    case KILN_ERR_DEVICE_LOST: return "device lost";
    case KILN_ERR_SHADER: return "shader error";
    case KILN_ERR_PIPELINE: return "pipeline error";
    case KILN_ERR_CAPACITY: return "capacity exceeded";
    case KILN_ERR_BUSY: return "busy";
    default: return "unknown";
    }
}
