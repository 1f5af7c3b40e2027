/* czk — snarkjs JSON (verification_key.json, proof.json, public.json) for
 * bls12381, and decimal conversion of field elements. Layout: snarkjs 0.7,
 * see shared/reference/snarkjs.md. */
#include "czk/groth16_io.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "io_internal.h"

#define DEC_MAX 128 /* digits of a 384-bit integer (116) + NUL, rounded up */
#define TEN19 10000000000000000000ULL
#define FR_MAX_DIGITS 78 /* r < 10^78 */

/* ---- decimal ------------------------------------------------------------------- */

/* The n-limb little-endian integer v in decimal, no leading zeros. n <= 6. */
static void limbs_to_decimal(char out[DEC_MAX], const uint64_t *v, int n) {
    uint64_t t[6] = {0};
    uint64_t chunk[8]; /* base-10^19 digits, least significant first */
    int k = 0;
    memcpy(t, v, (size_t)n * sizeof *t);
    for (;;) {
        bool zero = true;
        for (int i = 0; i < n; i++) zero = zero && t[i] == 0;
        if (zero && k > 0) break;
        unsigned __int128 rem = 0;
        for (int i = n - 1; i >= 0; i--) {
            unsigned __int128 cur = rem << 64 | t[i];
            t[i] = (uint64_t)(cur / TEN19);
            rem = cur % TEN19;
        }
        chunk[k++] = (uint64_t)rem;
        if (zero) break;
    }
    int pos = snprintf(out, DEC_MAX, "%llu", (unsigned long long)chunk[k - 1]);
    for (int i = k - 2; i >= 0; i--)
        pos += snprintf(out + pos, (size_t)(DEC_MAX - pos), "%019llu", (unsigned long long)chunk[i]);
}

static void fp_dec(char out[DEC_MAX], const czk_fp *a) {
    uint64_t v[CZK_FP_LIMBS];
    czk_fp_to_canonical(v, a);
    limbs_to_decimal(out, v, CZK_FP_LIMBS);
}

void czk_fr_to_decimal(char out[CZK_FR_DECIMAL_MAX], const czk_fr *a) {
    uint64_t v[CZK_FR_LIMBS];
    char buf[DEC_MAX];
    czk_fr_to_canonical(v, a);
    limbs_to_decimal(buf, v, CZK_FR_LIMBS);
    memcpy(out, buf, strlen(buf) + 1); /* at most 78 digits */
}

czk_err czk_fr_from_decimal(czk_fr *out, const char *s, size_t len, char *msg, size_t msglen) {
    if (!out || (!s && len > 0)) return czk_io_fail(CZK_ERR_INVALID_ARGUMENT, msg, msglen, "NULL argument");
    if (len == 0) return czk_io_fail(CZK_ERR_FORMAT, msg, msglen, "empty string, expected a decimal number");
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch < '0' || ch > '9') {
            if (ch >= 0x20 && ch < 0x7f)
                return czk_io_fail(CZK_ERR_FORMAT, msg, msglen, "character %zu ('%c') is not a decimal digit", i,
                                   ch);
            return czk_io_fail(CZK_ERR_FORMAT, msg, msglen, "character %zu (byte 0x%02x) is not a decimal digit", i,
                               ch);
        }
    }
    size_t z = 0;
    while (z + 1 < len && s[z] == '0') z++;
    if (len - z > FR_MAX_DIGITS)
        return czk_io_fail(CZK_ERR_FORMAT, msg, msglen, "value of %zu digits is not below the field modulus r",
                           len - z);
    uint64_t acc[5] = {0}; /* < 10^78 < 2^260 */
    for (size_t i = z; i < len; i++) {
        uint64_t carry = (uint64_t)(s[i] - '0');
        for (int j = 0; j < 5; j++) {
            unsigned __int128 t = (unsigned __int128)acc[j] * 10 + carry;
            acc[j] = (uint64_t)t;
            carry = (uint64_t)(t >> 64);
        }
    }
    czk_fr r;
    if (acc[4] != 0 || !czk_fr_from_canonical(&r, acc))
        return czk_io_fail(CZK_ERR_FORMAT, msg, msglen, "value is not below the field modulus r");
    *out = r;
    return CZK_OK;
}

