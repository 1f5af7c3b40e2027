/* czk — internal: affine buckets filled by batched additions (Montgomery's
 * trick), for the MSM's bucket stage. Not a public header; included by
 * pippenger.h after xyzz.h (needs fe_inv and fe_equal too).
 *
 * Each bucket is an affine point (x = y = 0 empty) plus an XYZZ overflow
 * bucket. An addition P into bucket B is queued; when the queue holds `cap`
 * additions, one inversion serves them all:
 *   λ = (y_P - y_B) / (x_P - x_B),  x = λ^2 - x_B - x_P,  y = λ(x_B - x) - y_B,
 * 6M per addition (1M prefix product, 2M back pass, 1M λ, 1S, 1M) plus
 * 1 inversion / cap. Additions the batch cannot take go to the overflow
 * bucket (mixed XYZZ addition, 8M + 2S): the bucket already has a queued
 * addition, or x_P = x_B (doubling or cancellation). So every input, however
 * its digits collide, costs at most what the XYZZ path costs plus the
 * queue's bookkeeping. */
#include <stdint.h>

#define BA_MAX_BATCH 512

typedef struct {
    AFF *acc;       /* nb affine buckets */
    xyzz *ovf;      /* nb overflow buckets */
    uint8_t *busy;  /* nb flags: the bucket has a queued addition */
    FE *dx, *pre;   /* per queued addition: x_P - x_B, prefix product before it */
    const AFF **pt; /* per queued addition: the point */
    uint32_t *bk;   /* per queued addition: bucket index, top bit = negate P */
    size_t cap, len;
} ba_state;

/* Bytes of one worker's state for nb buckets, each array 64-byte aligned. */
#define BA_ALIGN(x) (((x) + 63) & ~(size_t)63)
static inline size_t ba_bytes(size_t nb) {
    return BA_ALIGN(nb * sizeof(AFF)) + BA_ALIGN(nb * sizeof(xyzz)) + BA_ALIGN(nb) +
           2 * BA_ALIGN(BA_MAX_BATCH * sizeof(FE)) + BA_ALIGN(BA_MAX_BATCH * sizeof(AFF *)) +
           BA_ALIGN(BA_MAX_BATCH * sizeof(uint32_t));
}

/* Lays the state out over mem (ba_bytes(nb) bytes) and empties every bucket. */
static inline void ba_init(ba_state *s, void *mem, size_t nb) {
    uint8_t *p = mem;
    memset(mem, 0, ba_bytes(nb)); /* zero: empty affine and XYZZ buckets, no flags */
    s->acc = (AFF *)p;
    p += BA_ALIGN(nb * sizeof(AFF));
    s->ovf = (xyzz *)p;
    p += BA_ALIGN(nb * sizeof(xyzz));
    s->busy = p;
    p += BA_ALIGN(nb);
    s->dx = (FE *)p;
    p += BA_ALIGN(BA_MAX_BATCH * sizeof(FE));
    s->pre = (FE *)p;
    p += BA_ALIGN(BA_MAX_BATCH * sizeof(FE));
    s->pt = (const AFF **)p;
    p += BA_ALIGN(BA_MAX_BATCH * sizeof(AFF *));
    s->bk = (uint32_t *)p;
    s->cap = nb / 16;
    if (s->cap < 16) s->cap = 16;
    if (s->cap > BA_MAX_BATCH) s->cap = BA_MAX_BATCH;
    s->len = 0;
}

/* Performs every queued addition: 1 inversion + 6M each. */
static inline void ba_flush(ba_state *s) {
    size_t n = s->len;
    if (n == 0) return;
    FE acc, inv, lam, t, u;
    fe_set_one(&acc);
    for (size_t i = 0; i < n; i++) {
        const AFF *b = &s->acc[s->bk[i] & 0x7fffffffu];
        fe_sub(&s->dx[i], &s->pt[i]->x, &b->x);
        s->pre[i] = acc;
        fe_mul(&acc, &acc, &s->dx[i]);
    }
    fe_inv(&acc, &acc);
    for (size_t i = n; i-- > 0;) {
        uint32_t k = s->bk[i] & 0x7fffffffu;
        AFF *b = &s->acc[k];
        const AFF *p = s->pt[i];
        fe_mul(&inv, &acc, &s->pre[i]); /* 1 / dx_i */
        fe_mul(&acc, &acc, &s->dx[i]);
        if (s->bk[i] >> 31) {
            fe_add(&t, &p->y, &b->y);
            fe_neg(&t, &t);
        } else {
            fe_sub(&t, &p->y, &b->y);
        }
        fe_mul(&lam, &t, &inv);
        fe_sqr(&t, &lam);
        fe_sub(&t, &t, &b->x);
        fe_sub(&t, &t, &p->x);
        fe_sub(&u, &b->x, &t);
        fe_mul(&u, &u, &lam);
        fe_sub(&b->y, &u, &b->y);
        b->x = t;
        s->busy[k] = 0;
    }
    s->len = 0;
}

/* Bucket k += (neg ? -P : P) for a finite affine P. */
static inline void ba_add(ba_state *s, size_t k, const AFF *p, bool neg) {
    AFF *b = &s->acc[k];
    if (s->busy[k]) {
        xyzz_add_xy(&s->ovf[k], &p->x, &p->y, neg);
        return;
    }
    if (aff_xy_is_inf(b)) {
        b->x = p->x;
        if (neg) fe_neg(&b->y, &p->y);
        else b->y = p->y;
        return;
    }
    if (fe_equal(&b->x, &p->x)) {
        xyzz_add_xy(&s->ovf[k], &p->x, &p->y, neg);
        return;
    }
    s->busy[k] = 1;
    s->pt[s->len] = p;
    s->bk[s->len] = (uint32_t)k | (neg ? 0x80000000u : 0);
    if (++s->len == s->cap) ba_flush(s);
}

/* Σ_i (i+1)·bucket_i after the last flush, by running sums: per bucket one
 * mixed addition (affine part), one XYZZ addition (overflow part, skipped
 * when empty) and one XYZZ addition to the total. */
static inline void ba_reduce(xyzz *tot, ba_state *s, size_t nb) {
    ba_flush(s);
    xyzz run;
    xyzz_set_inf(&run);
    xyzz_set_inf(tot);
    for (size_t i = nb; i-- > 0;) {
        const AFF *b = &s->acc[i];
        if (!aff_xy_is_inf(b)) xyzz_add_xy(&run, &b->x, &b->y, false);
        xyzz_add(&run, &s->ovf[i]);
        xyzz_add(tot, &run);
    }
}
