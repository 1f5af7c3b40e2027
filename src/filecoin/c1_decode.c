/* czk — decoding the C1 output (filecoin_c1.h). The format, field by field
 * (docs/filecoin.md "The C1 input" names the source of each fact):
 *   envelope  {"SectorNum": u64, "Phase1Out": base64(C1 JSON), "SectorSize": u64}
 *   C1        {"registered_proof": "<RegisteredSealProof name>",
 *              "vanilla_proofs": {"StackedDrg<size>V1": [[Proof, …] per partition]},
 *              "comm_r", "comm_d", "replica_id", "seed", "ticket": [32 integers]}
 *   Proof     {"comm_d_proofs": MerkleProof, "comm_r_last_proof": MerkleProof,
 *              "replica_column_proofs": {"c_x": ColumnProof, "drg_parents": [6], "exp_parents": [8]},
 *              "labeling_proofs": [{"parents": [37 × 32 B], "layer_index": u32, "node": u64}],
 *              "encoding_proof": {"parents", "layer_index", "node"}}
 *   ColumnProof {"column": {"index": u32, "rows": [32 B …], "_h": null}, "inclusion_proof": MerkleProof}
 *   MerkleProof {"data": {"Single": {"root", "leaf", "path": InclusionPath}}
 *                      | {"Sub": {"base_proof", "sub_proof", "root", "leaf"}}
 *                      | {"Top": {"base_proof", "sub_proof", "top_proof", "root", "leaf"}}}
 *   InclusionPath {"path": [{"hashes": [arity − 1 × 32 B], "index": usize}, … leaf level first]} */
#include <stdlib.h>
#include <string.h>

#include "c1_json.h"
#include "czk/filecoin_c1.h"
#include "czk/fr.h"

typedef czk_fil_json jr;

/* a 32-byte Fr in little-endian form */
static czk_err read_fr(jr *r, uint8_t out[32]) {
    if (czk_fil_json_bytes32(r, out)) return r->err;
    czk_fr x;
    if (!czk_fr_from_bytes_le(&x, out)) return czk_fil_json_fail(r, CZK_ERR_NOT_CANONICAL, "not a canonical Fr (>= r)");
    return CZK_OK;
}

/* A JSON array of at most max Frs into out (*n of them), each element's
 * index in the error path; "more than <max> <what>" beyond it. */
static czk_err read_fr_array(jr *r, uint8_t (*out)[32], size_t max, const char *what, size_t *n) {
    *n = 0;
    if (czk_fil_json_array_begin(r)) return r->err;
    int e;
    while ((e = czk_fil_json_array_next(r)) > 0) {
        if (*n == max) return czk_fil_json_fail(r, CZK_ERR_FORMAT, "more than %zu %s", max, what);
        size_t m = czk_fil_json_push_index(r, *n);
        if (read_fr(r, out[*n])) return r->err;
        czk_fil_json_pop(r, m);
        (*n)++;
    }
    return e < 0 ? r->err : CZK_OK;
}

/* Marks a field seen; a second one is an error, as in serde. */
static bool once(jr *r, unsigned *seen, unsigned bit) {
    if (*seen & bit) {
        czk_fil_json_fail(r, CZK_ERR_FORMAT, "duplicate field");
        return false;
    }
    *seen |= bit;
    return true;
}

static czk_err missing(jr *r, const char *field) { return czk_fil_json_fail(r, CZK_ERR_FORMAT, "missing field \"%s\"", field); }

/* ---- Merkle proofs ---------------------------------------------------------- */

typedef struct {
    czk_fil_path_level *v;
    size_t n;
} levels;

static czk_err read_level(jr *r, czk_fil_path_level *lv) {
    char key[CZK_FIL_JSON_KEY_MAX];
    unsigned seen = 0;
    uint64_t index = 0;
    size_t nh = 0;
    int k;
    memset(lv, 0, sizeof *lv);
    if (czk_fil_json_object_begin(r)) return r->err;
    while ((k = czk_fil_json_object_next(r, key)) > 0) {
        size_t m = czk_fil_json_push_key(r, key);
        if (!strcmp(key, "hashes")) {
            if (!once(r, &seen, 1) ||
                read_fr_array(r, lv->siblings, CZK_FIL_MAX_ARITY - 1, "hashes (arity above 8)", &nh))
                return r->err;
            if (nh == 0) return czk_fil_json_fail(r, CZK_ERR_FORMAT, "no hashes (arity 1)");
        } else if (!strcmp(key, "index")) {
            if (!once(r, &seen, 2) || czk_fil_json_u64(r, UINT64_MAX, &index)) return r->err;
        } else if (czk_fil_json_skip(r)) {
            return r->err;
        }
        czk_fil_json_pop(r, m);
    }
    if (k < 0) return r->err;
    if (!(seen & 1)) return missing(r, "hashes");
    if (!(seen & 2)) return missing(r, "index");
    if (index > nh) return czk_fil_json_fail(r, CZK_ERR_FORMAT, "index %llu outside its %zu + 1 children",
                                             (unsigned long long)index, nh);
    lv->arity = (uint8_t)(nh + 1);
    lv->index = (uint8_t)index;
    return CZK_OK;
}