/* ---- JSON writers ----------------------------------------------------------------- */

static json_t *g1_json(const czk_g1_affine *p) {
    if (czk_g1_affine_is_infinity(p)) return json_pack("[sss]", "0", "1", "0");
    char x[DEC_MAX], y[DEC_MAX];
    fp_dec(x, &p->x);
    fp_dec(y, &p->y);
    return json_pack("[sss]", x, y, "1");
}

static json_t *g2_json(const czk_g2_affine *p) {
    if (czk_g2_affine_is_infinity(p)) return json_pack("[[ss][ss][ss]]", "0", "0", "1", "0", "0", "0");
    char x0[DEC_MAX], x1[DEC_MAX], y0[DEC_MAX], y1[DEC_MAX];
    fp_dec(x0, &p->x.c0);
    fp_dec(x1, &p->x.c1);
    fp_dec(y0, &p->y.c0);
    fp_dec(y1, &p->y.c1);
    return json_pack("[[ss][ss][ss]]", x0, x1, y0, y1, "1", "0");
}

/* Dumps root (consumed) as snarkjs does (one-space indent, keys in insertion
 * order, final newline) and writes it atomically. */
static czk_err write_json(json_t *root, const char *path, const char *what, char *msg, size_t msglen) {
    if (!root) return czk_io_fail(CZK_ERR_NO_MEMORY, msg, msglen, "%s: out of memory building the JSON", what);
    char *text = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    json_decref(root);
    if (!text) return czk_io_fail(CZK_ERR_NO_MEMORY, msg, msglen, "%s: out of memory dumping the JSON", what);
    size_t n = strlen(text);
    czk_io_out o;
    czk_err e = czk_io_out_open(&o, path, msg, msglen);
    if (e == CZK_OK) {
        czk_io_out_write(&o, text, n);
        czk_io_out_write(&o, "\n", 1);
        e = czk_io_out_commit(&o, msg, msglen);
    }
    free(text);
    return e;
}

czk_err czk_snarkjs_write_vk(const czk_vk *vk, const char *path, char *msg, size_t msglen) {
    if (!vk) return czk_io_fail(CZK_ERR_INVALID_ARGUMENT, msg, msglen, "verification_key.json: no vk given");
    if (vk->n_ic == 0 || !vk->ic)
        return czk_io_fail(CZK_ERR_INVALID_ARGUMENT, msg, msglen,
                           "verification_key.json: the vk has no IC points (IC[0] is ONE's)");
    json_t *ic = json_array();
    for (size_t i = 0; ic && i < vk->n_ic; i++)
        if (json_array_append_new(ic, g1_json(&vk->ic[i])) != 0) {
            json_decref(ic);
            ic = NULL;
        }
    json_t *root = ic ? json_pack("{s:s, s:s, s:I, s:o, s:o, s:o, s:o, s:o}", "protocol", "groth16", "curve",
                                  "bls12381", "nPublic", (json_int_t)(vk->n_ic - 1), "vk_alpha_1",
                                  g1_json(&vk->alpha_g1), "vk_beta_2", g2_json(&vk->beta_g2), "vk_gamma_2",
                                  g2_json(&vk->gamma_g2), "vk_delta_2", g2_json(&vk->delta_g2), "IC", ic)
                      : NULL;
    return write_json(root, path, "verification_key.json", msg, msglen);
}

czk_err czk_snarkjs_write_proof(const czk_proof *proof, const char *path, char *msg, size_t msglen) {
    if (!proof) return czk_io_fail(CZK_ERR_INVALID_ARGUMENT, msg, msglen, "proof.json: no proof given");
    json_t *root = json_pack("{s:s, s:s, s:o, s:o, s:o}", "protocol", "groth16", "curve", "bls12381", "pi_a",
                             g1_json(&proof->a), "pi_b", g2_json(&proof->b), "pi_c", g1_json(&proof->c));
    return write_json(root, path, "proof.json", msg, msglen);
}

