/* czk — compact R1CS cache files (format in include/czk/r1cs_compact.h).
 *
 * Header (136 bytes, little-endian):
 *   0 magic "CZKR1CC\0" | 8 version u32 | 12 flags u32 (0) | 16 SHA-256(id)
 *   48 n_inputs | 56 n_aux | 64 n_constraints | 72 nnz A | 80 nnz B
 *   88 nnz C | 96 n_dict | 104 checksum
 * Body: dict[n_dict] as 32-byte canonical little-endian values, then for A,
 * B, C: row_ptr[n_constraints + 1] u32, col[nnz] u32, coeff[nnz] u16.
 * checksum = SHA-256(header[0..104) ‖ D_0 ‖ … ‖ D_{m-1}), where D_i is the
 * SHA-256 of the body's i-th CHUNK bytes (the last one shorter): a list of
 * hashes, so that the chunks are read and hashed on all the pool's threads.
 *
 * Both directions move the arrays as they are in memory, with read/write
 * calls of up to one chunk straight from or into the final buffers; load
 * checks the file's size against the header before allocating anything
 * and the structure (on the pool) only once the checksum holds. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "czk/mem.h"
#include "czk/r1cs_compact.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "compact R1CS files are written with the host's byte order, which must be little-endian"
#endif

#define HEADER_BYTES 136
#define HASHED_HEADER 104
#define VERSION 1u
#define CHUNK ((uint64_t)64 << 20)
static const char MAGIC[8] = {'C', 'Z', 'K', 'R', '1', 'C', 'C', 0};

static void put_u32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put_u64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }
static uint32_t get_u32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t get_u64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

static bool sha256(uint8_t out[32], const void *data, size_t len) {
    unsigned int n = 0;
    return EVP_Digest(data, len, out, &n, EVP_sha256(), NULL) == 1 && n == 32;
}

/* ---- the body as segments, and its chunks ---------------------------------- */

/* The body in file order: the dictionary (canonical bytes, in a buffer of
 * its own), then row_ptr, col, coeff of A, B, C. */
typedef struct {
    uint8_t *p;
    uint64_t len;
} segment;

typedef struct {
    segment seg[10];
    int n_seg;
    uint64_t body;
} layout;

static void layout_add(layout *l, void *p, uint64_t len) {
    l->seg[l->n_seg++] = (segment){p, len};
    l->body += len;
}

/* body bytes for the counts, or false when they overflow */
static bool body_size(uint64_t nc, const uint64_t nnz[3], uint64_t n_dict, uint64_t *out) {
    if (nc >= UINT32_MAX || n_dict > CZK_R1CS_COMPACT_DICT_MAX) return false;
    uint64_t total = n_dict * 32;
    for (int k = 0; k < 3; k++) {
        if (nnz[k] > UINT32_MAX) return false;
        total += (nc + 1) * 4 + nnz[k] * 6;
    }
    *out = total;
    return true;
}

typedef struct {
    const layout *l;
    int fd;               /* load: read the chunk into the segments first; save: -1 */
    uint8_t *digest;      /* 32 per chunk */
    uint8_t *failed;      /* 1 per chunk: 1 SHA-256 failed, 2 read failed, 3 short read */
    int *read_errno;
} chunk_job;

static int read_at(int fd, uint8_t *p, uint64_t len, uint64_t off, int *err) {
    while (len) {
        size_t n = len > ((size_t)1 << 30) ? ((size_t)1 << 30) : (size_t)len;
        ssize_t got = pread(fd, p, n, (off_t)off);
        if (got < 0) {
            if (errno == EINTR) continue;
            *err = errno;
            return 2;
        }
        if (got == 0) return 3;
        p += got;
        off += (uint64_t)got;
        len -= (uint64_t)got;
    }
    return 0;
}

/* Chunk i: [i·CHUNK, min((i+1)·CHUNK, body)) of the body, read (load) and
 * hashed piece by piece as it falls on the segments. */