/* InclusionPath: {"path": [PathElement]} */
static czk_err read_inclusion(jr *r, levels *out) {
    char key[CZK_FIL_JSON_KEY_MAX];
    unsigned seen = 0;
    int k;
    if (czk_fil_json_object_begin(r)) return r->err;
    while ((k = czk_fil_json_object_next(r, key)) > 0) {
        size_t m = czk_fil_json_push_key(r, key);
        if (!strcmp(key, "path")) {
            if (!once(r, &seen, 1) || czk_fil_json_array_begin(r)) return r->err;
            int e;
            size_t cap = 0;
            while ((e = czk_fil_json_array_next(r)) > 0) {
                if (out->n == CZK_FIL_C1_MAX_LEVELS)
                    return czk_fil_json_fail(r, CZK_ERR_FORMAT, "more than %d levels", CZK_FIL_C1_MAX_LEVELS);
                if (out->n == cap) {
                    cap = cap ? 2 * cap : 16;
                    czk_fil_path_level *v = realloc(out->v, cap * sizeof *v);
                    if (!v) return czk_fil_json_fail(r, CZK_ERR_NO_MEMORY, "out of memory");
                    out->v = v;
                }
                size_t m2 = czk_fil_json_push_index(r, out->n);
                if (read_level(r, &out->v[out->n])) return r->err;
                czk_fil_json_pop(r, m2);
                out->n++;
            }
            if (e < 0) return r->err;
        } else if (czk_fil_json_skip(r)) {
            return r->err;
        }
        czk_fil_json_pop(r, m);
    }
    if (k < 0) return r->err;
    if (!(seen & 1)) return missing(r, "path");
    return CZK_OK;
}

static const char *const KIND_NAMES[3] = {"Single", "Sub", "Top"};

/* the variant's body: Single {root, leaf, path}; Sub {base_proof, sub_proof,
 * root, leaf}; Top adds top_proof */
static czk_err read_proof_body(jr *r, int kind, levels parts[3], czk_fil_c1_merkle *m) {
    static const char *const names[5] = {"root", "leaf", "path", "sub_proof", "top_proof"};
    char key[CZK_FIL_JSON_KEY_MAX];
    unsigned seen = 0;
    int k;
    if (czk_fil_json_object_begin(r)) return r->err;
    while ((k = czk_fil_json_object_next(r, key)) > 0) {
        size_t mark = czk_fil_json_push_key(r, key);
        const char *base_name = kind == CZK_FIL_PROOF_SINGLE ? "path" : "base_proof";
        if (!strcmp(key, "root")) {
            if (!once(r, &seen, 1) || read_fr(r, m->root)) return r->err;
        } else if (!strcmp(key, "leaf")) {
            if (!once(r, &seen, 2) || read_fr(r, m->leaf)) return r->err;
        } else if (!strcmp(key, base_name)) {
            if (!once(r, &seen, 4) || read_inclusion(r, &parts[0])) return r->err;
        } else if (kind >= CZK_FIL_PROOF_SUB && !strcmp(key, "sub_proof")) {
            if (!once(r, &seen, 8) || read_inclusion(r, &parts[1])) return r->err;
        } else if (kind == CZK_FIL_PROOF_TOP && !strcmp(key, "top_proof")) {
            if (!once(r, &seen, 16) || read_inclusion(r, &parts[2])) return r->err;
        } else if (czk_fil_json_skip(r)) {
            return r->err;
        }
        czk_fil_json_pop(r, mark);
    }
    if (k < 0) return r->err;
    unsigned need = kind == CZK_FIL_PROOF_SINGLE ? 7u : kind == CZK_FIL_PROOF_SUB ? 15u : 31u;
    for (unsigned b = 0; b < 5; b++)
        if ((need >> b & 1) && !(seen >> b & 1))
            return missing(r, b == 2 && kind != CZK_FIL_PROOF_SINGLE ? "base_proof" : names[b]);
    return CZK_OK;
}