czk_err czk_snarkjs_write_public(const czk_fr *inputs, size_t n, const char *path, char *msg, size_t msglen) {
    if (n > 0 && !inputs) return czk_io_fail(CZK_ERR_INVALID_ARGUMENT, msg, msglen, "public.json: no inputs given");
    json_t *arr = json_array();
    for (size_t i = 0; arr && i < n; i++) {
        char d[CZK_FR_DECIMAL_MAX];
        czk_fr_to_decimal(d, &inputs[i]);
        if (json_array_append_new(arr, json_string(d)) != 0) {
            json_decref(arr);
            arr = NULL;
        }
    }
    return write_json(arr, path, "public.json", msg, msglen);
}

/* ---- public.json reader ------------------------------------------------------------- */

static const char *json_type_name(const json_t *j) {
    switch (json_typeof(j)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a real number";
    case JSON_TRUE: return "true";
    case JSON_FALSE: return "false";
    case JSON_NULL: return "null";
    }
    return "an unknown value";
}

czk_err czk_public_parse_json(czk_fr **out, size_t *n, const char *json, size_t len, char *msg, size_t msglen) {
    if (!out || !n) return czk_io_fail(CZK_ERR_INVALID_ARGUMENT, msg, msglen, "public.json: NULL argument");
    *out = NULL;
    *n = 0;
    if (!json && len > 0) return czk_io_fail(CZK_ERR_INVALID_ARGUMENT, msg, msglen, "public.json: no input given");
    json_error_t jerr;
    json_t *root = json_loadb(json ? json : "", len, JSON_DECODE_ANY, &jerr);
    if (!root)
        return czk_io_fail(CZK_ERR_FORMAT, msg, msglen, "public.json: invalid JSON at line %d, column %d: %s",
                           jerr.line, jerr.column, jerr.text);
    if (!json_is_array(root)) {
        czk_err e = czk_io_fail(CZK_ERR_FORMAT, msg, msglen,
                                "public.json: the top level is %s, expected an array of decimal strings",
                                json_type_name(root));
        json_decref(root);
        return e;
    }
    size_t count = json_array_size(root);
    czk_fr *v = NULL;
    if (count > 0) {
        v = malloc(count * sizeof *v);
        if (!v) {
            json_decref(root);
            return czk_io_fail(CZK_ERR_NO_MEMORY, msg, msglen, "public.json: out of memory for %zu inputs", count);
        }
    }
    for (size_t i = 0; i < count; i++) {
        const json_t *el = json_array_get(root, i);
        czk_err e;
        if (!json_is_string(el)) {
            e = czk_io_fail(CZK_ERR_FORMAT, msg, msglen, "public.json: element %zu is %s, expected a decimal string",
                            i, json_type_name(el));
        } else {
            char inner[160];
            e = czk_fr_from_decimal(&v[i], json_string_value(el), json_string_length(el), inner, sizeof inner);
            if (e != CZK_OK) czk_io_fail(e, msg, msglen, "public.json: element %zu: %s", i, inner);
        }
        if (e != CZK_OK) {
            free(v);
            json_decref(root);
            return e;
        }
    }
    json_decref(root);
    *out = v;
    *n = count;
    return CZK_OK;
}

czk_err czk_public_read_json(czk_fr **out, size_t *n, const char *path, char *msg, size_t msglen) {
    if (!out || !n) return czk_io_fail(CZK_ERR_INVALID_ARGUMENT, msg, msglen, "public.json: NULL argument");
    *out = NULL;
    *n = 0;
    czk_io_map m;
    czk_err e = czk_io_map_open(&m, path, msg, msglen);
    if (e != CZK_OK) return e;
    char inner[512] = "";
    e = czk_public_parse_json(out, n, (const char *)m.data, m.len, inner, sizeof inner);
    czk_io_map_close(&m);
    if (e != CZK_OK) czk_io_fail(e, msg, msglen, "%s: %s", path, inner);
    return e;
}
