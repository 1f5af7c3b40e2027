/* czk — R1CS files (format in include/czk/r1cs.h).
 *
 * Header (128 bytes, little-endian):
 *   0 magic "CZKR1CS\0" | 8 version u32 | 12 flags u32 (0) | 16 SHA-256(id)
 *   48 n_inputs | 56 n_aux | 64 n_constraints | 72 nnz A | 80 nnz B | 88 nnz C
 *   96 SHA-256(header[0..96) ‖ body)
 * Body: for A, B, C: row_ptr[n_constraints + 1] u64, col[nnz] u32,
 * coeff[nnz] 32-byte canonical little-endian. Both directions stream through
 * a 1 MiB buffer; load checks the size before allocating anything. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "czk/mem.h"
#include "czk/r1cs.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "R1CS files are written with the host's byte order, which must be little-endian"
#endif

#define HEADER_BYTES 128
#define HASHED_HEADER 96
#define VERSION 1u
#define CHUNK (1u << 20)
static const char MAGIC[8] = {'C', 'Z', 'K', 'R', '1', 'C', 'S', 0};

static void put_u32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put_u64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }
static uint32_t get_u32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t get_u64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

static bool sha256(uint8_t out[32], const void *data, size_t len) {
    unsigned int n = 0;
    return EVP_Digest(data, len, out, &n, EVP_sha256(), NULL) == 1 && n == 32;
}

/* body bytes for the counts, or false on overflow */
static bool body_size(uint64_t nc, const uint64_t nnz[3], uint64_t *out) {
    uint64_t total = 0;
    for (int k = 0; k < 3; k++) {
        if (nc >= UINT64_MAX / 8 || nnz[k] > UINT64_MAX / 64) return false;
        uint64_t part = (nc + 1) * 8 + nnz[k] * 36;
        if (total > UINT64_MAX - part) return false;
        total += part;
    }
    *out = total;
    return true;
}

/* ---- save ------------------------------------------------------------------ */

typedef struct {
    FILE *f;
    EVP_MD_CTX *md;
    bool ok;
} writer;

static void emit(writer *w, const void *p, size_t n) {
    if (!w->ok || n == 0) return;
    if (fwrite(p, 1, n, w->f) != n || EVP_DigestUpdate(w->md, p, n) != 1) w->ok = false;
}

static void emit_coeffs(writer *w, const czk_fr *c, uint64_t n, uint8_t *buf) {
    const size_t per = CHUNK / 32;
    for (uint64_t i = 0; i < n && w->ok; i += per) {
        size_t m = n - i < per ? (size_t)(n - i) : per;
        for (size_t j = 0; j < m; j++) czk_fr_to_bytes_le(buf + 32 * j, &c[i + j]);
        emit(w, buf, 32 * m);
    }
}

static void make_header(uint8_t h[HEADER_BYTES], const czk_r1cs *r, const uint8_t id_hash[32]) {
    memset(h, 0, HEADER_BYTES);
    memcpy(h, MAGIC, 8);
    put_u32(h + 8, VERSION);
    memcpy(h + 16, id_hash, 32);
    put_u64(h + 48, r->n_inputs);
    put_u64(h + 56, r->n_aux);
    put_u64(h + 64, r->n_constraints);
    put_u64(h + 72, r->a.nnz);
    put_u64(h + 80, r->b.nnz);
    put_u64(h + 88, r->c.nnz);
}

czk_err czk_r1cs_save(const czk_r1cs *r, const char *circuit_id, const char *path, char *msg, size_t msglen) {
    if (!r || !circuit_id || !path) return czk_err_msg(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "NULL argument");
    const czk_csr *m[3] = {&r->a, &r->b, &r->c};
    for (int k = 0; k < 3; k++)
        if (!m[k]->row_ptr || (m[k]->nnz && (!m[k]->col || !m[k]->coeff)))
            return czk_err_msg(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "R1CS has no matrix data");
    uint8_t h[HEADER_BYTES], id_hash[32], sum[32];
    if (!sha256(id_hash, circuit_id, strlen(circuit_id)))
        return czk_err_msg(msg, msglen, CZK_ERR_IO, "SHA-256 unavailable");
    make_header(h, r, id_hash);

    size_t tlen = strlen(path) + 32;
    char *tmp = malloc(tlen);
    uint8_t *buf = malloc(CHUNK);
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    if (!tmp || !buf || !md) {
        free(tmp);
        free(buf);
        EVP_MD_CTX_free(md);
        return czk_err_msg(msg, msglen, CZK_ERR_NO_MEMORY, "out of memory");
    }
    snprintf(tmp, tlen, "%s.tmp.%ld", path, (long)getpid());
    czk_err e = CZK_OK;
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        e = czk_err_msg(msg, msglen, CZK_ERR_IO, "cannot create %s: %s", tmp, strerror(errno));
        goto out;
    }
    writer w = {f, md, EVP_DigestInit_ex(md, EVP_sha256(), NULL) == 1};
    if (w.ok && fwrite(h, 1, HEADER_BYTES, f) != HEADER_BYTES) w.ok = false;
    if (w.ok && EVP_DigestUpdate(md, h, HASHED_HEADER) != 1) w.ok = false;
    for (int k = 0; k < 3; k++) {
        emit(&w, m[k]->row_ptr, ((size_t)r->n_constraints + 1) * 8);
        emit(&w, m[k]->col, (size_t)m[k]->nnz * 4);
        emit_coeffs(&w, m[k]->coeff, m[k]->nnz, buf);
    }
    unsigned int n = 0;
    if (w.ok && (EVP_DigestFinal_ex(md, sum, &n) != 1 || n != 32)) w.ok = false;
    if (w.ok) {
        memcpy(h + HASHED_HEADER, sum, 32);
        if (fseek(f, 0, SEEK_SET) != 0 || fwrite(h, 1, HEADER_BYTES, f) != HEADER_BYTES) w.ok = false;
    }
    if (w.ok && (fflush(f) != 0 || fsync(fileno(f)) != 0)) w.ok = false;
    if (fclose(f) != 0) w.ok = false;
    if (!w.ok)
        e = czk_err_msg(msg, msglen, CZK_ERR_IO, "write to %s failed: %s", tmp, strerror(errno));
    else if (rename(tmp, path) != 0)
        e = czk_err_msg(msg, msglen, CZK_ERR_IO, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
    if (e) unlink(tmp);
out:
    free(tmp);
    free(buf);
    EVP_MD_CTX_free(md);
    return e;
}