/* MerkleProof {"data": {"<variant>": body}} into a path (base ‖ sub ‖ top
 * levels) and its claims. */
static czk_err read_merkle(jr *r, czk_fil_path *path, czk_fil_c1_merkle *m) {
    char key[CZK_FIL_JSON_KEY_MAX];
    unsigned seen = 0;
    int k;
    levels parts[3] = {{0}};
    memset(m, 0, sizeof *m);
    if (czk_fil_json_object_begin(r)) goto done;
    while ((k = czk_fil_json_object_next(r, key)) > 0) {
        size_t mark = czk_fil_json_push_key(r, key);
        if (!strcmp(key, "data")) {
            if (!once(r, &seen, 1) || czk_fil_json_object_begin(r)) goto done;
            char variant[CZK_FIL_JSON_KEY_MAX];
            int v = czk_fil_json_object_next(r, variant);
            if (v < 0) goto done;
            if (v == 0) {
                czk_fil_json_fail(r, CZK_ERR_FORMAT, "empty object: expected one of Single, Sub, Top");
                goto done;
            }
            int kind = -1;
            for (int i = 0; i < 3; i++)
                if (!strcmp(variant, KIND_NAMES[i])) kind = i;
            if (kind < 0) {
                czk_fil_json_fail(r, CZK_ERR_FORMAT, "unknown variant \"%s\": expected Single, Sub or Top", variant);
                goto done;
            }
            size_t m2 = czk_fil_json_push_key(r, variant);
            if (read_proof_body(r, kind, parts, m)) goto done;
            czk_fil_json_pop(r, m2);
            if (czk_fil_json_object_next(r, variant) != 0) {
                czk_fil_json_fail(r, CZK_ERR_FORMAT, "an enum holds one variant, not two");
                goto done;
            }
            m->kind = (uint8_t)kind;
        } else if (czk_fil_json_skip(r)) {
            goto done;
        }
        czk_fil_json_pop(r, mark);
    }
    if (k < 0) goto done;
    if (!(seen & 1)) {
        missing(r, "data");
        goto done;
    }
    size_t n = parts[0].n + parts[1].n + parts[2].n;
    if (n > CZK_FIL_C1_MAX_LEVELS) {
        czk_fil_json_fail(r, CZK_ERR_FORMAT, "%zu levels, more than %d", n, CZK_FIL_C1_MAX_LEVELS);
        goto done;
    }
    path->levels = malloc((n ? n : 1) * sizeof *path->levels);
    if (!path->levels) {
        czk_fil_json_fail(r, CZK_ERR_NO_MEMORY, "out of memory");
        goto done;
    }
    path->n_levels = 0;
    for (int i = 0; i < 3; i++) {
        if (parts[i].n) memcpy(path->levels + path->n_levels, parts[i].v, parts[i].n * sizeof *parts[i].v);
        path->n_levels += parts[i].n;
    }
    m->n_base = (uint8_t)parts[0].n;
    m->n_sub = (uint8_t)parts[1].n;
    m->n_top = (uint8_t)parts[2].n;
done:
    for (int i = 0; i < 3; i++) free(parts[i].v);
    return r->err;
}

/* ---- columns ---------------------------------------------------------------- */