static void chunk_task(void *ctx, size_t begin, size_t end, int worker) {
    (void)worker;
    const chunk_job *job = ctx;
    const layout *l = job->l;
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    for (size_t i = begin; i < end; i++) {
        uint64_t lo = i * CHUNK, hi = lo + CHUNK < l->body ? lo + CHUNK : l->body, pos = 0;
        int fail = !md || EVP_DigestInit_ex(md, EVP_sha256(), NULL) != 1;
        for (int s = 0; s < l->n_seg && !fail; pos += l->seg[s].len, s++) {
            uint64_t a = lo > pos ? lo : pos, b = hi < pos + l->seg[s].len ? hi : pos + l->seg[s].len;
            if (a >= b) continue;
            uint8_t *p = l->seg[s].p + (a - pos);
            if (job->fd >= 0) fail = read_at(job->fd, p, b - a, HEADER_BYTES + a, &job->read_errno[i]);
            if (!fail && EVP_DigestUpdate(md, p, b - a) != 1) fail = 1;
        }
        unsigned int n = 0;
        if (!fail && (EVP_DigestFinal_ex(md, job->digest + 32 * i, &n) != 1 || n != 32)) fail = 1;
        job->failed[i] = (uint8_t)fail;
    }
    EVP_MD_CTX_free(md);
}

/* The chunk digests (reading the chunks first when fd >= 0), then the
 * checksum over header[0..HASHED_HEADER) and them. 0 when all went well,
 * else chunk_job's failure code, with *err the errno of a failed read. */
static int run_chunks(const layout *l, int fd, const uint8_t *h, uint8_t sum[32], int *err) {
    size_t m = (size_t)((l->body + CHUNK - 1) / CHUNK);
    uint8_t *digest = malloc(32 * m + HASHED_HEADER), *failed = calloc(m ? m : 1, 1);
    int *errs = calloc(m ? m : 1, sizeof *errs);
    int rc = digest && failed && errs ? 0 : 1;
    if (!rc) {
        chunk_job job = {l, fd, digest + HASHED_HEADER, failed, errs};
        czk_pool_run(czk_pool_default(), m, 1, chunk_task, &job);
        for (size_t i = 0; i < m && !rc; i++)
            if ((rc = failed[i]) == 2) *err = errs[i];
    }
    if (!rc) {
        memcpy(digest, h, HASHED_HEADER);
        if (!sha256(sum, digest, 32 * m + HASHED_HEADER)) rc = 1;
    }
    free(digest);
    free(failed);
    free(errs);
    return rc;
}

static void make_layout(layout *l, const czk_r1cs_compact *r, uint8_t *dict_bytes) {
    memset(l, 0, sizeof *l);
    const czk_csr_compact *m[3] = {&r->a, &r->b, &r->c};
    layout_add(l, dict_bytes, r->n_dict * 32);
    for (int k = 0; k < 3; k++) {
        layout_add(l, m[k]->row_ptr, ((uint64_t)r->n_constraints + 1) * 4);
        layout_add(l, m[k]->col, m[k]->nnz * 4);
        layout_add(l, m[k]->coeff, m[k]->nnz * 2);
    }
}

/* ---- save ------------------------------------------------------------------ */

static bool write_all(int fd, const uint8_t *p, uint64_t len) {
    while (len) {
        size_t n = len > ((size_t)1 << 30) ? ((size_t)1 << 30) : (size_t)len;
        ssize_t put = write(fd, p, n);
        if (put < 0 && errno == EINTR) continue;
        if (put <= 0) return false;
        p += put;
        len -= (uint64_t)put;
    }
    return true;
}