/* ---- load ------------------------------------------------------------------ */

typedef struct {
    FILE *f;
    EVP_MD_CTX *md;
    bool ok;
} reader;

static void take(reader *rd, void *p, size_t n) {
    if (!rd->ok || n == 0) return;
    if (fread(p, 1, n, rd->f) != n || EVP_DigestUpdate(rd->md, p, n) != 1) rd->ok = false;
}

/* Reads n coefficients; *canonical turns false at the first value >= r (the
 * element is then zero; the error is reported after the checksum). */
static void take_coeffs(reader *rd, czk_fr *c, uint64_t n, uint8_t *buf, bool *canonical) {
    const size_t per = CHUNK / 32;
    for (uint64_t i = 0; i < n && rd->ok; i += per) {
        size_t m = n - i < per ? (size_t)(n - i) : per;
        take(rd, buf, 32 * m);
        if (!rd->ok) return;
        for (size_t j = 0; j < m; j++)
            if (!czk_fr_from_bytes_le(&c[i + j], buf + 32 * j)) {
                *canonical = false;
                czk_fr_set_zero(&c[i + j]);
            }
    }
}

static czk_err check_structure(const czk_r1cs *r, char *msg, size_t msglen) {
    const czk_csr *m[3] = {&r->a, &r->b, &r->c};
    const char *names = "ABC";
    uint64_t nvars = (uint64_t)r->n_inputs + r->n_aux;
    for (int k = 0; k < 3; k++) {
        const czk_csr *x = m[k];
        if (x->row_ptr[0] != 0 || x->row_ptr[r->n_constraints] != x->nnz)
            return czk_err_msg(msg, msglen, CZK_ERR_FORMAT, "R1CS file: matrix %c row pointers do not span its entries",
                               names[k]);
        for (size_t i = 0; i < r->n_constraints; i++) {
            uint64_t b = x->row_ptr[i], e = x->row_ptr[i + 1];
            if (b > e || e > x->nnz)
                return czk_err_msg(msg, msglen, CZK_ERR_FORMAT, "R1CS file: matrix %c row %zu has bad bounds", names[k],
                                   i);
            for (uint64_t j = b; j < e; j++)
                if (x->col[j] >= nvars || (j > b && x->col[j] <= x->col[j - 1]))
                    return czk_err_msg(msg, msglen, CZK_ERR_FORMAT,
                                       "R1CS file: matrix %c row %zu has a bad or unsorted column", names[k], i);
        }
    }
    return CZK_OK;
}

