/* czk — error codes shared by every module. */
#ifndef CZK_ERR_H
#define CZK_ERR_H

#include <stddef.h>

typedef enum {
    CZK_OK = 0,
    CZK_ERR_INVALID_ARGUMENT,   /* a parameter is out of its documented range */
    CZK_ERR_NO_MEMORY,          /* an allocation failed */
    CZK_ERR_IO,                 /* a read or write failed */
    /* decoding of field elements and curve points */
    CZK_ERR_BAD_LENGTH,         /* the input has the wrong number of bytes */
    CZK_ERR_NOT_CANONICAL,      /* a field element is >= its modulus */
    CZK_ERR_COMPRESSION_FLAG,   /* the 0x80 flag does not match the encoding's length */
    CZK_ERR_INFINITY_NOT_ZERO,  /* infinity flag set but other bits are not all zero */
    CZK_ERR_SORT_FLAG,          /* 0x20 flag on an uncompressed or infinity encoding */
    CZK_ERR_NOT_ON_CURVE,       /* coordinates do not satisfy the curve equation */
    CZK_ERR_NOT_IN_SUBGROUP,    /* the point is not in the prime-order subgroup */
    /* files */
    CZK_ERR_FORMAT,             /* a file or buffer is malformed, truncated or of another kind */
    CZK_ERR_MISMATCH,           /* files or inputs that belong to different circuits */
    /* constraint systems and proofs */
    CZK_ERR_UNSATISFIED,        /* a witness does not satisfy its constraints */
    CZK_ERR_SYNTHESIS,          /* a circuit failed while synthesizing */
    CZK_ERR_PROOF_INVALID,      /* a proof does not verify */
    CZK_ERR_UNSUPPORTED,        /* valid, but beyond what this build supports */
    /* engine */
    CZK_ERR_CANCELLED,          /* the work was cancelled */
    CZK_ERR_TIMEOUT,            /* a wait ran out of time */
    CZK_ERR_NOT_FOUND,          /* no such job or circuit */
    CZK_ERR_BUSY,               /* a queue limit was reached, or the thing is in use */
    CZK_ERR_SHUTDOWN,           /* the engine is shutting down */
    CZK_ERR_PRECONDITION,       /* something the request needs is not there (a parameter file) */
    CZK_ERR_NO_SPACE,           /* a file system is full (or a quota, or a configured disk limit, is reached) */
    CZK_ERR__COUNT
} czk_err;

/* A short, stable English description of an error code ("ok" for CZK_OK). */
const char *czk_err_str(czk_err e);

/* Writes printf(fmt, …) to msg (nothing when msg is NULL or msglen 0) and
 * returns e: `return czk_err_msg(msg, msglen, CZK_ERR_FORMAT, "…", …);`. */
czk_err czk_err_msg(char *msg, size_t msglen, czk_err e, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif
