/* czk — checking a C1 output against its registered proof (filecoin_c1.h
 * czk_fil_c1_validate, czk_fil_c1_check_request), as storage-proofs-porep's
 * vanilla verifier (stacked/vanilla/params.rs Proof::verify,
 * ReplicaColumnProof::verify, ColumnProof::verify, LabelingProof::verify,
 * EncodingProof::verify) and the circuit's inclusion proofs would. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c1_hash.h"
#include "czk/filecoin_c1.h"
#include "czk/filecoin_graph.h"
#include "czk/filecoin_porep.h"
#include "czk/fr.h"
#include "czk/poseidon.h"

typedef struct {
    char *msg;
    size_t msglen;
} out_msg;

static czk_err fail(out_msg *o, czk_err e, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static czk_err fail(out_msg *o, czk_err e, const char *fmt, ...) {
    if (o->msg && o->msglen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(o->msg, o->msglen, fmt, ap);
        va_end(ap);
    }
    return e;
}

static void hex8(char out[20], const uint8_t v[32]) {
    static const char d[] = "0123456789abcdef";
    for (int i = 0; i < 8; i++) out[2 * i] = d[v[i] >> 4], out[2 * i + 1] = d[v[i] & 15];
    memcpy(out + 16, "…", sizeof "…");
}

static bool canonical(const uint8_t v[32]) {
    czk_fr x;
    return czk_fr_from_bytes_le(&x, v);
}

/* what a tree's proofs must look like */
typedef struct {
    czk_fil_c1_hasher hasher;
    uint8_t kind;
    uint8_t n_base, n_sub, n_top;
    uint8_t a_base, a_sub, a_top;
} shape;

static unsigned log_of(uint64_t x, unsigned base) {
    unsigned n = 0;
    while (x > 1) x /= base, n++;
    return n;
}

static shape shape_r(const czk_fil_seal_proof *p) {
    shape s = {CZK_FIL_C1_POSEIDON, CZK_FIL_PROOF_SINGLE, 0, 0, 0, p->tree_base, p->tree_sub, p->tree_top};
    uint64_t leaves = p->nodes / (p->tree_sub ? p->tree_sub : 1) / (p->tree_top ? p->tree_top : 1);
    s.n_base = (uint8_t)log_of(leaves, p->tree_base);
    if (p->tree_sub) s.kind = CZK_FIL_PROOF_SUB, s.n_sub = 1;
    if (p->tree_top) s.kind = CZK_FIL_PROOF_TOP, s.n_top = 1;
    return s;
}

static shape shape_d(const czk_fil_seal_proof *p) {
    shape s = {CZK_FIL_C1_SHA256, CZK_FIL_PROOF_SINGLE, (uint8_t)log_of(p->nodes, 2), 0, 0, 2, 0, 0};
    return s;
}

static const char *const KIND[3] = {"Single", "Sub", "Top"};

/* One Merkle proof: its variant and split, every level's arity, the node
 * its indices select, the leaf it states against the one expected, the root
 * its path reaches against the one it states, and that against the
 * expected root (named root_name). */