/* ColumnProof {"column": {"index", "rows", "_h"}, "inclusion_proof"} */
static czk_err read_column_proof(jr *r, czk_fil_column *col, czk_fil_c1_merkle *m) {
    char key[CZK_FIL_JSON_KEY_MAX];
    unsigned seen = 0;
    int k;
    if (czk_fil_json_object_begin(r)) return r->err;
    while ((k = czk_fil_json_object_next(r, key)) > 0) {
        size_t mark = czk_fil_json_push_key(r, key);
        if (!strcmp(key, "column")) {
            if (!once(r, &seen, 1) || czk_fil_json_object_begin(r)) return r->err;
            unsigned cseen = 0;
            int e;
            while ((e = czk_fil_json_object_next(r, key)) > 0) {
                size_t m2 = czk_fil_json_push_key(r, key);
                if (!strcmp(key, "index")) {
                    uint64_t v;
                    if (!once(r, &cseen, 1) || czk_fil_json_u64(r, UINT32_MAX, &v)) return r->err;
                    col->index = (uint32_t)v;
                } else if (!strcmp(key, "rows")) {
                    if (!once(r, &cseen, 2)) return r->err;
                    col->rows = malloc(CZK_FIL_C1_MAX_LAYERS * sizeof *col->rows);
                    if (!col->rows) return czk_fil_json_fail(r, CZK_ERR_NO_MEMORY, "out of memory");
                    if (read_fr_array(r, col->rows, CZK_FIL_C1_MAX_LAYERS, "rows", &col->n_rows)) return r->err;
                    if (col->n_rows == 0) return czk_fil_json_fail(r, CZK_ERR_FORMAT, "no rows");
                    void *fit = realloc(col->rows, col->n_rows * sizeof *col->rows);
                    if (fit) col->rows = fit;
                } else if (!strcmp(key, "_h")) {
                    if (!once(r, &cseen, 4) || czk_fil_json_null(r)) return r->err;
                } else if (czk_fil_json_skip(r)) {
                    return r->err;
                }
                czk_fil_json_pop(r, m2);
            }
            if (e < 0) return r->err;
            if (!(cseen & 1)) return missing(r, "index");
            if (!(cseen & 2)) return missing(r, "rows");
            if (!(cseen & 4)) return missing(r, "_h"); /* PhantomData: serde wants it, as null */
        } else if (!strcmp(key, "inclusion_proof")) {
            if (!once(r, &seen, 2) || read_merkle(r, &col->path, m)) return r->err;
        } else if (czk_fil_json_skip(r)) {
            return r->err;
        }
        czk_fil_json_pop(r, mark);
    }
    if (k < 0) return r->err;
    if (!(seen & 1)) return missing(r, "column");
    if (!(seen & 2)) return missing(r, "inclusion_proof");
    return CZK_OK;
}

static czk_err read_column_list(jr *r, czk_fil_column *cols, czk_fil_c1_merkle *ms, size_t want) {
    if (czk_fil_json_array_begin(r)) return r->err;
    size_t n = 0;
    int k;
    while ((k = czk_fil_json_array_next(r)) > 0) {
        if (n == want) return czk_fil_json_fail(r, CZK_ERR_FORMAT, "more than %zu column proofs", want);
        size_t m = czk_fil_json_push_index(r, n);
        if (read_column_proof(r, &cols[n], &ms[n])) return r->err;
        czk_fil_json_pop(r, m);
        n++;
    }
    if (k < 0) return r->err;
    if (n != want) return czk_fil_json_fail(r, CZK_ERR_FORMAT, "%zu column proofs, not %zu", n, want);
    return CZK_OK;
}

/* replica_column_proofs {"c_x", "drg_parents", "exp_parents"}; c_x's column
 * goes to x (index, rows; its path is the challenge's comm_c path). */
static czk_err read_replica_columns(jr *r, czk_fil_porep_challenge *c, czk_fil_c1_claims *cl, czk_fil_column *x) {
    char key[CZK_FIL_JSON_KEY_MAX];
    unsigned seen = 0;
    int k;
    if (czk_fil_json_object_begin(r)) return r->err;
    while ((k = czk_fil_json_object_next(r, key)) > 0) {
        size_t mark = czk_fil_json_push_key(r, key);
        if (!strcmp(key, "c_x")) {
            if (!once(r, &seen, 1) || read_column_proof(r, x, &cl->c_x)) return r->err;
        } else if (!strcmp(key, "drg_parents")) {
            if (!once(r, &seen, 2) || read_column_list(r, c->drg_parents, cl->drg, CZK_FIL_DRG_PARENTS)) return r->err;
        } else if (!strcmp(key, "exp_parents")) {
            if (!once(r, &seen, 4) || read_column_list(r, c->exp_parents, cl->exp, CZK_FIL_EXP_PARENTS)) return r->err;
        } else if (czk_fil_json_skip(r)) {
            return r->err;
        }
        czk_fil_json_pop(r, mark);
    }
    if (k < 0) return r->err;
    if (!(seen & 1)) return missing(r, "c_x");
    if (!(seen & 2)) return missing(r, "drg_parents");
    if (!(seen & 4)) return missing(r, "exp_parents");
    return CZK_OK;
}

/* ---- labeling and encoding proofs ------------------------------------------- */

typedef struct {
    uint8_t parents[CZK_FIL_LABEL_PARENTS][32];
    uint64_t layer_index, node;
} label_proof;

