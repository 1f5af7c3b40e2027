/* czk — the C1 decoder's JSON pull reader (c1_json.h). JSON as RFC 8259 and
 * serde_json read it: integers without leading zeros, strings with the
 * standard escapes, nothing but white space after the value. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c1_json.h"

void czk_fil_json_init(czk_fil_json *r, const void *data, size_t len, char *msg, size_t msglen) {
    memset(r, 0, sizeof *r);
    r->start = r->p = (const char *)data;
    r->end = r->start + len;
    r->msg = msg;
    r->msglen = msglen;
    if (msg && msglen) msg[0] = '\0';
}

czk_err czk_fil_json_fail(czk_fil_json *r, czk_err e, const char *fmt, ...) {
    if (r->err) return r->err;
    r->err = e;
    if (r->msg && r->msglen) {
        int n = snprintf(r->msg, r->msglen, "%s%s", r->plen ? r->path : "", r->plen ? ": " : "");
        if (n < 0) n = 0;
        if ((size_t)n < r->msglen) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(r->msg + n, r->msglen - (size_t)n, fmt, ap);
            va_end(ap);
        }
    }
    return e;
}

static size_t at(const czk_fil_json *r) { return (size_t)(r->p - r->start); }

static czk_err syntax(czk_fil_json *r, const char *what) {
    if (r->p >= r->end) return czk_fil_json_fail(r, CZK_ERR_FORMAT, "truncated: input ends at byte %zu, %s", at(r), what);
    return czk_fil_json_fail(r, CZK_ERR_FORMAT, "%s at byte %zu", what, at(r));
}

static void path_append(czk_fil_json *r, const char *s, size_t n) {
    if (r->plen + n >= sizeof r->path) n = sizeof r->path - 1 - r->plen;
    memcpy(r->path + r->plen, s, n);
    r->plen += n;
    r->path[r->plen] = '\0';
}

size_t czk_fil_json_push_key(czk_fil_json *r, const char *key) {
    size_t old = r->plen;
    if (r->plen) path_append(r, ".", 1);
    path_append(r, key, strlen(key));
    return old;
}

size_t czk_fil_json_push_index(czk_fil_json *r, size_t i) {
    size_t old = r->plen;
    char b[24];
    int n = snprintf(b, sizeof b, "[%zu]", i);
    path_append(r, b, (size_t)n);
    return old;
}

void czk_fil_json_pop(czk_fil_json *r, size_t len) {
    r->plen = len;
    r->path[len] = '\0';
}

static void ws(czk_fil_json *r) {
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r')) r->p++;
}

char czk_fil_json_peek(czk_fil_json *r) {
    ws(r);
    return r->p < r->end ? *r->p : 0;
}

static czk_err expect(czk_fil_json *r, char c, const char *what) {
    if (r->err) return r->err;
    if (czk_fil_json_peek(r) != c) return syntax(r, what);
    r->p++;
    return CZK_OK;
}

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static bool hex4(czk_fil_json *r, unsigned *u) {
    if (r->end - r->p < 4) return false;
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        int h = hexval(r->p[i]);
        if (h < 0) return false;
        v = v << 4 | (unsigned)h;
    }
    r->p += 4;
    *u = v;
    return true;
}

/* Reads one character of a string's body after the opening quote: its code
 * point in *cp (an escape decoded). 1: a character; 0: the closing quote
 * (consumed); -1: an error (recorded). */