static czk_err check_merkle(out_msg *o, const char *field, const shape *s, const czk_fil_path *path,
                            const czk_fil_c1_merkle *m, uint64_t node, const uint8_t leaf[32], const char *leaf_name,
                            const uint8_t root[32], const char *root_name) {
    if (m->kind != s->kind)
        return fail(o, CZK_ERR_MISMATCH, "%s: a %s proof, the sector's tree takes %s", field,
                    m->kind <= 2 ? KIND[m->kind] : "?", KIND[s->kind]);
    if (m->n_base != s->n_base || m->n_sub != s->n_sub || m->n_top != s->n_top ||
        path->n_levels != (size_t)s->n_base + s->n_sub + s->n_top)
        return fail(o, CZK_ERR_MISMATCH, "%s: path of %u + %u + %u levels, the sector's tree has %u + %u + %u", field,
                    m->n_base, m->n_sub, m->n_top, s->n_base, s->n_sub, s->n_top);
    uint64_t pos = 0, mult = 1;
    for (size_t l = 0; l < path->n_levels; l++) {
        unsigned want = l < s->n_base ? s->a_base : l < (size_t)s->n_base + s->n_sub ? s->a_sub : s->a_top;
        const czk_fil_path_level *lv = &path->levels[l];
        if (lv->arity != want)
            return fail(o, CZK_ERR_MISMATCH, "%s: level %zu has %u hashes (arity %u), the tree's arity there is %u",
                        field, l, lv->arity - 1u, lv->arity, want);
        if (lv->index >= lv->arity)
            return fail(o, CZK_ERR_MISMATCH, "%s: level %zu index %u outside arity %u", field, l, lv->index, lv->arity);
        for (unsigned j = 0; j + 1 < lv->arity; j++)
            if (!canonical(lv->siblings[j]))
                return fail(o, CZK_ERR_NOT_CANONICAL, "%s: level %zu hashes[%u] is not a canonical Fr", field, l, j);
        pos += mult * lv->index;
        mult *= lv->arity;
    }
    if (pos != node)
        return fail(o, CZK_ERR_MISMATCH, "%s: path selects node %llu, not %llu", field, (unsigned long long)pos,
                    (unsigned long long)node);
    if (!canonical(m->leaf)) return fail(o, CZK_ERR_NOT_CANONICAL, "%s: leaf is not a canonical Fr", field);
    if (!canonical(m->root)) return fail(o, CZK_ERR_NOT_CANONICAL, "%s: root is not a canonical Fr", field);
    char h1[20], h2[20];
    if (memcmp(m->leaf, leaf, 32) != 0) {
        hex8(h1, m->leaf), hex8(h2, leaf);
        return fail(o, CZK_ERR_MISMATCH, "%s: leaf %s is not %s (%s)", field, h1, leaf_name, h2);
    }
    uint8_t got[32];
    size_t bl = 0;
    int bs = 0;
    czk_err e = czk_fil_c1_path_root(s->hasher, path, 0, path->n_levels, m->leaf, got, &bl, &bs);
    if (e == CZK_ERR_NO_MEMORY) return fail(o, e, "%s: out of memory hashing", field);
    if (e) return fail(o, CZK_ERR_MISMATCH, "%s: level %zu cannot be hashed (%s)", field, bl, czk_err_str(e));
    if (memcmp(got, m->root, 32) != 0) {
        hex8(h1, got), hex8(h2, m->root);
        return fail(o, CZK_ERR_MISMATCH, "%s: path hashes to %s, not its root %s", field, h1, h2);
    }
    if (memcmp(m->root, root, 32) != 0) {
        hex8(h1, m->root), hex8(h2, root);
        return fail(o, CZK_ERR_MISMATCH, "%s: root %s is not %s (%s)", field, h1, root_name, h2);
    }
    return CZK_OK;
}

static czk_err check_column(out_msg *o, const char *field, const czk_fil_seal_proof *p, const shape *sr,
                            const czk_fil_column *col, uint32_t want_index, const czk_fil_c1_merkle *m,
                            const uint8_t comm_c[32]) {
    char f[256];
    if (col->index != want_index)
        return fail(o, CZK_ERR_MISMATCH, "%s.column.index: %u, the graph's parent is %u", field, col->index, want_index);
    if (col->n_rows != p->layers)
        return fail(o, CZK_ERR_MISMATCH, "%s.column.rows: %zu rows, the proof has %u layers", field, col->n_rows, p->layers);
    uint8_t h[32];
    size_t bad = 0;
    czk_err e = czk_fil_c1_column_hash((const uint8_t(*)[32])col->rows, col->n_rows, h, &bad);
    if (e == CZK_ERR_NOT_CANONICAL)
        return fail(o, e, "%s.column.rows[%zu]: not a canonical Fr", field, bad);
    if (e) return fail(o, e, "%s.column: cannot hash %zu rows", field, col->n_rows);
    snprintf(f, sizeof f, "%s.inclusion_proof", field);
    return check_merkle(o, f, sr, &col->path, m, col->index, h, "the column's hash", comm_c, "comm_c");
}

static czk_err check_challenge(out_msg *o, const czk_fil_c1 *c1, const czk_fil_graph *g, size_t k, size_t i,
                               uint64_t want_node, const uint8_t comm_c[32], const uint8_t comm_r_last[32]) {
    const czk_fil_seal_proof *p = c1->proof;
    const czk_fil_porep_challenge *c = &c1->partitions[k].challenges[i];
    const czk_fil_c1_claims *cl = &c1->claims[k][i];
    char base[64], f[256];
    snprintf(base, sizeof base, "vanilla_proofs[%zu][%zu]", k, i);
    if (c->node != want_node)
        return fail(o, CZK_ERR_MISMATCH, "%s.replica_column_proofs.c_x.column.index: challenges node %llu, challenge %zu "
                                         "of partition %zu is node %llu", base, (unsigned long long)c->node, i, k,
                    (unsigned long long)want_node);
    if (cl->n_rows != p->layers)
        return fail(o, CZK_ERR_MISMATCH, "%s.replica_column_proofs.c_x.column.rows: %u rows, the proof has %u layers",
                    base, cl->n_rows, p->layers);
    for (size_t j = 0; j < CZK_FIL_DRG_PARENTS + CZK_FIL_EXP_PARENTS; j++) {
        const czk_fil_column *col = j < CZK_FIL_DRG_PARENTS ? &c->drg_parents[j] : &c->exp_parents[j - CZK_FIL_DRG_PARENTS];
        if (col->n_rows != p->layers || !col->rows)
            return fail(o, CZK_ERR_MISMATCH, "%s.replica_column_proofs.%s[%zu].column.rows: %zu rows, the proof has %u layers",
                        base, j < CZK_FIL_DRG_PARENTS ? "drg_parents" : "exp_parents",
                        j < CZK_FIL_DRG_PARENTS ? j : j - CZK_FIL_DRG_PARENTS, col->n_rows, p->layers);
    }
    shape sd = shape_d(p), sr = shape_r(p);
    czk_err e;
    /* tree_d */
    snprintf(f, sizeof f, "%s.comm_d_proofs", base);
    if (!canonical(c->data_leaf)) return fail(o, CZK_ERR_NOT_CANONICAL, "%s: leaf is not a canonical Fr", f);
    if ((e = check_merkle(o, f, &sd, &c->comm_d_path, &cl->comm_d, c->node, c->data_leaf, "the data leaf", c1->comm_d,
                          "comm_d")))
        return e;
    /* labels: each c_x row is create_label of its parents' rows */
    for (size_t l = 1; l <= p->layers; l++) {
        uint8_t lab[32];
        if (!czk_fil_c1_label(c1->replica_id, c, l, lab)) return fail(o, CZK_ERR_NO_MEMORY, "%s: out of memory", base);
        if (memcmp(lab, cl->c_x_rows[l - 1], 32) != 0) {
            char h1[20], h2[20];
            hex8(h1, cl->c_x_rows[l - 1]), hex8(h2, lab);
            return fail(o, CZK_ERR_MISMATCH,
                        "%s.replica_column_proofs.c_x.column.rows[%zu]: label %s of layer %zu is not SHA-256 of its "
                        "parents (labeling_proofs[%zu]: %s)", base, l - 1, h1, l, l - 1, h2);
        }
    }
    /* c_x */
    uint8_t h[32];
    size_t bad = 0;
    e = czk_fil_c1_column_hash((const uint8_t(*)[32])cl->c_x_rows, cl->n_rows, h, &bad);
    if (e) return fail(o, e, "%s.replica_column_proofs.c_x.column.rows[%zu]: not a canonical Fr", base, bad);
    snprintf(f, sizeof f, "%s.replica_column_proofs.c_x.inclusion_proof", base);
    if ((e = check_merkle(o, f, &sr, &c->comm_c_path, &cl->c_x, c->node, h, "the column's hash", comm_c, "comm_c")))
        return e;
    /* parents */
    uint32_t par[CZK_FIL_DEGREE];
    czk_fil_graph_parents(g, (uint32_t)c->node, par);
    for (size_t j = 0; j < CZK_FIL_DRG_PARENTS; j++) {
        snprintf(f, sizeof f, "%s.replica_column_proofs.drg_parents[%zu]", base, j);
        if ((e = check_column(o, f, p, &sr, &c->drg_parents[j], par[j], &cl->drg[j], comm_c))) return e;
    }
    for (size_t j = 0; j < CZK_FIL_EXP_PARENTS; j++) {
        snprintf(f, sizeof f, "%s.replica_column_proofs.exp_parents[%zu]", base, j);
        if ((e = check_column(o, f, p, &sr, &c->exp_parents[j], par[CZK_FIL_DRG_PARENTS + j], &cl->exp[j], comm_c)))
            return e;
    }
    /* tree_r_last: the leaf is the last label plus the data */
    uint8_t enc[32];
    if (!czk_fil_c1_encode_node(cl->c_x_rows[p->layers - 1], c->data_leaf, enc))
        return fail(o, CZK_ERR_NOT_CANONICAL, "%s: the key or the data leaf is not a canonical Fr", base);
    snprintf(f, sizeof f, "%s.comm_r_last_proof", base);
    return check_merkle(o, f, &sr, &c->comm_r_last_path, &cl->comm_r_last, c->node, enc,
                        "the encoding of the data leaf (encoding_proof)", comm_r_last, "comm_r_last");
}

#define JOB_MSG 512

typedef struct {
    const czk_fil_c1 *c1;
    const czk_fil_porep_instance *inst;
    const czk_fil_graph *g;
    const uint8_t *comm_c, *comm_r_last;
    size_t stride;
    czk_err *errs; /* per partition */
    char *msgs;    /* per partition, JOB_MSG bytes */
} job;

typedef struct {
    job *j;
    size_t first;
    pthread_t th;
} worker;

/* Partitions first, first + stride, …: their challenges drawn and checked. */
static void validate_residue(job *j, size_t first) {
    const czk_fil_c1 *c1 = j->c1;
    uint64_t *nodes = malloc((size_t)c1->proof->challenges_per_partition * sizeof *nodes);
    for (size_t k = first; k < c1->n_partitions; k += j->stride) {
        out_msg o = {j->msgs + k * JOB_MSG, JOB_MSG};
        char sub[256];
        czk_err e;
        if (!nodes) {
            j->errs[k] = fail(&o, CZK_ERR_NO_MEMORY, "vanilla_proofs[%zu]: out of memory", k);
            continue;
        }
        if ((e = czk_fil_porep_challenges(j->inst, (uint32_t)k, nodes, sub, sizeof sub))) {
            j->errs[k] = fail(&o, e, "vanilla_proofs[%zu]: cannot draw the challenges: %s", k, sub);
            continue;
        }
        for (size_t i = 0; i < c1->partitions[k].n_challenges && !e; i++)
            e = check_challenge(&o, c1, j->g, k, i, nodes[i], j->comm_c, j->comm_r_last);
        j->errs[k] = e;
    }
    free(nodes);
}

static void *run_worker(void *arg) {
    worker *w = arg;
    validate_residue(w->j, w->first);
    return NULL;
}

