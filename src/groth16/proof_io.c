/* czk — bellperson's proof encoding (Proof::write/read/read_many):
 * A (G1 compressed) ‖ B (G2 compressed) ‖ C (G1 compressed), 192 bytes. */
#include "czk/groth16_io.h"

#include <stdlib.h>
#include <string.h>

#include "io_internal.h"

#define G1C CZK_G1_COMPRESSED_BYTES
#define G2C CZK_G2_COMPRESSED_BYTES

void czk_proof_encode(uint8_t out[CZK_PROOF_BYTES], const czk_proof *proof) {
    czk_g1_to_compressed(out, &proof->a);
    czk_g2_to_compressed(out + G1C, &proof->b);
    czk_g1_to_compressed(out + G1C + G2C, &proof->c);
}

/* `what` prefixes the message ("proof" or "proofs: proof 3"). */
static czk_err decode_at(czk_proof *out, const uint8_t *in, const char *what, size_t base, char *msg,
                         size_t msglen) {
    czk_proof p;
    czk_err e = czk_g1_decode_compressed(&p.a, in, CZK_DECODE_CHECKED);
    if (e != CZK_OK)
        return czk_io_fail(CZK_ERR_FORMAT, msg, msglen, "%s: A (offset %zu): %s", what, base, czk_err_str(e));
    if (czk_g1_affine_is_infinity(&p.a))
        return czk_io_fail(CZK_ERR_FORMAT, msg, msglen,
                           "%s: A (offset %zu): point at infinity (bellperson rejects it)", what, base);
    e = czk_g2_decode_compressed(&p.b, in + G1C, CZK_DECODE_CHECKED);
    if (e != CZK_OK)
        return czk_io_fail(CZK_ERR_FORMAT, msg, msglen, "%s: B (offset %zu): %s", what, base + G1C,
                           czk_err_str(e));
    if (czk_g2_affine_is_infinity(&p.b))
        return czk_io_fail(CZK_ERR_FORMAT, msg, msglen,
                           "%s: B (offset %zu): point at infinity (bellperson rejects it)", what, base + G1C);
    e = czk_g1_decode_compressed(&p.c, in + G1C + G2C, CZK_DECODE_CHECKED);
    if (e != CZK_OK)
        return czk_io_fail(CZK_ERR_FORMAT, msg, msglen, "%s: C (offset %zu): %s", what, base + G1C + G2C,
                           czk_err_str(e));
    if (czk_g1_affine_is_infinity(&p.c))
        return czk_io_fail(CZK_ERR_FORMAT, msg, msglen,
                           "%s: C (offset %zu): point at infinity (bellperson rejects it)", what, base + G1C + G2C);
    *out = p;
    return CZK_OK;
}

czk_err czk_proof_decode(czk_proof *out, const uint8_t in[CZK_PROOF_BYTES], char *msg, size_t msglen) {
    if (!out || !in) return czk_io_fail(CZK_ERR_INVALID_ARGUMENT, msg, msglen, "proof: NULL argument");
    return decode_at(out, in, "proof", 0, msg, msglen);
}

void czk_proofs_encode(uint8_t *out, const czk_proof *proofs, size_t n) {
    for (size_t i = 0; i < n; i++) czk_proof_encode(out + i * CZK_PROOF_BYTES, &proofs[i]);
}

czk_err czk_proofs_decode(czk_proof **out, size_t *n, const uint8_t *in, size_t len, char *msg, size_t msglen) {
    if (!out || !n) return czk_io_fail(CZK_ERR_INVALID_ARGUMENT, msg, msglen, "proofs: NULL argument");
    *out = NULL;
    *n = 0;
    if (len == 0) return czk_io_fail(CZK_ERR_FORMAT, msg, msglen, "proofs: empty, expected n x %d bytes", CZK_PROOF_BYTES);
    if (!in) return czk_io_fail(CZK_ERR_INVALID_ARGUMENT, msg, msglen, "proofs: no input given");
    if (len % CZK_PROOF_BYTES != 0)
        return czk_io_fail(CZK_ERR_FORMAT, msg, msglen,
                           "proofs: %zu bytes is not a multiple of the %d-byte proof size (%zu whole proofs and %zu "
                           "bytes over)",
                           len, CZK_PROOF_BYTES, len / CZK_PROOF_BYTES, len % CZK_PROOF_BYTES);
    size_t count = len / CZK_PROOF_BYTES;
    czk_proof *p = malloc(count * sizeof *p);
    if (!p) return czk_io_fail(CZK_ERR_NO_MEMORY, msg, msglen, "proofs: out of memory for %zu proofs", count);
    for (size_t i = 0; i < count; i++) {
        char what[80];
        snprintf(what, sizeof what, "proofs: proof %zu of %zu", i, count);
        czk_err e = decode_at(&p[i], in + i * CZK_PROOF_BYTES, what, i * CZK_PROOF_BYTES, msg, msglen);
        if (e != CZK_OK) {
            free(p);
            return e;
        }
    }
    *out = p;
    *n = count;
    return CZK_OK;
}

czk_err czk_proofs_write(const czk_proof *proofs, size_t n, const char *path, char *msg, size_t msglen) {
    if (n == 0 || !proofs)
        return czk_io_fail(CZK_ERR_INVALID_ARGUMENT, msg, msglen, "proofs: nothing to write (n = %zu)", n);
    if (n > SIZE_MAX / CZK_PROOF_BYTES)
        return czk_io_fail(CZK_ERR_INVALID_ARGUMENT, msg, msglen, "proofs: n = %zu is too large", n);
    for (size_t i = 0; i < n; i++)
        if (czk_g1_affine_is_infinity(&proofs[i].a) || czk_g2_affine_is_infinity(&proofs[i].b) ||
            czk_g1_affine_is_infinity(&proofs[i].c))
            return czk_io_fail(CZK_ERR_INVALID_ARGUMENT, msg, msglen,
                               "proofs: proof %zu has a point at infinity, which bellperson's reader rejects", i);
    uint8_t *buf = malloc(n * CZK_PROOF_BYTES);
    if (!buf) return czk_io_fail(CZK_ERR_NO_MEMORY, msg, msglen, "proofs: out of memory");
    czk_proofs_encode(buf, proofs, n);
    czk_err e = czk_io_write_file(path, buf, n * CZK_PROOF_BYTES, msg, msglen);
    free(buf);
    return e;
}

czk_err czk_proofs_read(czk_proof **out, size_t *n, const char *path, char *msg, size_t msglen) {
    if (!out || !n) return czk_io_fail(CZK_ERR_INVALID_ARGUMENT, msg, msglen, "proofs: NULL argument");
    *out = NULL;
    *n = 0;
    czk_io_map m;
    czk_err e = czk_io_map_open(&m, path, msg, msglen);
    if (e != CZK_OK) return e;
    char inner[512] = "";
    e = czk_proofs_decode(out, n, m.data, m.len, inner, sizeof inner);
    czk_io_map_close(&m);
    if (e != CZK_OK) czk_io_fail(e, msg, msglen, "%s: %s", path, inner);
    return e;
}
