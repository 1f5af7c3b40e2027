/* czk — error descriptions. */
#include "czk/err.h"

#include <stdarg.h>
#include <stdio.h>

czk_err czk_err_msg(char *msg, size_t msglen, czk_err e, const char *fmt, ...) {
    if (msg && msglen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, msglen, fmt, ap);
        va_end(ap);
    }
    return e;
}

const char *czk_err_str(czk_err e) {
    switch (e) {
    case CZK_OK: return "ok";
    case CZK_ERR_INVALID_ARGUMENT: return "invalid argument";
    case CZK_ERR_NO_MEMORY: return "out of memory";
    case CZK_ERR_IO: return "input/output error";
    case CZK_ERR_BAD_LENGTH: return "encoding has the wrong length";
    case CZK_ERR_NOT_CANONICAL: return "field element is not below its modulus";
    case CZK_ERR_COMPRESSION_FLAG: return "compression flag does not match the encoding";
    case CZK_ERR_INFINITY_NOT_ZERO: return "point at infinity with non-zero bits";
    case CZK_ERR_SORT_FLAG: return "sort flag set on an uncompressed or infinity encoding";
    case CZK_ERR_NOT_ON_CURVE: return "point is not on the curve";
    case CZK_ERR_NOT_IN_SUBGROUP: return "point is not in the prime-order subgroup";
    case CZK_ERR_FORMAT: return "malformed or truncated data";
    case CZK_ERR_MISMATCH: return "inputs belong to different circuits";
    case CZK_ERR_UNSATISFIED: return "the witness does not satisfy the constraints";
    case CZK_ERR_SYNTHESIS: return "circuit synthesis failed";
    case CZK_ERR_PROOF_INVALID: return "the proof is invalid";
    case CZK_ERR_UNSUPPORTED: return "not supported";
    case CZK_ERR_CANCELLED: return "cancelled";
    case CZK_ERR_TIMEOUT: return "timed out";
    case CZK_ERR_NOT_FOUND: return "not found";
    case CZK_ERR_BUSY: return "busy";
    case CZK_ERR_SHUTDOWN: return "shutting down";
    case CZK_ERR_PRECONDITION: return "a precondition is not met";
    case CZK_ERR_NO_SPACE: return "no space left";
    case CZK_ERR__COUNT: break;
    }
    return "unknown error";
}