czk_err czk_fil_c1_validate_threads(const czk_fil_c1 *c1, size_t threads, char *msg, size_t msglen) {
    out_msg o = {msg, msglen};
    if (msg && msglen) msg[0] = '\0';
    if (!c1 || !c1->proof) return fail(&o, CZK_ERR_INVALID_ARGUMENT, "registered_proof: none");
    const czk_fil_seal_proof *p = c1->proof;
    if (c1->shape_sector_size && c1->shape_sector_size != p->sector_size)
        return fail(&o, CZK_ERR_MISMATCH, "vanilla_proofs: proofs of a %llu-byte sector, registered_proof %s is for %llu",
                    (unsigned long long)c1->shape_sector_size, p->name, (unsigned long long)p->sector_size);
    if (c1->enveloped && c1->sector_size != p->sector_size)
        return fail(&o, CZK_ERR_MISMATCH, "SectorSize: %llu, registered_proof %s is for %llu-byte sectors",
                    (unsigned long long)c1->sector_size, p->name, (unsigned long long)p->sector_size);
    if (c1->n_partitions != p->partitions)
        return fail(&o, CZK_ERR_MISMATCH, "vanilla_proofs: %zu partitions, %s has %u", c1->n_partitions, p->name,
                    p->partitions);
    if (!c1->partitions || !c1->claims) return fail(&o, CZK_ERR_INVALID_ARGUMENT, "vanilla_proofs: none");
    if (!canonical(c1->replica_id)) return fail(&o, CZK_ERR_NOT_CANONICAL, "replica_id: not a canonical Fr");
    if (!canonical(c1->comm_d)) return fail(&o, CZK_ERR_NOT_CANONICAL, "comm_d: not a canonical Fr");
    if (!canonical(c1->comm_r)) return fail(&o, CZK_ERR_NOT_CANONICAL, "comm_r: not a canonical Fr");
    for (size_t k = 0; k < c1->n_partitions; k++)
        if (c1->partitions[k].n_challenges != p->challenges_per_partition)
            return fail(&o, CZK_ERR_MISMATCH, "vanilla_proofs[%zu]: %zu challenges, %s has %u per partition", k,
                        c1->partitions[k].n_challenges, p->name, p->challenges_per_partition);

    /* comm_c and comm_r_last: partition 0's, all agreeing; comm_r = H(comm_c, comm_r_last) */
    const uint8_t *comm_c = c1->partitions[0].comm_c, *comm_r_last = c1->partitions[0].comm_r_last;
    for (size_t k = 0; k < c1->n_partitions; k++) {
        const czk_fil_porep_partition *pt = &c1->partitions[k];
        if (memcmp(pt->comm_c, comm_c, 32) || memcmp(pt->comm_r_last, comm_r_last, 32))
            return fail(&o, CZK_ERR_MISMATCH, "vanilla_proofs[%zu]: comm_c or comm_r_last differ from partition 0's", k);
        if (memcmp(pt->replica_id, c1->replica_id, 32) || memcmp(pt->comm_d, c1->comm_d, 32) ||
            memcmp(pt->comm_r, c1->comm_r, 32))
            return fail(&o, CZK_ERR_MISMATCH, "vanilla_proofs[%zu]: replica_id, comm_d or comm_r differ from the C1's", k);
    }
    czk_fr in[2], r;
    if (!czk_fr_from_bytes_le(&in[0], comm_c) || !czk_fr_from_bytes_le(&in[1], comm_r_last))
        return fail(&o, CZK_ERR_NOT_CANONICAL, "vanilla_proofs[0][0]: comm_c or comm_r_last is not a canonical Fr");
    czk_err e = czk_poseidon_hash(&r, in, 2);
    if (e) return fail(&o, e, "comm_r: cannot hash");
    uint8_t want[32];
    czk_fr_to_bytes_le(want, &r);
    if (memcmp(want, c1->comm_r, 32) != 0) {
        char h1[20], h2[20];
        hex8(h1, c1->comm_r), hex8(h2, want);
        return fail(&o, CZK_ERR_MISMATCH, "comm_r: %s is not Poseidon(comm_c, comm_r_last) of the vanilla proofs (%s)",
                    h1, h2);
    }

    czk_fil_porep_instance inst;
    memset(&inst, 0, sizeof inst);
    inst.proof = p;
    memcpy(inst.replica_id, c1->replica_id, 32);
    memcpy(inst.comm_d, c1->comm_d, 32);
    memcpy(inst.comm_r, c1->comm_r, 32);
    memcpy(inst.seed, c1->seed, 32);
    uint8_t porep_id[32];
    czk_fil_porep_id(p, porep_id);
    czk_fil_graph g;
    char sub[256];
    if ((e = czk_fil_graph_init(&g, p->nodes, porep_id, p->api, sub, sizeof sub)))
        return fail(&o, e, "registered_proof: %s", sub);

    /* the partitions, spread over threads; the first failing one reports */
    size_t nt = threads < 1 ? 1 : threads > c1->n_partitions ? c1->n_partitions : threads;
    job j = {c1, &inst, &g, comm_c, comm_r_last, nt, calloc(c1->n_partitions, sizeof(czk_err)),
             calloc(c1->n_partitions, JOB_MSG)};
    if (!j.errs || !j.msgs) {
        free(j.errs), free(j.msgs);
        return fail(&o, CZK_ERR_NO_MEMORY, "out of memory");
    }
    worker *w = calloc(nt, sizeof *w);
    size_t started = 0;
    for (size_t t = 1; w && t < nt; t++) {
        w[t].j = &j, w[t].first = t;
        if (pthread_create(&w[t].th, NULL, run_worker, &w[t]) != 0) break;
        started = t;
    }
    /* this thread takes the residues no thread was started for */
    for (size_t t = w ? started + 1 : 1; t < nt; t++) validate_residue(&j, t);
    validate_residue(&j, 0);
    for (size_t t = 1; w && t <= started; t++) pthread_join(w[t].th, NULL);
    free(w);
    e = CZK_OK;
    for (size_t k = 0; k < c1->n_partitions; k++)
        if (j.errs[k]) {
            e = j.errs[k];
            if (msg && msglen) snprintf(msg, msglen, "%s", j.msgs + k * JOB_MSG);
            break;
        }
    free(j.errs);
    free(j.msgs);
    return e;
}