/* {"parents": [37], "layer_index": u32, "node": u64} */
static czk_err read_label_proof(jr *r, label_proof *lp) {
    char key[CZK_FIL_JSON_KEY_MAX];
    unsigned seen = 0;
    int k;
    if (czk_fil_json_object_begin(r)) return r->err;
    while ((k = czk_fil_json_object_next(r, key)) > 0) {
        size_t mark = czk_fil_json_push_key(r, key);
        if (!strcmp(key, "parents")) {
            size_t n = 0;
            if (!once(r, &seen, 1) || read_fr_array(r, lp->parents, CZK_FIL_LABEL_PARENTS, "parents", &n))
                return r->err;
            if (n != CZK_FIL_LABEL_PARENTS)
                return czk_fil_json_fail(r, CZK_ERR_FORMAT, "%zu parents, not %d", n, CZK_FIL_LABEL_PARENTS);
        } else if (!strcmp(key, "layer_index")) {
            if (!once(r, &seen, 2) || czk_fil_json_u64(r, UINT32_MAX, &lp->layer_index)) return r->err;
        } else if (!strcmp(key, "node")) {
            if (!once(r, &seen, 4) || czk_fil_json_u64(r, UINT64_MAX, &lp->node)) return r->err;
        } else if (czk_fil_json_skip(r)) {
            return r->err;
        }
        czk_fil_json_pop(r, mark);
    }
    if (k < 0) return r->err;
    if (!(seen & 1)) return missing(r, "parents");
    if (!(seen & 2)) return missing(r, "layer_index");
    if (!(seen & 4)) return missing(r, "node");
    return CZK_OK;
}

/* The labeling proofs and encoding proof must be what the columns imply. */
static czk_err check_label_proofs(jr *r, const czk_fil_porep_challenge *c, const czk_fil_column *x,
                                  const label_proof *lps, size_t n_lp, const label_proof *enc) {
    size_t layers = x->n_rows;
    for (size_t i = 0; i < CZK_FIL_DRG_PARENTS + CZK_FIL_EXP_PARENTS; i++) {
        const czk_fil_column *col = i < CZK_FIL_DRG_PARENTS ? &c->drg_parents[i] : &c->exp_parents[i - CZK_FIL_DRG_PARENTS];
        if (col->n_rows != layers)
            return czk_fil_json_fail(r, CZK_ERR_FORMAT, "replica_column_proofs.%s[%zu].column.rows: %zu rows, c_x has %zu",
                                     i < CZK_FIL_DRG_PARENTS ? "drg_parents" : "exp_parents",
                                     i < CZK_FIL_DRG_PARENTS ? i : i - CZK_FIL_DRG_PARENTS, col->n_rows, layers);
    }
    if (n_lp != layers)
        return czk_fil_json_fail(r, CZK_ERR_FORMAT, "labeling_proofs: %zu, one per layer of c_x (%zu) expected", n_lp, layers);
    for (size_t l = 0; l < layers; l++) {
        const label_proof *lp = &lps[l];
        if (lp->layer_index != l + 1 || lp->node != x->index)
            return czk_fil_json_fail(r, CZK_ERR_FORMAT,
                                     "labeling_proofs[%zu]: layer_index %llu node %llu, not layer %zu of node %u (c_x)", l,
                                     (unsigned long long)lp->layer_index, (unsigned long long)lp->node, l + 1, x->index);
        for (size_t j = 0; j < CZK_FIL_LABEL_PARENTS; j++)
            if (memcmp(lp->parents[j], czk_fil_c1_label_parent(c, l + 1, j), 32) != 0)
                return czk_fil_json_fail(r, CZK_ERR_FORMAT,
                                         "labeling_proofs[%zu].parents[%zu]: not the label its parent's column holds", l, j);
    }
    if (enc->layer_index != layers || enc->node != x->index)
        return czk_fil_json_fail(r, CZK_ERR_FORMAT, "encoding_proof: layer_index %llu node %llu, not layer %zu of node %u",
                                 (unsigned long long)enc->layer_index, (unsigned long long)enc->node, layers, x->index);
    if (memcmp(enc->parents, lps[layers - 1].parents, sizeof enc->parents) != 0)
        return czk_fil_json_fail(r, CZK_ERR_FORMAT, "encoding_proof.parents: not the last labeling proof's parents");
    return CZK_OK;
}

/* ---- one vanilla proof -------------------------------------------------------- */

typedef struct {
    label_proof *lps; /* CZK_FIL_C1_MAX_LAYERS, reused */
    label_proof enc;
    czk_fil_column x;
} scratch;

