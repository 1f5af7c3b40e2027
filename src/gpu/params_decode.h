/* czk — the reasons the device decoder of params points (params_decode.cuh)
 * gives, shared by the kernels, params_load.c and the emulated test. */
#ifndef CZK_GPU_PARAMS_DECODE_H
#define CZK_GPU_PARAMS_DECODE_H

/* Why a point was refused (the low byte of a device report, 0: none). */
enum {
    CZK_GPU_PARAMS_BAD_COMPRESSION = 1, /* 0x80 set on an uncompressed encoding */
    CZK_GPU_PARAMS_BAD_INFINITY_NOT_ZERO, /* 0x40 set with other bits */
    CZK_GPU_PARAMS_BAD_SORT,            /* 0x20 set */
    CZK_GPU_PARAMS_BAD_INFINITY,        /* the point at infinity: bellperson rejects it in a query */
    CZK_GPU_PARAMS_BAD_NOT_CANONICAL,   /* a coordinate >= p */
    CZK_GPU_PARAMS_BAD_NOT_ON_CURVE     /* y^2 != x^3 + b (only when checked) */
};

#endif
