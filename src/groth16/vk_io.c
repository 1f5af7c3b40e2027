/* czk — bellperson's verifying key encoding (VerifyingKey::write/read). */
#include "czk/groth16_io.h"

#include <stdlib.h>
#include <string.h>

#include "czk/mem.h"
#include "io_internal.h"

#define G1U CZK_G1_UNCOMPRESSED_BYTES
#define G2U CZK_G2_UNCOMPRESSED_BYTES

/* The six fixed points in file order. */
typedef struct {
    const char *name;
    int g2;
    size_t offset;
} fixed_point;

static const fixed_point FIXED[6] = {
    {"alpha_g1", 0, 0},
    {"beta_g1", 0, G1U},
    {"beta_g2", 1, 2 * G1U},
    {"gamma_g2", 1, 2 * G1U + G2U},
    {"delta_g1", 0, 2 * G1U + 2 * G2U},
    {"delta_g2", 1, 3 * G1U + 2 * G2U},
};

static void *fixed_field(czk_vk *vk, int i) {
    switch (i) {
    case 0: return &vk->alpha_g1;
    case 1: return &vk->beta_g1;
    case 2: return &vk->beta_g2;
    case 3: return &vk->gamma_g2;
    case 4: return &vk->delta_g1;
    default: return &vk->delta_g2;
    }
}

void czk_vk_free(czk_vk *vk) {
    if (!vk) return;
    czk_mem_free(vk->ic);
    vk->ic = NULL;
    vk->n_ic = 0;
}

size_t czk_vk_encoded_size(size_t n_ic) { return CZK_IO_VK_FIXED_BYTES + 4 + G1U * n_ic; }

czk_err czk_io_vk_check(const czk_vk *vk, char *msg, size_t msglen) {
    if (!vk) return czk_io_fail(CZK_ERR_INVALID_ARGUMENT, msg, msglen, "vk: no vk given");
    if (vk->n_ic > UINT32_MAX)
        return czk_io_fail(CZK_ERR_INVALID_ARGUMENT, msg, msglen, "vk: %zu IC points do not fit the u32 count",
                           vk->n_ic);
    if (vk->n_ic > 0 && !vk->ic) return czk_io_fail(CZK_ERR_INVALID_ARGUMENT, msg, msglen, "vk: n_ic > 0, ic NULL");
    for (size_t i = 0; i < vk->n_ic; i++)
        if (czk_g1_affine_is_infinity(&vk->ic[i]))
            return czk_io_fail(CZK_ERR_INVALID_ARGUMENT, msg, msglen,
                               "vk: IC[%zu] is the point at infinity, which bellperson's reader rejects", i);
    return CZK_OK;
}

void czk_io_vk_put(uint8_t *out, const czk_vk *vk) {
    czk_g1_to_uncompressed(out + FIXED[0].offset, &vk->alpha_g1);
    czk_g1_to_uncompressed(out + FIXED[1].offset, &vk->beta_g1);
    czk_g2_to_uncompressed(out + FIXED[2].offset, &vk->beta_g2);
    czk_g2_to_uncompressed(out + FIXED[3].offset, &vk->gamma_g2);
    czk_g1_to_uncompressed(out + FIXED[4].offset, &vk->delta_g1);
    czk_g2_to_uncompressed(out + FIXED[5].offset, &vk->delta_g2);
    uint8_t *p = out + CZK_IO_VK_FIXED_BYTES;
    czk_io_put_u32(p, (uint32_t)vk->n_ic);
    p += 4;
    for (size_t i = 0; i < vk->n_ic; i++, p += G1U) czk_g1_to_uncompressed(p, &vk->ic[i]);
}

czk_err czk_io_vk_layout(const uint8_t *in, size_t len, size_t *size, const char *what, char *msg, size_t msglen) {
    *size = 0;
    if (len < CZK_IO_VK_FIXED_BYTES + 4) {
        /* Name the first point or the count that does not fit. */
        for (int i = 0; i < 6; i++) {
            size_t need = FIXED[i].offset + (FIXED[i].g2 ? G2U : G1U);
            if (len < need)
                return czk_io_fail(CZK_ERR_FORMAT, msg, msglen,
                                   "%s: truncated in %s: it needs bytes [%zu, %zu), the data has %zu", what,
                                   FIXED[i].name, FIXED[i].offset, need, len);
        }
        return czk_io_fail(CZK_ERR_FORMAT, msg, msglen,
                           "%s: truncated in the IC count: it needs bytes [%d, %d), the data has %zu", what,
                           CZK_IO_VK_FIXED_BYTES, CZK_IO_VK_FIXED_BYTES + 4, len);
    }
    size_t n_ic = czk_io_get_u32(in + CZK_IO_VK_FIXED_BYTES);
    size_t left = len - (CZK_IO_VK_FIXED_BYTES + 4);
    if (n_ic > left / G1U)
        return czk_io_fail(CZK_ERR_FORMAT, msg, msglen,
                           "%s: IC count %zu needs %zu bytes of points at offset %d, only %zu bytes are left", what,
                           n_ic, n_ic * G1U, CZK_IO_VK_FIXED_BYTES + 4, left);
    *size = czk_vk_encoded_size(n_ic);
    return CZK_OK;
}

