/* czk — a pull reader of JSON text for the C1 decoder, internal to
 * src/filecoin/: it walks the text once and builds no tree (a 32 GiB C1 is
 * ~50 MB of small integers), keeps the field path being read for messages
 * ("vanilla_proofs[3][7].comm_d_proofs"), and records the first error. */
#ifndef CZK_FILECOIN_C1_JSON_H
#define CZK_FILECOIN_C1_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "czk/err.h"

#define CZK_FIL_JSON_MAX_DEPTH 64
#define CZK_FIL_JSON_KEY_MAX 64

typedef struct {
    const char *start, *p, *end;
    char path[400];
    size_t plen;
    czk_err err; /* the first error, CZK_OK until then */
    char *msg;
    size_t msglen;
} czk_fil_json;

void czk_fil_json_init(czk_fil_json *r, const void *data, size_t len, char *msg, size_t msglen);

/* Records an error (the first one wins): "<path>: <text>". Returns r->err. */
czk_err czk_fil_json_fail(czk_fil_json *r, czk_err e, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The field path: push appends ".key" (or "key" at the top) or "[i]" and
 * returns the length to pop back to. */
size_t czk_fil_json_push_key(czk_fil_json *r, const char *key);
size_t czk_fil_json_push_index(czk_fil_json *r, size_t i);
void czk_fil_json_pop(czk_fil_json *r, size_t len);

/* The next character that is not white space, 0 at the end. */
char czk_fil_json_peek(czk_fil_json *r);
/* Object iteration: begin reads '{'; next reads the next key and its ':'
 * into key (a key longer than the buffer reads as "\x01", matching no
 * field) and returns 1, or reads '}' and returns 0, or fails and returns -1. */
czk_err czk_fil_json_object_begin(czk_fil_json *r);
int czk_fil_json_object_next(czk_fil_json *r, char key[CZK_FIL_JSON_KEY_MAX]);
/* Array iteration alike: 1 when an element follows, 0 after ']', -1. */
czk_err czk_fil_json_array_begin(czk_fil_json *r);
int czk_fil_json_array_next(czk_fil_json *r);

/* An unsigned integer (no sign, fraction or exponent) at most max. */
czk_err czk_fil_json_u64(czk_fil_json *r, uint64_t max, uint64_t *v);
/* An array of exactly 32 integers 0..255. */
czk_err czk_fil_json_bytes32(czk_fil_json *r, uint8_t out[32]);
/* null. */
czk_err czk_fil_json_null(czk_fil_json *r);
/* A string of at most cap - 1 bytes (escapes decoded), NUL-terminated. */
czk_err czk_fil_json_string(czk_fil_json *r, char *out, size_t cap);
/* A string holding standard base64 (padded, canonical), decoded into a
 * malloc'd buffer. */
czk_err czk_fil_json_base64(czk_fil_json *r, uint8_t **out, size_t *len);
/* Skips any value (nesting at most CZK_FIL_JSON_MAX_DEPTH). */
czk_err czk_fil_json_skip(czk_fil_json *r);
/* Only white space left. */
czk_err czk_fil_json_end(czk_fil_json *r);

#endif
