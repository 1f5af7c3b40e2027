/* czk — a Filecoin request prepared for its circuit: decoded and checked
 * once, at submit (czk_fil_request_prepare, include/czk/filecoin_request.h),
 * and the public inputs of its partitions as the verifiers compute them. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "czk/filecoin_c1.h"
#include "czk/filecoin_porep.h"
#include "czk/filecoin_post.h"
#include "czk/filecoin_post_input.h"
#include "czk/filecoin_request.h"
#include "czk/filecoin_update.h"

/* ---- PoRep C2 ---------------------------------------------------------------- */

static void c1_free(void *p) {
    czk_fil_c1_free(p);
    free(p);
}

static bool all_zero(const uint8_t b[32]) {
    for (int i = 0; i < 32; i++)
        if (b[i]) return false;
    return true;
}

/* What seal_commit_phase2 refuses before proving (filecoin-proofs
 * api/seal.rs): a zero comm_d, comm_r or seed, and a C1 without partition
 * proofs. */
static czk_err c1_refuse_empty(const czk_fil_c1 *c1, char *msg, size_t msglen) {
    const char *zero = all_zero(c1->comm_d) ? "comm_d" : all_zero(c1->comm_r) ? "comm_r"
                       : all_zero(c1->seed) && c1->proof->feature != CZK_FIL_FEATURE_NON_INTERACTIVE ? "seed"
                                                                                                 : NULL;
    if (zero) {
        snprintf(msg, msglen, "%s is all zero (seal_commit_phase2 refuses it)", zero);
        return CZK_ERR_INVALID_ARGUMENT;
    }
    if (c1->n_partitions == 0) {
        snprintf(msg, msglen, "vanilla_proofs has no partition proofs");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    return CZK_OK;
}

static czk_err prepare_porep(const czk_fil_request *r, czk_fil_prepared *out, char *msg, size_t msglen) {
    if (!r->vanilla_proof.len) {
        snprintf(msg, msglen, "vanilla_proof is empty: a PoRep C2 request carries the C1 output there");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    const czk_fil_seal_proof *sp = czk_fil_seal_proof_get(r->registered_proof);
    if (sp && sp->feature == CZK_FIL_FEATURE_NON_INTERACTIVE) {
        snprintf(msg, msglen,
                 "registered_proof %" PRIu64 " (%s) is NI-PoRep: Filecoin's seal_commit_phase2 returns a SnarkPack "
                 "aggregate of its partition proofs, and czk does not aggregate yet",
                 r->registered_proof, sp->name);
        return CZK_ERR_UNSUPPORTED;
    }
    czk_fil_c1 *c1 = calloc(1, sizeof *c1);
    if (!c1) return CZK_ERR_NO_MEMORY;
    char m[768] = "";
    czk_err e = czk_fil_c1_decode(c1, r->vanilla_proof.data, r->vanilla_proof.len, m, sizeof m);
    if (e == CZK_OK) e = czk_fil_c1_check_request(c1, r->registered_proof, r->sector_size, r->miner_id,
                                                 r->sector_number, m, sizeof m);
    if (e == CZK_OK) e = c1_refuse_empty(c1, m, sizeof m);
    if (e == CZK_OK) {
        /* about 3 s of one core for a 32 GiB C1: spread over up to 8 threads */
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        e = czk_fil_c1_validate_threads(c1, cpus < 1 ? 1 : cpus > 8 ? 8 : (size_t)cpus, m, sizeof m);
    }
    if (e != CZK_OK) {
        snprintf(msg, msglen, "vanilla_proof (the C1 output): %s", m[0] ? m : czk_err_str(e));
        c1_free(c1);
        return e == CZK_ERR_NO_MEMORY ? e : CZK_ERR_INVALID_ARGUMENT;
    }
    out->circuit_id = c1->proof->circuit_id;
    out->partitions = c1->n_partitions;
    out->data = c1->partitions;
    out->bytes = sizeof *c1 + czk_fil_c1_bytes(c1);
    out->owner = c1;
    out->free_fn = c1_free;
    return CZK_OK;
}

static czk_err porep_inputs(const czk_fil_prepared *p, size_t k, czk_fr *out, size_t cap, size_t *n, char *msg,
                            size_t msglen) {
    const czk_fil_c1 *c1 = p->owner;
    *n = czk_fil_porep_input_count(c1->proof);
    if (cap < *n || !out) return CZK_ERR_BAD_LENGTH;
    czk_fil_porep_instance in = {.proof = c1->proof};
    memcpy(in.replica_id, c1->replica_id, 32);
    memcpy(in.comm_d, c1->comm_d, 32);
    memcpy(in.comm_r, c1->comm_r, 32);
    memcpy(in.seed, c1->seed, 32);
    return czk_fil_porep_public_inputs(&in, (uint32_t)k, out, msg, msglen);
}

/* ---- WindowPoSt, WinningPoSt ------------------------------------------------------ */

static void post_free(void *p) {
    czk_fil_post_partition_free(p);
    free(p);
}

/* A decoder's failure as the request's: out of memory stays so, every other
 * is a bad request (the message already names the field). */
static czk_err as_request_error(czk_err e) {
    return e == CZK_ERR_NO_MEMORY ? e : CZK_ERR_INVALID_ARGUMENT;
}

/* sector_size is optional for these kinds (Curio sends it); when given it
 * must be the registered proof's. */
static czk_err check_sector_size(const czk_fil_request *r, uint64_t size, const char *name, char *msg, size_t msglen) {
    if (!r->sector_size || r->sector_size == size) return CZK_OK;
    snprintf(msg, msglen, "sector_size %" PRIu64 " is not %s's %" PRIu64, r->sector_size, name, size);
    return CZK_ERR_INVALID_ARGUMENT;
}

static czk_err check_bytes32(const czk_fil_bytes *b, const char *field, char *msg, size_t msglen) {
    if (b->len == 32) return CZK_OK;
    snprintf(msg, msglen, "%s must be 32 bytes, not %zu", field, b->len);
    return CZK_ERR_INVALID_ARGUMENT;
}

static czk_err prepare_post(const czk_fil_request *r, czk_fil_prepared *out, char *msg, size_t msglen) {
    const czk_fil_post_proof *pp = czk_fil_post_proof_get(r->registered_proof);
    if (!pp) {
        snprintf(msg, msglen, "registered_proof %" PRIu64 " is not a RegisteredPoStProof (0 to %zu)",
                 r->registered_proof, czk_fil_post_proof_count() - 1);
        return CZK_ERR_INVALID_ARGUMENT;
    }
    bool winning = r->kind == CZK_FIL_KIND_WINNING_POST;
    if (winning != (pp->kind == CZK_FIL_POST_WINNING)) {
        snprintf(msg, msglen, "registered_proof %" PRIu64 " (%s) is a %s proof, not one for %s", r->registered_proof,
                 pp->name, pp->kind == CZK_FIL_POST_WINNING ? "WinningPoSt" : "WindowPoSt",
                 czk_fil_kind_name(r->kind));
        return CZK_ERR_INVALID_ARGUMENT;
    }
    czk_err e;
    if ((e = check_sector_size(r, pp->sector_size, pp->name, msg, msglen)) ||
        (e = check_bytes32(&r->randomness, "randomness", msg, msglen)))
        return e;
    if (!r->n_vanilla_proofs) {
        snprintf(msg, msglen, "vanilla_proofs is empty: a %s request carries one FallbackPoStSectorProof per sector",
                 czk_fil_kind_name(r->kind));
        return CZK_ERR_INVALID_ARGUMENT;
    }
    czk_fil_post_partition *part = calloc(1, sizeof *part);
    if (!part) return CZK_ERR_NO_MEMORY;
    e = czk_fil_post_decode(pp, r->miner_id, r->partition_index, r->randomness.data, r->vanilla_proofs,
                            r->n_vanilla_proofs, part, msg, msglen);
    if (e != CZK_OK) {
        free(part);
        return as_request_error(e);
    }
    out->circuit_id = pp->circuit_id;
    out->partitions = 1;
    out->data = part;
    out->bytes = sizeof *part + czk_fil_post_partition_bytes(part);
    out->owner = part;
    out->free_fn = post_free;
    return CZK_OK;
}

static czk_err post_inputs(const czk_fil_prepared *p, czk_fr *out, size_t cap, size_t *n, char *msg,
                           size_t msglen) {
    const czk_fil_post_partition *part = p->owner;
    const czk_fil_post_proof *pp = czk_fil_post_proof_get(part->registered_proof);
    *n = czk_fil_post_input_count(pp);
    if (cap < *n || !out) return CZK_ERR_BAD_LENGTH;
    return czk_fil_post_public_inputs(pp, part, out, cap, n, msg, msglen);
}

/* ---- SnapDeals ------------------------------------------------------------------- */

typedef struct {
    czk_fil_update_partition *parts;
    size_t n;
} update_job;

static void update_free(void *p) {
    update_job *u = p;
    czk_fil_update_partitions_free(u->parts, u->n);
    free(u);
}

static czk_err prepare_update(const czk_fil_request *r, czk_fil_prepared *out, char *msg, size_t msglen) {
    const czk_fil_update_proof *up = czk_fil_update_proof_get(r->registered_proof);
    if (!up) {
        snprintf(msg, msglen, "registered_proof %" PRIu64 " is not a RegisteredUpdateProof (0 to %zu)",
                 r->registered_proof, czk_fil_update_proof_count() - 1);
        return CZK_ERR_INVALID_ARGUMENT;
    }
    czk_err e;
    if ((e = check_sector_size(r, up->sector_size, up->name, msg, msglen)) ||
        (e = check_bytes32(&r->comm_r_old, "comm_r_old", msg, msglen)) ||
        (e = check_bytes32(&r->comm_r_new, "comm_r_new", msg, msglen)) ||
        (e = check_bytes32(&r->comm_d_new, "comm_d_new", msg, msglen)))
        return e;
    if (r->n_vanilla_proofs != up->partitions) {
        snprintf(msg, msglen, "vanilla_proofs has %zu partition proofs; %s has %u partitions", r->n_vanilla_proofs,
                 up->name, up->partitions);
        return CZK_ERR_INVALID_ARGUMENT;
    }
    update_job *u = calloc(1, sizeof *u);
    if (!u) return CZK_ERR_NO_MEMORY;
    e = czk_fil_update_decode(up, r->comm_r_old.data, r->comm_d_new.data, r->comm_r_new.data, r->vanilla_proofs,
                              r->n_vanilla_proofs, &u->parts, msg, msglen);
    if (e != CZK_OK) {
        free(u);
        return as_request_error(e);
    }
    u->n = r->n_vanilla_proofs;
    out->circuit_id = up->circuit_id;
    out->partitions = u->n;
    out->data = u->parts;
    out->bytes = sizeof *u + u->n * sizeof *u->parts;
    for (size_t i = 0; i < u->n; i++) out->bytes += czk_fil_update_partition_bytes(&u->parts[i]);
    out->owner = u;
    out->free_fn = update_free;
    return CZK_OK;
}

static czk_err update_inputs(const czk_fil_prepared *p, size_t k, czk_fr *out, size_t cap, size_t *n, char *msg,
                             size_t msglen) {
    const update_job *u = p->owner;
    const czk_fil_update_partition *part = &u->parts[k];
    *n = czk_fil_update_input_count();
    if (cap < *n || !out) return CZK_ERR_BAD_LENGTH;
    return czk_fil_update_public_inputs(czk_fil_update_proof_get(part->registered_proof), (uint32_t)k,
                                        part->comm_r_old, part->comm_d_new, part->comm_r_new, out, cap, n, msg,
                                        msglen);
}

/* ---- dispatch ---------------------------------------------------------------- */

czk_err czk_fil_request_prepare(const czk_fil_request *r, czk_fil_prepared *out, char *msg, size_t msglen) {
    memset(out, 0, sizeof *out);
    if (msglen) msg[0] = 0;
    czk_err e = r->kind != CZK_FIL_KIND_NONE ? czk_fil_request_check_size(r, msg, msglen) : CZK_OK;
    if (e) return e;
    switch (r->kind) {
    case CZK_FIL_KIND_POREP_C2: e = prepare_porep(r, out, msg, msglen); break;
    case CZK_FIL_KIND_WINDOW_POST:
    case CZK_FIL_KIND_WINNING_POST: e = prepare_post(r, out, msg, msglen); break;
    case CZK_FIL_KIND_SNAP: e = prepare_update(r, out, msg, msglen); break;
    default:
        snprintf(msg, msglen, "proof_kind %d is not a Filecoin proof kind", (int)r->kind);
        e = CZK_ERR_INVALID_ARGUMENT;
    }
    if (e == CZK_OK) out->kind = r->kind;
    else czk_fil_prepared_free(out);
    return e;
}

czk_err czk_fil_prepared_public_inputs(const czk_fil_prepared *p, size_t k, czk_fr *out, size_t cap, size_t *n,
                                       char *msg, size_t msglen) {
    *n = 0;
    if (k >= p->partitions) {
        snprintf(msg, msglen, "partition %zu of %zu", k, p->partitions);
        return CZK_ERR_INVALID_ARGUMENT;
    }
    switch (p->kind) {
    case CZK_FIL_KIND_POREP_C2: return porep_inputs(p, k, out, cap, n, msg, msglen);
    case CZK_FIL_KIND_WINDOW_POST:
    case CZK_FIL_KIND_WINNING_POST: return post_inputs(p, out, cap, n, msg, msglen);
    case CZK_FIL_KIND_SNAP: return update_inputs(p, k, out, cap, n, msg, msglen);
    default: snprintf(msg, msglen, "no public inputs for this kind"); return CZK_ERR_UNSUPPORTED;
    }
}

void czk_fil_prepared_free(czk_fil_prepared *p) {
    if (!p) return;
    if (p->free_fn) p->free_fn(p->owner);
    memset(p, 0, sizeof *p);
}
