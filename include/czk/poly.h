/* czk — radix-2 evaluation domains over Fr and the number-theoretic transform
 * (NTT), bit-compatible with bellperson's EvaluationDomain.
 *
 * A domain of size n = 2^k has ω = the primitive n-th root of unity obtained by
 * squaring Fr's 2^32-th root of unity down (czk_fr_root_of_unity(k)), and the
 * coset generator g = 7 (Fr's multiplicative generator). Every result is an
 * exact field value, so it is the same bit for bit for any algorithm, thread
 * count or pool; bellperson's values are reproduced exactly.
 *
 * Memory: a domain owns O(sqrt(n)) table entries (twiddles of the in-cache
 * transforms and the coset power tables: 3 MiB at n = 2^27, 11 MiB at 2^31). A transform works in place; above 2^12
 * points it takes per-thread scratch of O(sqrt(n)) points for its column
 * passes (at most 2 MiB per pool slot, from czk_mem_alloc with tag
 * CZK_MEM_AUX, freed before it returns) and, when that allocation fails, falls
 * back to a slower serial in-place radix-2 transform that needs none. A
 * domain is read-only after init and may be used by several threads at once.
 *
 * Cost: a forward or inverse transform of size n is n/2·log2(n) butterflies
 * (one multiplication each) plus 2n multiplications per four-step level (none
 * up to n = 2^12, one up to 2^28, two beyond), and a cache-blocked
 * bit-reversal permutation when the output order is natural. Every pass but the bit reversal works on blocks of at most
 * 2 MiB; a level reads and writes the vector twice. */
#ifndef CZK_POLY_H
#define CZK_POLY_H

#include <stdbool.h>
#include <stddef.h>
#include "czk/err.h"
#include "czk/fr.h"
#include "czk/pool.h"

/* bellperson refuses domains of 2^32 or more (exp >= Fr::S): the largest is 2^31. */
#define CZK_DOMAIN_MAX_LOG 31

typedef struct {
    size_t n;          /* 2^log_n */
    unsigned log_n;
    czk_fr omega;      /* primitive n-th root of unity */
    czk_fr omega_inv;
    czk_fr n_inv;      /* 1/n */
    czk_fr coset;      /* g = 7 */
    czk_fr coset_inv;  /* 1/7 */
    /* private: the transform plan and tables (see src/poly/ntt_internal.h) */
    unsigned leaf_log; /* transforms of at most 2^leaf_log points run in cache */
    unsigned tw_log;   /* the stage tables cover transforms of up to 2^tw_log points */
    unsigned row_log;  /* low bits of the coset table split (the top-level row size) */
    czk_fr *tw_fwd;    /* stage with half-size h at [h-1, 2h-1): ω_{2h}^j, j < h */
    czk_fr *tw_inv;    /* the same with ω_{2h}^-j */
    czk_fr root[CZK_DOMAIN_MAX_LOG + 1];     /* root[k] = ω_{2^k}, k <= log_n */
    czk_fr root_inv[CZK_DOMAIN_MAX_LOG + 1]; /* root_inv[k] = ω_{2^k}^-1 */
    /* coset factors, p = hi·2^row_log + lo: factor = hi_table[hi] · lo_table[lo] */
    czk_fr *g_nat_hi, *g_nat_lo;   /* g^p */
    czk_fr *g_rev_hi, *g_rev_lo;   /* g^rev(p) (rev: bit reversal on log_n bits) */
    czk_fr *gi_rev_hi, *gi_rev_lo; /* g^-rev(p) */
    void *mem;                     /* one allocation holding every table */
} czk_domain;

/* n = the smallest power of two >= max(min_size, 1). CZK_ERR_UNSUPPORTED when
 * n would exceed 2^31 (bellperson's PolynomialDegreeTooLarge: Fr has no
 * radix-2 domain of 2^32 points in its scheme), CZK_ERR_INVALID_ARGUMENT for a
 * NULL d, CZK_ERR_NO_MEMORY. On error *d is left empty (czk_domain_free safe). */
czk_err czk_domain_init(czk_domain *d, size_t min_size);
/* Frees the tables; d may be NULL or empty. */
void czk_domain_free(czk_domain *d);

/* In place, natural order in and out. a has d->n elements. */
void czk_ntt(const czk_domain *d, czk_fr *a, czk_pool *pool);        /* a_i <- Σ_j a_j ω^(ij) */
void czk_intt(const czk_domain *d, czk_fr *a, czk_pool *pool);       /* a_i <- 1/n Σ_j a_j ω^(-ij) */
void czk_coset_ntt(const czk_domain *d, czk_fr *a, czk_pool *pool);  /* a_i <- Σ_j a_j (g·ω^i)^j */
void czk_coset_intt(const czk_domain *d, czk_fr *a, czk_pool *pool); /* inverse of czk_coset_ntt */

/* The building blocks, with bit-reversed order on one side (rev(k) reverses
 * log_n bits); no 1/n factor. inverse selects ω^-1.
 * dif: natural in, bit-reversed out: a[rev(k)] <- Σ_j a_j ω^(±jk).
 * dit: bit-reversed in, natural out: a[k] <- Σ_j a[rev(j)] ω^(±jk). */
void czk_ntt_dif(const czk_domain *d, czk_fr *a, bool inverse, czk_pool *pool);
void czk_ntt_dit(const czk_domain *d, czk_fr *a, bool inverse, czk_pool *pool);
/* a[i] <-> a[rev(i)] on log_n bits, in place; an involution. */
void czk_ntt_bitrev(czk_fr *a, unsigned log_n, czk_pool *pool);

/* The values of bellperson's execute_fft. a, b, c are the n evaluations of
 * A, B, C on the domain (zero-padded by the caller). Computes the
 * coefficients of h = (A·B - C)/Z, Z = x^n - 1, through the coset g·ω^i: on
 * return a[0..n-2] hold h's n-1 coefficients and a[n-1] is zero when A·B - C
 * vanishes on the domain; b and c are clobbered. Cost: 6 transforms of size
 * n (bellperson's 7 less c's coset transform, see poly_h.c) plus ~5n
 * multiplications; no allocation beyond the transforms' scratch.
 * CZK_ERR_INVALID_ARGUMENT for NULL pointers. */
czk_err czk_poly_h(const czk_domain *d, czk_fr *a, czk_fr *b, czk_fr *c, czk_pool *pool);

/* out[i] = L_i(τ), the i-th Lagrange basis polynomial of the domain at τ: the
 * values bellperson's generator obtains from an inverse NTT of
 * (1, τ, ..., τ^(n-1)). Computed in O(n) from L_i(τ) = (τ^n - 1)/n · ω^i/(τ - ω^i)
 * (L_i(ω^j) = δ_ij), about 6 multiplications per point and one inversion per
 * pool chunk. out has d->n elements. */
void czk_domain_lagrange_at(const czk_domain *d, const czk_fr *tau, czk_fr *out, czk_pool *pool);
/* *out = Z(τ) = τ^n - 1. */
void czk_domain_z(const czk_domain *d, const czk_fr *tau, czk_fr *out);

#endif