static czk_err read_vanilla(jr *r, scratch *s, czk_fil_porep_challenge *c, czk_fil_c1_claims *cl) {
    char key[CZK_FIL_JSON_KEY_MAX];
    unsigned seen = 0;
    size_t n_lp = 0;
    int k;
    free(s->x.rows);
    free(s->x.path.levels);
    memset(&s->x, 0, sizeof s->x);
    if (czk_fil_json_object_begin(r)) return r->err;
    while ((k = czk_fil_json_object_next(r, key)) > 0) {
        size_t mark = czk_fil_json_push_key(r, key);
        if (!strcmp(key, "comm_d_proofs")) {
            if (!once(r, &seen, 1) || read_merkle(r, &c->comm_d_path, &cl->comm_d)) return r->err;
        } else if (!strcmp(key, "comm_r_last_proof")) {
            if (!once(r, &seen, 2) || read_merkle(r, &c->comm_r_last_path, &cl->comm_r_last)) return r->err;
        } else if (!strcmp(key, "replica_column_proofs")) {
            if (!once(r, &seen, 4) || read_replica_columns(r, c, cl, &s->x)) return r->err;
        } else if (!strcmp(key, "labeling_proofs")) {
            if (!once(r, &seen, 8) || czk_fil_json_array_begin(r)) return r->err;
            int e;
            while ((e = czk_fil_json_array_next(r)) > 0) {
                if (n_lp == CZK_FIL_C1_MAX_LAYERS)
                    return czk_fil_json_fail(r, CZK_ERR_FORMAT, "more than %d labeling proofs", CZK_FIL_C1_MAX_LAYERS);
                size_t m2 = czk_fil_json_push_index(r, n_lp);
                if (read_label_proof(r, &s->lps[n_lp])) return r->err;
                czk_fil_json_pop(r, m2);
                n_lp++;
            }
            if (e < 0) return r->err;
        } else if (!strcmp(key, "encoding_proof")) {
            if (!once(r, &seen, 16) || read_label_proof(r, &s->enc)) return r->err;
        } else if (czk_fil_json_skip(r)) {
            return r->err;
        }
        czk_fil_json_pop(r, mark);
    }
    if (k < 0) return r->err;
    static const char *const names[5] = {"comm_d_proofs", "comm_r_last_proof", "replica_column_proofs",
                                         "labeling_proofs", "encoding_proof"};
    for (unsigned b = 0; b < 5; b++)
        if (!(seen >> b & 1)) return missing(r, names[b]);
    if (check_label_proofs(r, c, &s->x, s->lps, n_lp, &s->enc)) return r->err;
    c->node = s->x.index;
    memcpy(c->data_leaf, cl->comm_d.leaf, 32);
    c->comm_c_path = s->x.path; /* moved */
    memset(&s->x.path, 0, sizeof s->x.path);
    cl->n_rows = (uint8_t)s->x.n_rows;
    memcpy(cl->c_x_rows, s->x.rows, s->x.n_rows * 32);
    return CZK_OK;
}

/* ---- the C1 object -------------------------------------------------------------- */

static const struct {
    const char *name;
    uint64_t size;
} SHAPES[] = {
    {"StackedDrg2KiBV1", 2048ull},        {"StackedDrg8MiBV1", 8ull << 20}, {"StackedDrg512MiBV1", 512ull << 20},
    {"StackedDrg32GiBV1", 32ull << 30}, {"StackedDrg64GiBV1", 64ull << 30},
};

static czk_err grow(jr *r, void **p, size_t *cap, size_t n, size_t size) {
    if (n < *cap) return CZK_OK;
    size_t c = *cap ? 2 * *cap : 4;
    void *q = realloc(*p, c * size);
    if (!q) return czk_fil_json_fail(r, CZK_ERR_NO_MEMORY, "out of memory");
    memset((char *)q + *cap * size, 0, (c - *cap) * size);
    *p = q;
    *cap = c;
    return CZK_OK;
}

/* Shrinks an array grown by doubling to its n elements (kept as it is if
 * realloc fails or n is 0), so that czk_fil_c1_bytes counts what is held. */
static void fit(void **p, size_t n, size_t size) {
    if (!*p || !n) return;
    void *q = realloc(*p, n * size);
    if (q) *p = q;
}

