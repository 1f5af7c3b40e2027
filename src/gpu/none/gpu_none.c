/* czk — the GPU interface in a build without CUDA: no devices. */
#include <stdio.h>

#include "czk/gpu.h"

int czk_gpu_count(void) { return 0; }

czk_err czk_gpu_open(czk_gpu **out, int ordinal, size_t mem_cap_bytes, char *msg, size_t msglen) {
    (void)ordinal;
    (void)mem_cap_bytes;
    *out = NULL;
    if (msg && msglen) snprintf(msg, msglen, "this build of czk has no CUDA backend (nvcc was not found)");
    return CZK_ERR_UNSUPPORTED;
}

void czk_gpu_close(czk_gpu *g) { (void)g; }

const char *czk_gpu_describe(const czk_gpu *g) {
    (void)g;
    return "no GPU";
}

czk_err czk_gpu_ntt(czk_gpu *g, const czk_domain *d, czk_fr *a, czk_gpu_ntt_kind kind, char *msg, size_t msglen) {
    (void)g, (void)d, (void)a, (void)kind;
    if (msg && msglen) snprintf(msg, msglen, "no CUDA backend in this build");
    return CZK_ERR_UNSUPPORTED;
}

czk_err czk_gpu_poly_h(czk_gpu *g, const czk_domain *d, czk_fr *a, const czk_fr *b, const czk_fr *c, char *msg,
                       size_t msglen) {
    (void)g, (void)d, (void)a, (void)b, (void)c;
    if (msg && msglen) snprintf(msg, msglen, "no CUDA backend in this build");
    return CZK_ERR_UNSUPPORTED;
}

size_t czk_gpu_mem_used(const czk_gpu *g) {
    (void)g;
    return 0;
}

czk_err czk_gpu_mem_info(int ordinal, size_t *free_bytes, size_t *total_bytes, char *msg, size_t msglen) {
    (void)ordinal;
    if (free_bytes) *free_bytes = 0;
    if (total_bytes) *total_bytes = 0;
    if (msg && msglen) snprintf(msg, msglen, "no CUDA backend in this build");
    return CZK_ERR_UNSUPPORTED;
}

czk_err czk_gpu_vec_alloc(czk_gpu *g, size_t n, czk_gpu_vec **out, char *msg, size_t msglen) {
    (void)g, (void)n;
    *out = NULL;
    if (msg && msglen) snprintf(msg, msglen, "no CUDA backend in this build");
    return CZK_ERR_UNSUPPORTED;
}

void czk_gpu_vec_free(czk_gpu_vec *v) { (void)v; }

czk_err czk_gpu_vec_upload(czk_gpu_vec *v, const czk_fr *src, char *msg, size_t msglen) {
    (void)v, (void)src;
    if (msg && msglen) snprintf(msg, msglen, "no CUDA backend in this build");
    return CZK_ERR_UNSUPPORTED;
}

czk_err czk_gpu_vec_download(const czk_gpu_vec *v, czk_fr *dst, char *msg, size_t msglen) {
    (void)v, (void)dst;
    if (msg && msglen) snprintf(msg, msglen, "no CUDA backend in this build");
    return CZK_ERR_UNSUPPORTED;
}

czk_err czk_gpu_ntt_vec(czk_gpu *g, const czk_domain *d, czk_gpu_vec *v, czk_gpu_ntt_kind kind, char *msg,
                        size_t msglen) {
    (void)g, (void)d, (void)v, (void)kind;
    if (msg && msglen) snprintf(msg, msglen, "no CUDA backend in this build");
    return CZK_ERR_UNSUPPORTED;
}

czk_err czk_gpu_poly_h_vec(czk_gpu *g, const czk_domain *d, czk_gpu_vec *a, czk_gpu_vec *b, czk_gpu_vec *c,
                           char *msg, size_t msglen) {
    (void)g, (void)d, (void)a, (void)b, (void)c;
    if (msg && msglen) snprintf(msg, msglen, "no CUDA backend in this build");
    return CZK_ERR_UNSUPPORTED;
}

czk_err czk_gpu_msm_g1(czk_gpu *g, czk_g1 *r, const czk_g1_affine *bases, const czk_fr *scalars, size_t n,
                       const czk_bitmap *density, char *msg, size_t msglen) {
    (void)g, (void)r, (void)bases, (void)scalars, (void)n, (void)density;
    if (msg && msglen) snprintf(msg, msglen, "no CUDA backend in this build");
    return CZK_ERR_UNSUPPORTED;
}

czk_err czk_gpu_g1_bases_upload(czk_gpu *g, const czk_g1_affine *bases, size_t count, czk_gpu_g1_bases **out,
                                char *msg, size_t msglen) {
    (void)g, (void)bases, (void)count;
    *out = NULL;
    if (msg && msglen) snprintf(msg, msglen, "no CUDA backend in this build");
    return CZK_ERR_UNSUPPORTED;
}

void czk_gpu_g1_bases_free(czk_gpu_g1_bases *b) { (void)b; }

czk_err czk_gpu_msm_g1_resident(czk_gpu *g, czk_g1 *r, const czk_gpu_g1_bases *bases, const czk_fr *scalars,
                                size_t n, const czk_bitmap *density, char *msg, size_t msglen) {
    (void)g, (void)r, (void)bases, (void)scalars, (void)n, (void)density;
    if (msg && msglen) snprintf(msg, msglen, "no CUDA backend in this build");
    return CZK_ERR_UNSUPPORTED;
}

czk_err czk_gpu_msm_g2(czk_gpu *g, czk_g2 *r, const czk_g2_affine *bases, const czk_fr *scalars, size_t n,
                       const czk_bitmap *density, char *msg, size_t msglen) {
    (void)g, (void)r, (void)bases, (void)scalars, (void)n, (void)density;
    if (msg && msglen) snprintf(msg, msglen, "no CUDA backend in this build");
    return CZK_ERR_UNSUPPORTED;
}

czk_err czk_gpu_g2_bases_upload(czk_gpu *g, const czk_g2_affine *bases, size_t count, czk_gpu_g2_bases **out,
                                char *msg, size_t msglen) {
    (void)g, (void)bases, (void)count;
    *out = NULL;
    if (msg && msglen) snprintf(msg, msglen, "no CUDA backend in this build");
    return CZK_ERR_UNSUPPORTED;
}

void czk_gpu_g2_bases_free(czk_gpu_g2_bases *b) { (void)b; }

czk_err czk_gpu_msm_g2_resident(czk_gpu *g, czk_g2 *r, const czk_gpu_g2_bases *bases, const czk_fr *scalars,
                                size_t n, const czk_bitmap *density, char *msg, size_t msglen) {
    (void)g, (void)r, (void)bases, (void)scalars, (void)n, (void)density;
    if (msg && msglen) snprintf(msg, msglen, "no CUDA backend in this build");
    return CZK_ERR_UNSUPPORTED;
}
