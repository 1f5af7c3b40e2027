/* czk — the setup's host-side scalar stages (czk/setup_scalars.h) on one
 * circuit: compact recording, Lagrange basis at τ, u v w (the transposed
 * product), ext, the counts of a and b, and the zero compaction, each
 * timed once on the default pool (CZK_THREADS), with the process's peak
 * RSS. What czk_gpu_setup_write does before its first kernel.
 * usage: bench_setup_scalars [CIRCUIT] (default synthetic-20) */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "bench.h"
#include "czk/circuit.h"
#include "czk/mem.h"
#include "czk/r1cs_compact.h"
#include "czk/setup_scalars.h"

static czk_err adapter(czk_cs *cs, void *ctx) {
    const czk_circuit *c = ctx;
    return c->synthesize(cs, c, 0, 0);
}

static double lap(double *t) {
    double n = bench_now_ns(), d = (n - *t) / 1e9;
    *t = n;
    return d;
}

int main(int argc, char **argv) {
    const char *id = argc > 1 ? argv[1] : "synthetic-20";
    char msg[512] = "";
    czk_circuit c;
    if (czk_circuit_find(&c, id, msg, sizeof msg) != CZK_OK) {
        fprintf(stderr, "%s\n", msg);
        return 2;
    }
    czk_pool *pool = czk_pool_default();
    double t = bench_now_ns();
    czk_r1cs_compact r;
    if (czk_r1cs_compact_record(&r, adapter, &c, msg, sizeof msg) != CZK_OK) {
        fprintf(stderr, "%s\n", msg);
        return 1;
    }
    const size_t ni = r.n_inputs, nv = r.n_inputs + r.n_aux;
    printf("%s: %zu constraints, %zu variables, nnz %llu + %llu + %llu, %d threads\n", id, r.n_constraints, nv,
           (unsigned long long)r.a.nnz, (unsigned long long)r.b.nnz, (unsigned long long)r.c.nnz,
           czk_pool_slots(pool));
    printf("  record (compact)   %8.2f s\n", lap(&t));
    czk_domain dom;
    if (czk_domain_init(&dom, r.n_constraints + ni) != CZK_OK) return 1;
    czk_toxic tx;
    czk_toxic_from_seed(&tx, 1);
    czk_fr *L = czk_mem_alloc(dom.n * sizeof(czk_fr), CZK_MEM_AUX);
    czk_fr *u = czk_mem_alloc(nv * sizeof(czk_fr), CZK_MEM_AUX), *v = czk_mem_alloc(nv * sizeof(czk_fr), CZK_MEM_AUX);
    czk_fr *w = czk_mem_alloc(nv * sizeof(czk_fr), CZK_MEM_AUX);
    if (!L || !u || !v || !w) return 1;
    lap(&t);
    czk_domain_lagrange_at(&dom, &tx.tau, L, pool);
    printf("  Lagrange (2^%d)     %8.2f s\n", __builtin_ctzll(dom.n), lap(&t));
    czk_setup_qap_compact(&r, L, u, v, w, pool);
    printf("  u, v, w            %8.2f s\n", lap(&t));
    czk_fr coeff;
    czk_setup_h_coeff(&coeff, &dom, &tx, msg, sizeof msg);
    czk_setup_powers(L, 0, dom.n - 1, &coeff, &tx.tau, pool);
    printf("  h's powers         %8.2f s\n", lap(&t));
    czk_mem_free(L);
    czk_err e = czk_setup_ext(w, u, v, ni, nv, &tx, pool, msg, sizeof msg);
    printf("  ext                %8.2f s%s%s\n", lap(&t), e ? ": " : "", e ? msg : "");
    size_t na = czk_setup_count_nonzero(u, nv, pool), nb = czk_setup_count_nonzero(v, nv, pool);
    printf("  counts             %8.2f s (a %zu, b %zu)\n", lap(&t), na, nb);
    czk_setup_compact_nonzero(u, nv);
    czk_setup_compact_nonzero(v, nv);
    printf("  zeros dropped      %8.2f s\n", lap(&t));
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("  peak RSS           %8.2f GiB\n", (double)ru.ru_maxrss / (1024.0 * 1024.0));
    czk_mem_free(u);
    czk_mem_free(v);
    czk_mem_free(w);
    czk_domain_free(&dom);
    czk_r1cs_compact_free(&r);
    return 0;
}