/* [[Proof …] per partition] */
static czk_err read_partitions(jr *r, czk_fil_c1 *c1) {
    scratch s;
    memset(&s, 0, sizeof s);
    s.lps = malloc(CZK_FIL_C1_MAX_LAYERS * sizeof *s.lps);
    if (!s.lps) return czk_fil_json_fail(r, CZK_ERR_NO_MEMORY, "out of memory");
    size_t pcap = 0;
    int k;
    if (czk_fil_json_array_begin(r)) goto done;
    while ((k = czk_fil_json_array_next(r)) > 0) {
        size_t cap_claims = pcap;
        if (grow(r, (void **)&c1->partitions, &pcap, c1->n_partitions, sizeof *c1->partitions)) goto done;
        if (grow(r, (void **)&c1->claims, &cap_claims, c1->n_partitions, sizeof *c1->claims)) goto done;
        czk_fil_porep_partition *part = &c1->partitions[c1->n_partitions];
        czk_fil_c1_claims **cl = &c1->claims[c1->n_partitions];
        c1->n_partitions++;
        size_t m = czk_fil_json_push_index(r, c1->n_partitions - 1);
        size_t ccap = 0;
        int e;
        if (czk_fil_json_array_begin(r)) goto done;
        while ((e = czk_fil_json_array_next(r)) > 0) {
            size_t cc = ccap;
            if (grow(r, (void **)&part->challenges, &ccap, part->n_challenges, sizeof *part->challenges) ||
                grow(r, (void **)cl, &cc, part->n_challenges, sizeof **cl))
                goto done;
            size_t m2 = czk_fil_json_push_index(r, part->n_challenges);
            part->n_challenges++;
            if (read_vanilla(r, &s, &part->challenges[part->n_challenges - 1], &(*cl)[part->n_challenges - 1])) goto done;
            czk_fil_json_pop(r, m2);
        }
        if (e < 0) goto done;
        fit((void **)&part->challenges, part->n_challenges, sizeof *part->challenges);
        fit((void **)cl, part->n_challenges, sizeof **cl);
        czk_fil_json_pop(r, m);
    }
    if (k == 0) {
        fit((void **)&c1->partitions, c1->n_partitions, sizeof *c1->partitions);
        fit((void **)&c1->claims, c1->n_partitions, sizeof *c1->claims);
    }
done:
    free(s.lps);
    free(s.x.rows);
    free(s.x.path.levels);
    return r->err;
}

/* {"StackedDrg<size>V1": [[Proof]]} */
static czk_err read_vanilla_proofs(jr *r, czk_fil_c1 *c1) {
    char variant[CZK_FIL_JSON_KEY_MAX];
    if (czk_fil_json_object_begin(r)) return r->err;
    int k = czk_fil_json_object_next(r, variant);
    if (k < 0) return r->err;
    if (k == 0) return czk_fil_json_fail(r, CZK_ERR_FORMAT, "empty object: expected one StackedDrg<size>V1 variant");
    for (size_t i = 0; i < sizeof SHAPES / sizeof *SHAPES; i++)
        if (!strcmp(variant, SHAPES[i].name)) c1->shape_sector_size = SHAPES[i].size;
    if (!c1->shape_sector_size)
        return czk_fil_json_fail(r, CZK_ERR_FORMAT, "unknown variant \"%s\" (expected StackedDrg{2KiB,8MiB,512MiB,32GiB,64GiB}V1)",
                                 variant[0] == 1 ? "…" : variant);
    /* the field path of the vanilla proofs reads vanilla_proofs[k][i] */
    if (read_partitions(r, c1)) return r->err;
    if (czk_fil_json_object_next(r, variant) != 0)
        return czk_fil_json_fail(r, CZK_ERR_FORMAT, "an enum holds one variant, not two");
    return CZK_OK;
}

/* One field of the C1 object; false for a key that is none of its fields. */
static bool c1_field(jr *r, czk_fil_c1 *c1, const char *key, unsigned *seen) {
    char name[CZK_FIL_JSON_KEY_MAX];
    if (!strcmp(key, "registered_proof")) {
        if (!once(r, seen, 1) || czk_fil_json_string(r, name, sizeof name)) return true;
        for (uint64_t id = 0; id < czk_fil_seal_proof_count(); id++)
            if (!strcmp(czk_fil_seal_proof_get(id)->name, name)) c1->proof = czk_fil_seal_proof_get(id);
        if (!c1->proof) czk_fil_json_fail(r, CZK_ERR_NOT_FOUND, "unknown registered proof \"%s\"", name);
    } else if (!strcmp(key, "vanilla_proofs")) {
        if (once(r, seen, 2)) read_vanilla_proofs(r, c1);
    } else if (!strcmp(key, "comm_r")) {
        if (once(r, seen, 4)) read_fr(r, c1->comm_r);
    } else if (!strcmp(key, "comm_d")) {
        if (once(r, seen, 8)) read_fr(r, c1->comm_d);
    } else if (!strcmp(key, "replica_id")) {
        if (once(r, seen, 16)) read_fr(r, c1->replica_id);
    } else if (!strcmp(key, "seed")) {
        if (once(r, seen, 32)) czk_fil_json_bytes32(r, c1->seed);
    } else if (!strcmp(key, "ticket")) {
        if (once(r, seen, 64)) czk_fil_json_bytes32(r, c1->ticket);
    } else {
        return false;
    }
    return true;
}

