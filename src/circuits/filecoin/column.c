/* czk — stacked/circuit/column.rs (Column::alloc, via ColumnProof::alloc)
 * and hash.rs (hash_single_column). */
#include "czk/gadget_poseidon.h"
#include "porep_internal.h"

czk_err porep_column_alloc(czk_cs *cs, czk_num *rows, uint32_t layers, const czk_fil_column *col) {
    if (col && (col->n_rows != layers || !col->rows))
        return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT, "a column of node %u has %zu rows, the sector %u layers",
                            col->index, col->n_rows, layers);
    czk_err e = CZK_OK;
    czk_cs_push_namespace(cs, "column");
    for (uint32_t i = 0; i < layers && !e; i++) {
        czk_fr v;
        if (col) e = porep_domain_value(cs, &v, col->rows[i], "a column row");
        if (e) break;
        porep_push_ns_idx(cs, "column_num_row_%ld", (long)i);
        e = czk_num_alloc(cs, &rows[i], col ? &v : NULL);
        czk_cs_pop_namespace(cs);
    }
    czk_cs_pop_namespace(cs);
    return e;
}

czk_err porep_hash_single_column(czk_cs *cs, czk_num *out, const czk_num *rows, uint32_t n) {
    if (n != 2 && n != 11)
        return czk_cs_error(cs, CZK_ERR_INVALID_ARGUMENT, "hash_single_column: unsupported column size %u", n);
    return czk_poseidon_hash_gadget(cs, out, rows, n);
}