static int string_char(czk_fil_json *r, unsigned *cp) {
    if (r->p >= r->end) return syntax(r, "unterminated string"), -1;
    unsigned char c = (unsigned char)*r->p++;
    if (c == '"') return 0;
    if (c < 0x20) return r->p--, syntax(r, "control character in a string"), -1;
    if (c != '\\') return *cp = c, 1;
    if (r->p >= r->end) return syntax(r, "unterminated escape"), -1;
    char e = *r->p++;
    switch (e) {
    case '"': *cp = '"'; return 1;
    case '\\': *cp = '\\'; return 1;
    case '/': *cp = '/'; return 1;
    case 'b': *cp = '\b'; return 1;
    case 'f': *cp = '\f'; return 1;
    case 'n': *cp = '\n'; return 1;
    case 'r': *cp = '\r'; return 1;
    case 't': *cp = '\t'; return 1;
    case 'u': {
        unsigned u, lo;
        if (!hex4(r, &u)) return syntax(r, "bad \\u escape"), -1;
        if (u >= 0xd800 && u < 0xdc00) {
            if (r->end - r->p < 2 || r->p[0] != '\\' || r->p[1] != 'u') return syntax(r, "lone surrogate"), -1;
            r->p += 2;
            if (!hex4(r, &lo) || lo < 0xdc00 || lo >= 0xe000) return syntax(r, "lone surrogate"), -1;
            u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
        } else if (u >= 0xdc00 && u < 0xe000) {
            return syntax(r, "lone surrogate"), -1;
        }
        *cp = u | 0x80000000u; /* marks a decoded code point (to be UTF-8 encoded) */
        return 1;
    }
    default:
        r->p--;
        return syntax(r, "bad escape"), -1;
    }
}