czk_err czk_r1cs_load(czk_r1cs *out, const char *circuit_id, const char *path, char *msg, size_t msglen) {
    memset(out, 0, sizeof *out);
    if (!circuit_id || !path) return czk_err_msg(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "NULL argument");
    FILE *f = fopen(path, "rb");
    if (!f) return czk_err_msg(msg, msglen, CZK_ERR_IO, "cannot open %s: %s", path, strerror(errno));
    czk_err e = CZK_OK;
    uint8_t *buf = NULL;
    EVP_MD_CTX *md = NULL;
    uint8_t h[HEADER_BYTES], id_hash[32], sum[32];
    struct stat st;
    if (fstat(fileno(f), &st) != 0) {
        e = czk_err_msg(msg, msglen, CZK_ERR_IO, "cannot stat %s: %s", path, strerror(errno));
        goto out;
    }
    if ((uint64_t)st.st_size < HEADER_BYTES || fread(h, 1, HEADER_BYTES, f) != HEADER_BYTES) {
        e = czk_err_msg(msg, msglen, CZK_ERR_FORMAT, "%s: truncated R1CS file (%lld bytes, shorter than the header)",
                        path, (long long)st.st_size);
        goto out;
    }
    if (memcmp(h, MAGIC, 8) != 0) {
        e = czk_err_msg(msg, msglen, CZK_ERR_FORMAT, "%s: not a czk R1CS file (bad magic)", path);
        goto out;
    }
    if (get_u32(h + 8) != VERSION || get_u32(h + 12) != 0) {
        e = czk_err_msg(msg, msglen, CZK_ERR_FORMAT,
                        "%s: unsupported R1CS file version %u (flags %u); this build reads %u", path, get_u32(h + 8),
                        get_u32(h + 12), VERSION);
        goto out;
    }
    if (!sha256(id_hash, circuit_id, strlen(circuit_id))) {
        e = czk_err_msg(msg, msglen, CZK_ERR_IO, "SHA-256 unavailable");
        goto out;
    }
    if (memcmp(h + 16, id_hash, 32) != 0) {
        e = czk_err_msg(msg, msglen, CZK_ERR_MISMATCH, "%s: R1CS file belongs to another circuit (expected id \"%s\")",
                        path, circuit_id);
        goto out;
    }
    uint64_t ni = get_u64(h + 48), na = get_u64(h + 56), nc = get_u64(h + 64);
    uint64_t nnz[3] = {get_u64(h + 72), get_u64(h + 80), get_u64(h + 88)}, body;
    if (ni < 1 || ni >= 0x80000000u || na >= 0x80000000u || ni + na >= 0x80000000u || nc > SIZE_MAX / 8 ||
        !body_size(nc, nnz, &body)) {
        e = czk_err_msg(msg, msglen, CZK_ERR_FORMAT, "%s: R1CS file header has impossible counts", path);
        goto out;
    }
    if ((uint64_t)st.st_size - HEADER_BYTES != body) {
        e = czk_err_msg(msg, msglen, CZK_ERR_FORMAT, "%s: %s R1CS file (%lld bytes, the header promises %llu)", path,
                        (uint64_t)st.st_size - HEADER_BYTES < body ? "truncated" : "oversized", (long long)st.st_size,
                        (unsigned long long)(body + HEADER_BYTES));
        goto out;
    }
    buf = malloc(CHUNK);
    md = EVP_MD_CTX_new();
    if (!buf || !md) {
        e = czk_err_msg(msg, msglen, CZK_ERR_NO_MEMORY, "out of memory");
        goto out;
    }
    out->n_inputs = ni;
    out->n_aux = na;
    out->n_constraints = nc;
    reader rd = {f, md, EVP_DigestInit_ex(md, EVP_sha256(), NULL) == 1 && EVP_DigestUpdate(md, h, HASHED_HEADER) == 1};
    bool canonical = true;
    czk_csr *m[3] = {&out->a, &out->b, &out->c};
    for (int k = 0; k < 3 && rd.ok; k++) {
        m[k]->nnz = nnz[k];
        m[k]->row_ptr = czk_mem_alloc((nc + 1) * 8, CZK_MEM_R1CS);
        if (nnz[k]) {
            m[k]->col = czk_mem_alloc(nnz[k] * 4, CZK_MEM_R1CS);
            m[k]->coeff = czk_mem_alloc(nnz[k] * sizeof(czk_fr), CZK_MEM_R1CS);
        }
        if (!m[k]->row_ptr || (nnz[k] && (!m[k]->col || !m[k]->coeff))) {
            e = czk_err_msg(msg, msglen, CZK_ERR_NO_MEMORY, "out of memory for the R1CS");
            goto out;
        }
        take(&rd, m[k]->row_ptr, (nc + 1) * 8);
        take(&rd, m[k]->col, nnz[k] * 4);
        take_coeffs(&rd, m[k]->coeff, nnz[k], buf, &canonical);
    }
    if (!rd.ok) {
        e = czk_err_msg(msg, msglen, CZK_ERR_IO, "%s: read failed", path);
        goto out;
    }
    unsigned int n = 0;
    if (EVP_DigestFinal_ex(md, sum, &n) != 1 || n != 32) {
        e = czk_err_msg(msg, msglen, CZK_ERR_IO, "SHA-256 failed");
        goto out;
    }
    if (memcmp(sum, h + HASHED_HEADER, 32) != 0) {
        e = czk_err_msg(msg, msglen, CZK_ERR_FORMAT, "%s: R1CS file checksum mismatch (corrupted)", path);
        goto out;
    }
    if (!canonical) {
        e = czk_err_msg(msg, msglen, CZK_ERR_FORMAT, "%s: R1CS file holds a coefficient >= r", path);
        goto out;
    }
    e = check_structure(out, msg, msglen);
out:
    if (e) czk_r1cs_free(out);
    fclose(f);
    free(buf);
    EVP_MD_CTX_free(md);
    return e;
}