/* After the C1 object: every field there, and the partitions' copies. */
static czk_err c1_finish(jr *r, czk_fil_c1 *c1, unsigned seen) {
    static const char *const names[7] = {"registered_proof", "vanilla_proofs", "comm_r", "comm_d",
                                         "replica_id", "seed", "ticket"};
    for (unsigned b = 0; b < 7; b++)
        if (!(seen >> b & 1)) return missing(r, names[b]);
    for (size_t i = 0; i < c1->n_partitions; i++) {
        czk_fil_porep_partition *p = &c1->partitions[i];
        memcpy(p->replica_id, c1->replica_id, 32);
        memcpy(p->comm_d, c1->comm_d, 32);
        memcpy(p->comm_r, c1->comm_r, 32);
        if (p->n_challenges) {
            memcpy(p->comm_c, c1->claims[i][0].c_x.root, 32);
            memcpy(p->comm_r_last, c1->claims[i][0].comm_r_last.root, 32);
        }
    }
    return CZK_OK;
}

/* Phase1Out: the base64 of the C1 JSON, decoded and read as the bare C1 */
static czk_err read_phase1(jr *r, czk_fil_c1 *c1) {
    uint8_t *inner;
    size_t n;
    if (czk_fil_json_base64(r, &inner, &n)) return r->err;
    jr sub;
    char key[CZK_FIL_JSON_KEY_MAX];
    unsigned seen = 0;
    int k;
    czk_fil_json_init(&sub, inner, n, r->msg, r->msglen);
    czk_fil_json_push_key(&sub, "Phase1Out");
    if (czk_fil_json_object_begin(&sub) == CZK_OK) {
        czk_fil_json_pop(&sub, 0);
        while ((k = czk_fil_json_object_next(&sub, key)) > 0) {
            size_t m = czk_fil_json_push_key(&sub, key);
            if (!c1_field(&sub, c1, key, &seen)) czk_fil_json_skip(&sub);
            if (sub.err) break;
            czk_fil_json_pop(&sub, m);
        }
        if (k == 0 && c1_finish(&sub, c1, seen) == CZK_OK) czk_fil_json_end(&sub);
    }
    free(inner);
    r->err = sub.err; /* its message is in place */
    return r->err;
}

/* The envelope or the bare C1, told apart by their keys: an object with any
 * of SectorNum, Phase1Out, SectorSize is an envelope and must have all three
 * and no C1 field. */
static czk_err read_top(jr *r, czk_fil_c1 *c1) {
    char key[CZK_FIL_JSON_KEY_MAX];
    unsigned seen = 0, env = 0;
    int k;
    if (czk_fil_json_object_begin(r)) return r->err;
    while ((k = czk_fil_json_object_next(r, key)) > 0) {
        size_t m = czk_fil_json_push_key(r, key);
        if (!strcmp(key, "SectorNum")) {
            if (once(r, &env, 1)) czk_fil_json_u64(r, UINT64_MAX, &c1->sector_num);
        } else if (!strcmp(key, "SectorSize")) {
            if (once(r, &env, 2)) czk_fil_json_u64(r, UINT64_MAX, &c1->sector_size);
        } else if (!strcmp(key, "Phase1Out")) {
            if (once(r, &env, 4)) read_phase1(r, c1);
        } else if (!c1_field(r, c1, key, &seen)) {
            czk_fil_json_skip(r);
        }
        if (r->err) return r->err;
        if (env && seen) return czk_fil_json_fail(r, CZK_ERR_FORMAT, "an envelope (SectorNum, Phase1Out, SectorSize) "
                                                                     "mixed with the C1's own fields");
        czk_fil_json_pop(r, m);
    }
    if (k < 0) return r->err;
    if (!env) return c1_finish(r, c1, seen);
    c1->enveloped = true;
    if (!(env & 1)) return missing(r, "SectorNum");
    if (!(env & 2)) return missing(r, "SectorSize");
    if (!(env & 4)) return missing(r, "Phase1Out");
    return CZK_OK;
}

czk_err czk_fil_c1_decode(czk_fil_c1 *out, const void *data, size_t len, char *msg, size_t msglen) {
    jr r;
    memset(out, 0, sizeof *out);
    czk_fil_json_init(&r, data, len, msg, msglen);
    if (!data && len) return czk_fil_json_fail(&r, CZK_ERR_INVALID_ARGUMENT, "no input");
    if (read_top(&r, out) == CZK_OK) czk_fil_json_end(&r);
    if (r.err) czk_fil_c1_free(out);
    return r.err;
}