czk_err czk_r1cs_compact_save(const czk_r1cs_compact *r, const char *circuit_id, const char *path, char *msg,
                              size_t msglen) {
    if (!r || !circuit_id || !path) return czk_err_msg(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "NULL argument");
    const czk_csr_compact *m[3] = {&r->a, &r->b, &r->c};
    uint64_t nnz[3] = {r->a.nnz, r->b.nnz, r->c.nnz}, body;
    if (!r->dict || r->n_dict < 2 || !body_size(r->n_constraints, nnz, r->n_dict, &body))
        return czk_err_msg(msg, msglen, CZK_ERR_INVALID_ARGUMENT,
                           "not a compact R1CS (no dictionary, or counts beyond its limits)");
    for (int k = 0; k < 3; k++)
        if (!m[k]->row_ptr || (m[k]->nnz && (!m[k]->col || !m[k]->coeff)))
            return czk_err_msg(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "compact R1CS has no matrix data");
    uint8_t h[HEADER_BYTES], sum[32];
    memset(h, 0, sizeof h);
    memcpy(h, MAGIC, 8);
    put_u32(h + 8, VERSION);
    if (!sha256(h + 16, circuit_id, strlen(circuit_id)))
        return czk_err_msg(msg, msglen, CZK_ERR_IO, "SHA-256 unavailable");
    put_u64(h + 48, r->n_inputs);
    put_u64(h + 56, r->n_aux);
    put_u64(h + 64, r->n_constraints);
    for (int k = 0; k < 3; k++) put_u64(h + 72 + 8 * k, nnz[k]);
    put_u64(h + 96, r->n_dict);

    size_t tlen = strlen(path) + 32;
    char *tmp = malloc(tlen);
    uint8_t *dict = malloc(r->n_dict * 32);
    if (!tmp || !dict) {
        free(tmp);
        free(dict);
        return czk_err_msg(msg, msglen, CZK_ERR_NO_MEMORY, "out of memory");
    }
    for (size_t i = 0; i < r->n_dict; i++) czk_fr_to_bytes_le(dict + 32 * i, &r->dict[i]);
    layout l;
    make_layout(&l, r, dict);
    czk_err e = CZK_OK;
    int err = 0;
    if (run_chunks(&l, -1, h, sum, &err)) {
        e = czk_err_msg(msg, msglen, CZK_ERR_NO_MEMORY, "out of memory (or SHA-256 failed) hashing the compact R1CS");
        goto out;
    }
    memcpy(h + HASHED_HEADER, sum, 32);
    snprintf(tmp, tlen, "%s.tmp.%ld", path, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        e = czk_err_msg(msg, msglen, CZK_ERR_IO, "cannot create %s: %s", tmp, strerror(errno));
        goto out;
    }
    bool ok = write_all(fd, h, HEADER_BYTES);
    for (int s = 0; s < l.n_seg && ok; s++) ok = write_all(fd, l.seg[s].p, l.seg[s].len);
    if (ok && fsync(fd) != 0) ok = false;
    int saved = errno;
    if (close(fd) != 0 && ok) {
        ok = false;
        saved = errno;
    }
    if (!ok)
        e = czk_err_msg(msg, msglen, CZK_ERR_IO, "write to %s failed: %s", tmp, strerror(saved));
    else if (rename(tmp, path) != 0)
        e = czk_err_msg(msg, msglen, CZK_ERR_IO, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
    if (e) unlink(tmp);
out:
    free(tmp);
    free(dict);
    return e;
}

/* ---- structure ------------------------------------------------------------- */

enum { BAD_ROWS = 0, BAD_COL = 1, BAD_ORDER = 2, BAD_COEFF = 3 };

typedef struct {
    const czk_r1cs_compact *r;
    uint64_t first_bad[3]; /* per matrix: the least (row << 2 | what) found, UINT64_MAX for none */
} check_job;

static void note_bad(uint64_t *slot, uint64_t v) {
    uint64_t cur = __atomic_load_n(slot, __ATOMIC_RELAXED);
    while (v < cur && !__atomic_compare_exchange_n(slot, &cur, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
}

/* Rows [begin, end) of A, B and C: offsets non-decreasing and within nnz,
 * columns strictly increasing and below n_inputs + n_aux, indices below
 * n_dict. Stops a matrix at its first bad row. */
static void check_task(void *ctx, size_t begin, size_t end, int worker) {
    (void)worker;
    check_job *job = ctx;
    const czk_r1cs_compact *r = job->r;
    const czk_csr_compact *m[3] = {&r->a, &r->b, &r->c};
    const uint64_t nvars = (uint64_t)r->n_inputs + r->n_aux;
    for (int k = 0; k < 3; k++) {
        const czk_csr_compact *x = m[k];
        for (size_t i = begin; i < end; i++) {
            uint32_t b = x->row_ptr[i], e = x->row_ptr[i + 1];
            int bad = -1;
            if (b > e || e > x->nnz) bad = BAD_ROWS;
            for (uint32_t j = b; j < e && bad < 0; j++) {
                if (x->col[j] >= nvars) bad = BAD_COL;
                else if (j > b && x->col[j] <= x->col[j - 1]) bad = BAD_ORDER;
                else if (x->coeff[j] >= r->n_dict) bad = BAD_COEFF;
            }
            if (bad >= 0) {
                note_bad(&job->first_bad[k], ((uint64_t)i << 2) | (uint64_t)bad);
                break;
            }
        }
    }
}

static czk_err check_structure(const czk_r1cs_compact *r, const char *path, char *msg, size_t msglen) {
    const czk_csr_compact *m[3] = {&r->a, &r->b, &r->c};
    for (int k = 0; k < 3; k++)
        if (m[k]->row_ptr[0] != 0 || m[k]->row_ptr[r->n_constraints] != m[k]->nnz)
            return czk_err_msg(msg, msglen, CZK_ERR_FORMAT,
                               "%s: compact R1CS file: matrix %c's row offsets do not run from 0 to its %llu terms",
                               path, "ABC"[k], (unsigned long long)m[k] -> nnz);
    check_job job = {r, {UINT64_MAX, UINT64_MAX, UINT64_MAX}};
    czk_pool_run(czk_pool_default(), r->n_constraints, 1u << 16, check_task, &job);
    static const char *what[4] = {"row offsets that decrease", "a column out of range",
                                  "columns not strictly increasing", "a dictionary index out of range"};
    for (int k = 0; k < 3; k++)
        if (job.first_bad[k] != UINT64_MAX)
            return czk_err_msg(msg, msglen, CZK_ERR_FORMAT, "%s: compact R1CS file: matrix %c row %llu has %s", path,
                               "ABC"[k], (unsigned long long)(job.first_bad[k] >> 2), what[job.first_bad[k] & 3]);
    return CZK_OK;
}

/* ---- load ------------------------------------------------------------------ */

czk_err czk_r1cs_compact_load(czk_r1cs_compact *out, const char *circuit_id, const char *path, char *msg,
                              size_t msglen) {
    if (!out || !circuit_id || !path) return czk_err_msg(msg, msglen, CZK_ERR_INVALID_ARGUMENT, "NULL argument");
    memset(out, 0, sizeof *out);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return czk_err_msg(msg, msglen, CZK_ERR_IO, "cannot open %s: %s", path, strerror(errno));
    czk_err e = CZK_OK;
    uint8_t h[HEADER_BYTES], id_hash[32], sum[32], *dict = NULL;
    struct stat st;
    int err = 0;
    if (fstat(fd, &st) != 0) {
        e = czk_err_msg(msg, msglen, CZK_ERR_IO, "cannot stat %s: %s", path, strerror(errno));
        goto out;
    }
    int rc = (uint64_t)st.st_size < HEADER_BYTES ? 3 : read_at(fd, h, HEADER_BYTES, 0, &err);
    if (rc == 2) {
        e = czk_err_msg(msg, msglen, CZK_ERR_IO, "%s: read failed: %s", path, strerror(err));
        goto out;
    }
    if (rc) {
        e = czk_err_msg(msg, msglen, CZK_ERR_FORMAT,
                        "%s: truncated compact R1CS file (%lld bytes, shorter than the header)", path,
                        (long long)st.st_size);
        goto out;
    }
    if (memcmp(h, MAGIC, 8) != 0) {
        e = czk_err_msg(msg, msglen, CZK_ERR_FORMAT, "%s: not a czk compact R1CS file (bad magic)", path);
        goto out;
    }
    if (get_u32(h + 8) != VERSION || get_u32(h + 12) != 0) {
        e = czk_err_msg(msg, msglen, CZK_ERR_FORMAT,
                        "%s: unsupported compact R1CS file version %u (flags %u); this build reads %u", path,
                        get_u32(h + 8), get_u32(h + 12), VERSION);
        goto out;
    }
    if (!sha256(id_hash, circuit_id, strlen(circuit_id))) {
        e = czk_err_msg(msg, msglen, CZK_ERR_IO, "SHA-256 unavailable");
        goto out;
    }
    if (memcmp(h + 16, id_hash, 32) != 0) {
        e = czk_err_msg(msg, msglen, CZK_ERR_MISMATCH,
                        "%s: compact R1CS file belongs to another circuit (expected id \"%s\")", path, circuit_id);
        goto out;
    }
    uint64_t ni = get_u64(h + 48), na = get_u64(h + 56), nc = get_u64(h + 64), nd = get_u64(h + 96), body;
    uint64_t nnz[3] = {get_u64(h + 72), get_u64(h + 80), get_u64(h + 88)};
    if (ni < 1 || ni >= 0x80000000u || na >= 0x80000000u || ni + na >= 0x80000000u || nd < 2 ||
        !body_size(nc, nnz, nd, &body)) {
        e = czk_err_msg(msg, msglen, CZK_ERR_FORMAT, "%s: compact R1CS file header has impossible counts", path);
        goto out;
    }
    if ((uint64_t)st.st_size - HEADER_BYTES != body) {
        e = czk_err_msg(msg, msglen, CZK_ERR_FORMAT, "%s: %s compact R1CS file (%lld bytes, the header promises %llu)",
                        path, (uint64_t)st.st_size - HEADER_BYTES < body ? "truncated" : "oversized",
                        (long long)st.st_size, (unsigned long long)(body + HEADER_BYTES));
        goto out;
    }
    out->n_inputs = ni;
    out->n_aux = na;
    out->n_constraints = nc;
    out->n_dict = nd;
    dict = malloc(nd * 32);
    out->dict = czk_mem_alloc(nd * sizeof(czk_fr), CZK_MEM_R1CS);
    czk_csr_compact *m[3] = {&out->a, &out->b, &out->c};
    bool ok = dict && out->dict;
    for (int k = 0; k < 3 && ok; k++) {
        m[k]->nnz = nnz[k];
        m[k]->row_ptr = czk_mem_alloc((nc + 1) * 4, CZK_MEM_R1CS);
        if (nnz[k]) {
            m[k]->col = czk_mem_alloc(nnz[k] * 4, CZK_MEM_R1CS);
            m[k]->coeff = czk_mem_alloc(nnz[k] * 2, CZK_MEM_R1CS);
        }
        ok = m[k]->row_ptr && (!nnz[k] || (m[k]->col && m[k]->coeff));
    }
    if (!ok) {
        e = czk_err_msg(msg, msglen, CZK_ERR_NO_MEMORY, "out of memory for the compact R1CS (%llu bytes)",
                        (unsigned long long)body);
        goto out;
    }
    layout l;
    make_layout(&l, out, dict);
    rc = run_chunks(&l, fd, h, sum, &err);
    if (rc) {
        e = rc == 1 ? czk_err_msg(msg, msglen, CZK_ERR_NO_MEMORY, "out of memory (or SHA-256 failed) reading %s", path)
            : rc == 2 ? czk_err_msg(msg, msglen, CZK_ERR_IO, "%s: read failed: %s", path, strerror(err))
                      : czk_err_msg(msg, msglen, CZK_ERR_FORMAT,
                                    "%s: truncated compact R1CS file (it shrank while read)", path);
        goto out;
    }
    if (memcmp(sum, h + HASHED_HEADER, 32) != 0) {
        e = czk_err_msg(msg, msglen, CZK_ERR_FORMAT, "%s: compact R1CS file checksum mismatch (corrupted)", path);
        goto out;
    }
    for (uint64_t i = 0; i < nd; i++)
        if (!czk_fr_from_bytes_le(&out->dict[i], dict + 32 * i)) {
            e = czk_err_msg(msg, msglen, CZK_ERR_FORMAT, "%s: compact R1CS file: dictionary entry %llu is not below r",
                            path, (unsigned long long)i);
            goto out;
        }
    czk_fr minus_one;
    czk_fr_neg(&minus_one, &CZK_FR_ONE);
    if (!czk_fr_is_one(&out->dict[0]) || !czk_fr_equal(&out->dict[1], &minus_one)) {
        e = czk_err_msg(msg, msglen, CZK_ERR_FORMAT, "%s: compact R1CS file: the dictionary does not start with 1, -1",
                        path);
        goto out;
    }
    e = check_structure(out, path, msg, msglen);
out:
    if (e) czk_r1cs_compact_free(out);
    free(dict);
    close(fd);
    return e;
}