czk_err czk_io_vk_parse(czk_vk *out, const uint8_t *in, size_t len, size_t *used, const char *what, char *msg,
                        size_t msglen) {
    *out = (czk_vk){0};
    *used = 0;
    size_t size;
    czk_err le = czk_io_vk_layout(in, len, &size, what, msg, msglen);
    if (le != CZK_OK) return le;
    size_t n_ic = czk_io_get_u32(in + CZK_IO_VK_FIXED_BYTES);

    czk_vk vk = {0};
    for (int i = 0; i < 6; i++) {
        const uint8_t *p = in + FIXED[i].offset;
        czk_err e = FIXED[i].g2 ? czk_g2_decode_uncompressed(fixed_field(&vk, i), p, CZK_DECODE_CHECKED)
                                : czk_g1_decode_uncompressed(fixed_field(&vk, i), p, CZK_DECODE_CHECKED);
        if (e != CZK_OK)
            return czk_io_fail(CZK_ERR_FORMAT, msg, msglen, "%s: %s (offset %zu): %s", what, FIXED[i].name,
                               FIXED[i].offset, czk_err_str(e));
    }
    if (n_ic > 0) {
        vk.ic = czk_mem_alloc(n_ic * sizeof *vk.ic, CZK_MEM_SRS);
        if (!vk.ic)
            return czk_io_fail(CZK_ERR_NO_MEMORY, msg, msglen, "%s: out of memory for %zu IC points", what, n_ic);
        vk.n_ic = n_ic;
    }
    const uint8_t *p = in + CZK_IO_VK_FIXED_BYTES + 4;
    for (size_t i = 0; i < n_ic; i++, p += G1U) {
        size_t off = (size_t)(p - in);
        czk_err e = czk_g1_decode_uncompressed(&vk.ic[i], p, CZK_DECODE_CHECKED);
        if (e == CZK_OK && czk_g1_affine_is_infinity(&vk.ic[i]))
            e = czk_io_fail(CZK_ERR_FORMAT, msg, msglen,
                            "%s: IC[%zu] (offset %zu): point at infinity (bellperson rejects it)", what, i, off);
        else if (e != CZK_OK)
            e = czk_io_fail(CZK_ERR_FORMAT, msg, msglen, "%s: IC[%zu] (offset %zu): %s", what, i, off,
                            czk_err_str(e));
        if (e != CZK_OK) {
            czk_vk_free(&vk);
            return e;
        }
    }
    *out = vk;
    *used = czk_vk_encoded_size(n_ic);
    return CZK_OK;
}

czk_err czk_vk_encode(const czk_vk *vk, uint8_t *out, size_t cap, size_t *len, char *msg, size_t msglen) {
    if (len) *len = vk ? czk_vk_encoded_size(vk->n_ic) : 0;
    if (!len) return czk_io_fail(CZK_ERR_INVALID_ARGUMENT, msg, msglen, "vk: len must not be NULL");
    czk_err e = czk_io_vk_check(vk, msg, msglen);
    if (e != CZK_OK || !out) return e;
    if (cap < *len)
        return czk_io_fail(CZK_ERR_INVALID_ARGUMENT, msg, msglen, "vk: the buffer holds %zu bytes, the vk needs %zu",
                           cap, *len);
    czk_io_vk_put(out, vk);
    return CZK_OK;
}

czk_err czk_vk_decode(czk_vk *out, const uint8_t *in, size_t len, char *msg, size_t msglen) {
    if (!out) return czk_io_fail(CZK_ERR_INVALID_ARGUMENT, msg, msglen, "vk: no output given");
    *out = (czk_vk){0};
    if (!in && len > 0) return czk_io_fail(CZK_ERR_INVALID_ARGUMENT, msg, msglen, "vk: no input given");
    size_t used;
    czk_err e = czk_io_vk_parse(out, in, len, &used, "vk", msg, msglen);
    if (e != CZK_OK) return e;
    if (used != len) {
        czk_vk_free(out);
        return czk_io_fail(CZK_ERR_FORMAT, msg, msglen, "vk: %zu trailing bytes after the vk's %zu bytes",
                           len - used, used);
    }
    return CZK_OK;
}

czk_err czk_vk_write(const czk_vk *vk, const char *path, char *msg, size_t msglen) {
    size_t len;
    czk_err e = czk_vk_encode(vk, NULL, 0, &len, msg, msglen);
    if (e != CZK_OK) return e;
    uint8_t *buf = malloc(len);
    if (!buf) return czk_io_fail(CZK_ERR_NO_MEMORY, msg, msglen, "vk: out of memory (%zu bytes)", len);
    e = czk_vk_encode(vk, buf, len, &len, msg, msglen);
    if (e == CZK_OK) e = czk_io_write_file(path, buf, len, msg, msglen);
    free(buf);
    return e;
}

czk_err czk_vk_read(czk_vk *out, const char *path, char *msg, size_t msglen) {
    if (!out) return czk_io_fail(CZK_ERR_INVALID_ARGUMENT, msg, msglen, "vk: no output given");
    *out = (czk_vk){0};
    czk_io_map m;
    czk_err e = czk_io_map_open(&m, path, msg, msglen);
    if (e != CZK_OK) return e;
    size_t used;
    char inner[512];
    e = czk_io_vk_parse(out, m.data, m.len, &used, "vk", inner, sizeof inner);
    if (e == CZK_OK && used != m.len) {
        czk_vk_free(out);
        e = czk_io_fail(CZK_ERR_FORMAT, inner, sizeof inner, "vk: %zu trailing bytes after the vk's %zu bytes",
                        m.len - used, used);
    }
    czk_io_map_close(&m);
    if (e != CZK_OK) czk_io_fail(e, msg, msglen, "%s: %s", path, inner);
    return e;
}