czk_err czk_fil_c1_validate(const czk_fil_c1 *c1, char *msg, size_t msglen) {
    return czk_fil_c1_validate_threads(c1, 1, msg, msglen);
}

czk_err czk_fil_c1_check_request(const czk_fil_c1 *c1, uint64_t registered_proof, uint64_t sector_size,
                                 uint64_t miner_id, uint64_t sector_number, char *msg, size_t msglen) {
    out_msg o = {msg, msglen};
    if (msg && msglen) msg[0] = '\0';
    if (!c1 || !c1->proof) return fail(&o, CZK_ERR_INVALID_ARGUMENT, "registered_proof: none");
    if (c1->proof->id != registered_proof)
        return fail(&o, CZK_ERR_MISMATCH, "registered_proof: %s (%llu), the request says %llu", c1->proof->name,
                    (unsigned long long)c1->proof->id, (unsigned long long)registered_proof);
    if (c1->proof->sector_size != sector_size)
        return fail(&o, CZK_ERR_MISMATCH, "registered_proof: %s is for %llu-byte sectors, the request says %llu",
                    c1->proof->name, (unsigned long long)c1->proof->sector_size, (unsigned long long)sector_size);
    if (c1->enveloped && c1->sector_num != sector_number)
        return fail(&o, CZK_ERR_MISMATCH, "SectorNum: %llu, the request says %llu", (unsigned long long)c1->sector_num,
                    (unsigned long long)sector_number);
    uint8_t prover[32], porep_id[32], rid[32];
    czk_fil_prover_id(miner_id, prover);
    czk_fil_porep_id(c1->proof, porep_id);
    czk_err e = czk_fil_replica_id(prover, sector_number, c1->ticket, c1->comm_d, porep_id, rid);
    if (e) return fail(&o, e, "replica_id: cannot compute");
    if (memcmp(rid, c1->replica_id, 32) != 0)
        return fail(&o, CZK_ERR_MISMATCH, "replica_id: not the replica id of miner %llu's sector %llu with this ticket "
                                          "and comm_d", (unsigned long long)miner_id, (unsigned long long)sector_number);
    return CZK_OK;
}