static size_t utf8_put(char *o, unsigned cp) {
    if (!(cp & 0x80000000u)) return o[0] = (char)cp, 1;
    cp &= 0x7fffffffu;
    if (cp < 0x80) return o[0] = (char)cp, 1;
    if (cp < 0x800) return o[0] = (char)(0xc0 | cp >> 6), o[1] = (char)(0x80 | (cp & 0x3f)), 2;
    if (cp < 0x10000)
        return o[0] = (char)(0xe0 | cp >> 12), o[1] = (char)(0x80 | (cp >> 6 & 0x3f)), o[2] = (char)(0x80 | (cp & 0x3f)), 3;
    o[0] = (char)(0xf0 | cp >> 18);
    o[1] = (char)(0x80 | (cp >> 12 & 0x3f));
    o[2] = (char)(0x80 | (cp >> 6 & 0x3f));
    o[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/* Reads a string into out (cap bytes with the NUL); *too_long when it did
 * not fit (the rest is read and dropped) or held a NUL (\u0000), which a C
 * string cannot carry (so that "comm_r\u0000x" matches no field). */
static czk_err string_into(czk_fil_json *r, char *out, size_t cap, bool *too_long) {
    *too_long = false;
    if (expect(r, '"', "expected a string")) return r->err;
    size_t n = 0;
    for (;;) {
        unsigned cp;
        int k = string_char(r, &cp);
        if (k < 0) return r->err;
        if (k == 0) break;
        char b[4];
        size_t m = utf8_put(b, cp);
        if ((cp & 0x7fffffffu) == 0) {
            *too_long = true;
        } else if (n + m < cap) {
            memcpy(out + n, b, m);
            n += m;
        } else {
            *too_long = true;
        }
    }
    if (cap) out[n < cap ? n : cap - 1] = '\0';
    return CZK_OK;
}

czk_err czk_fil_json_string(czk_fil_json *r, char *out, size_t cap) {
    bool too_long;
    if (string_into(r, out, cap, &too_long)) return r->err;
    if (too_long) return czk_fil_json_fail(r, CZK_ERR_FORMAT, "string longer than %zu bytes or holding a NUL", cap - 1);
    return CZK_OK;
}

czk_err czk_fil_json_object_begin(czk_fil_json *r) { return expect(r, '{', "expected an object"); }

czk_err czk_fil_json_array_begin(czk_fil_json *r) { return expect(r, '[', "expected an array"); }

/* After '{' or '[' (first) or an element: the separator or the close. */
static int next_item(czk_fil_json *r, char close, const char *what) {
    if (r->err) return -1;
    char c = czk_fil_json_peek(r);
    if (c == close) {
        r->p++;
        return 0;
    }
    const char *prev = r->p - 1;
    while (prev > r->start && (*prev == ' ' || *prev == '\t' || *prev == '\n' || *prev == '\r')) prev--;
    bool first = (*prev == '{' || *prev == '[') && prev >= r->start;
    if (!first) {
        if (c != ',') return syntax(r, what), -1;
        r->p++;
        if (czk_fil_json_peek(r) == close) return syntax(r, "trailing comma"), -1;
    }
    return 1;
}

int czk_fil_json_object_next(czk_fil_json *r, char key[CZK_FIL_JSON_KEY_MAX]) {
    int k = next_item(r, '}', "expected ',' or '}'");
    if (k <= 0) return k;
    bool too_long;
    if (string_into(r, key, CZK_FIL_JSON_KEY_MAX, &too_long)) return -1;
    if (too_long) strcpy(key, "\x01");
    if (expect(r, ':', "expected ':'")) return -1;
    return 1;
}

int czk_fil_json_array_next(czk_fil_json *r) { return next_item(r, ']', "expected ',' or ']'"); }

czk_err czk_fil_json_u64(czk_fil_json *r, uint64_t max, uint64_t *v) {
    if (r->err) return r->err;
    char c = czk_fil_json_peek(r);
    if (c < '0' || c > '9') return syntax(r, c == '-' ? "expected an unsigned integer, not a negative number"
                                                     : "expected an unsigned integer");
    uint64_t x = 0;
    const char *s = r->p;
    while (r->p < r->end && *r->p >= '0' && *r->p <= '9') {
        unsigned d = (unsigned)(*r->p - '0');
        if (x > (UINT64_MAX - d) / 10) return syntax(r, "integer does not fit in 64 bits");
        x = x * 10 + d;
        r->p++;
    }
    if (r->p - s > 1 && *s == '0') return r->p = s, syntax(r, "integer with a leading zero");
    if (r->p < r->end && (*r->p == '.' || *r->p == 'e' || *r->p == 'E'))
        return syntax(r, "expected an integer, not a fraction or exponent");
    if (x > max) return r->p = s, czk_fil_json_fail(r, CZK_ERR_FORMAT, "%llu is above %llu (byte %zu)",
                                                   (unsigned long long)x, (unsigned long long)max, at(r));
    *v = x;
    return CZK_OK;
}

czk_err czk_fil_json_bytes32(czk_fil_json *r, uint8_t out[32]) {
    if (czk_fil_json_array_begin(r)) return r->err;
    size_t n = 0;
    int k;
    while ((k = czk_fil_json_array_next(r)) > 0) {
        uint64_t v = 0;
        if (n == 32) return czk_fil_json_fail(r, CZK_ERR_FORMAT, "more than 32 bytes (byte %zu)", at(r));
        if (czk_fil_json_u64(r, 255, &v)) return r->err;
        out[n++] = (uint8_t)v;
    }
    if (k < 0) return r->err;
    if (n != 32) return czk_fil_json_fail(r, CZK_ERR_FORMAT, "%zu bytes, not 32 (byte %zu)", n, at(r));
    return CZK_OK;
}

static czk_err literal(czk_fil_json *r, const char *word) {
    size_t n = strlen(word);
    if (czk_fil_json_peek(r) != word[0] || (size_t)(r->end - r->p) < n || memcmp(r->p, word, n) != 0)
        return syntax(r, word[0] == 'n' ? "expected null" : "bad literal");
    r->p += n;
    return CZK_OK;
}

czk_err czk_fil_json_null(czk_fil_json *r) { return r->err ? r->err : literal(r, "null"); }

static czk_err skip_number(czk_fil_json *r) {
    const char *s = r->p;
    if (r->p < r->end && *r->p == '-') r->p++;
    const char *d = r->p;
    while (r->p < r->end && *r->p >= '0' && *r->p <= '9') r->p++;
    if (r->p == d || (r->p - d > 1 && *d == '0')) return r->p = s, syntax(r, "bad number");
    if (r->p < r->end && *r->p == '.') {
        d = ++r->p;
        while (r->p < r->end && *r->p >= '0' && *r->p <= '9') r->p++;
        if (r->p == d) return syntax(r, "bad number");
    }
    if (r->p < r->end && (*r->p == 'e' || *r->p == 'E')) {
        r->p++;
        if (r->p < r->end && (*r->p == '+' || *r->p == '-')) r->p++;
        d = r->p;
        while (r->p < r->end && *r->p >= '0' && *r->p <= '9') r->p++;
        if (r->p == d) return syntax(r, "bad number");
    }
    return CZK_OK;
}

static czk_err skip_depth(czk_fil_json *r, int depth) {
    if (r->err) return r->err;
    if (depth > CZK_FIL_JSON_MAX_DEPTH) return syntax(r, "nested too deeply");
    char c = czk_fil_json_peek(r);
    int k;
    switch (c) {
    case '{': {
        char key[CZK_FIL_JSON_KEY_MAX];
        r->p++;
        while ((k = czk_fil_json_object_next(r, key)) > 0)
            if (skip_depth(r, depth + 1)) return r->err;
        return k < 0 ? r->err : CZK_OK;
    }
    case '[':
        r->p++;
        while ((k = czk_fil_json_array_next(r)) > 0)
            if (skip_depth(r, depth + 1)) return r->err;
        return k < 0 ? r->err : CZK_OK;
    case '"': {
        r->p++;
        unsigned cp;
        while ((k = string_char(r, &cp)) > 0) {}
        return k < 0 ? r->err : CZK_OK;
    }
    case 't': return literal(r, "true");
    case 'f': return literal(r, "false");
    case 'n': return literal(r, "null");
    default:
        if (c == '-' || (c >= '0' && c <= '9')) return skip_number(r);
        return syntax(r, "expected a value");
    }
}

czk_err czk_fil_json_skip(czk_fil_json *r) { return skip_depth(r, 0); }

czk_err czk_fil_json_end(czk_fil_json *r) {
    if (r->err) return r->err;
    if (czk_fil_json_peek(r) != 0) return syntax(r, "trailing characters after the value");
    return CZK_OK;
}

static int b64val(unsigned c) {
    if (c >= 'A' && c <= 'Z') return (int)(c - 'A');
    if (c >= 'a' && c <= 'z') return (int)(c - 'a') + 26;
    if (c >= '0' && c <= '9') return (int)(c - '0') + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

czk_err czk_fil_json_base64(czk_fil_json *r, uint8_t **out, size_t *len) {
    *out = NULL;
    *len = 0;
    if (expect(r, '"', "expected a base64 string")) return r->err;
    /* the string's extent bounds the output */
    const char *q = r->p;
    while (q < r->end && *q != '"') q += (*q == '\\' && q + 1 < r->end) ? 2 : 1;
    size_t cap = (size_t)(q - r->p) / 4 * 3 + 3;
    uint8_t *b = malloc(cap);
    if (!b) return czk_fil_json_fail(r, CZK_ERR_NO_MEMORY, "out of memory for %zu bytes of base64", cap);
    size_t n = 0, chars = 0, pad = 0;
    uint32_t acc = 0;
    for (;;) {
        unsigned cp;
        int k = string_char(r, &cp);
        if (k < 0) goto fail;
        if (k == 0) break;
        cp &= 0x7fffffffu;
        if (cp == '=') {
            pad++;
            chars++;
            continue;
        }
        int v = b64val(cp);
        if (v < 0 || pad) {
            r->p--;
            czk_fil_json_fail(r, CZK_ERR_FORMAT, pad ? "base64 data after '=' padding (byte %zu)"
                                                     : "not a base64 character (byte %zu)", at(r));
            goto fail;
        }
        acc = acc << 6 | (uint32_t)v;
        if (++chars % 4 == 0) {
            b[n++] = (uint8_t)(acc >> 16);
            b[n++] = (uint8_t)(acc >> 8);
            b[n++] = (uint8_t)acc;
            acc = 0;
        }
    }
    if (chars % 4 != 0 || pad > 2) {
        czk_fil_json_fail(r, CZK_ERR_FORMAT, "base64 of %zu characters (with %zu '='): not padded to a multiple of 4",
                          chars, pad);
        goto fail;
    }
    if (pad) { /* the last quantum held 4 - pad data characters, shifted by pad·6 */
        uint32_t bits = acc << (6 * pad);
        if ((pad == 1 && (bits & 0xff)) || (pad == 2 && (bits & 0xffff))) {
            czk_fil_json_fail(r, CZK_ERR_FORMAT, "base64 with non-zero bits in its padding");
            goto fail;
        }
        b[n++] = (uint8_t)(bits >> 16);
        if (pad == 1) b[n++] = (uint8_t)(bits >> 8);
    }
    *out = b;
    *len = n;
    return CZK_OK;
fail:
    free(b);
    return r->err;
}
