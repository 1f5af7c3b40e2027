/* czk — the TOML subset lexer of czkd's configuration (toml.h). */
#include "toml.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void czk_toml_value_free(czk_toml_value *v) {
    free(v->s);
    for (size_t k = 0; k < v->n; k++) czk_toml_value_free(&v->items[k]);
    free(v->items);
    memset(v, 0, sizeof *v);
}

const char *czk_toml_type_name(czk_toml_type t) {
    static const char *const n[] = {"a string", "an integer", "a float", "a boolean", "an array"};
    return n[t];
}

czk_err czk_toml_error(czk_toml_lexer *lx, const char *fmt, ...) {
    if (lx->msg && lx->msglen) {
        int n = lx->key[0] ? snprintf(lx->msg, lx->msglen, "%s:%d: key '%s': ", lx->name, lx->line, lx->key)
                           : snprintf(lx->msg, lx->msglen, "%s:%d: ", lx->name, lx->line);
        if (n < 0) n = 0;
        if ((size_t)n < lx->msglen) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(lx->msg + n, lx->msglen - (size_t)n, fmt, ap);
            va_end(ap);
        }
    }
    return CZK_ERR_FORMAT;
}

/* Spaces and tabs. */
void czk_toml_skip_ws(czk_toml_lexer *lx) {
    while (!czk_toml_at_end(lx) && (*lx->p == ' ' || *lx->p == '\t')) lx->p++;
}

/* Spaces, tabs, newlines and comments (inside arrays). */
void czk_toml_skip_ws_nl(czk_toml_lexer *lx) {
    for (;;) {
        czk_toml_skip_ws(lx);
        if (czk_toml_peek(lx) == '#')
            while (!czk_toml_at_end(lx) && *lx->p != '\n') lx->p++;
        if (czk_toml_peek(lx) == '\r' && lx->p + 1 < lx->end && lx->p[1] == '\n') lx->p++;
        if (czk_toml_peek(lx) == '\n') {
            lx->p++;
            lx->line++;
            continue;
        }
        return;
    }
}

/* After a statement: optional comment, then end of line or file. */
czk_err czk_toml_end_of_line(czk_toml_lexer *lx) {
    czk_toml_skip_ws(lx);
    if (czk_toml_peek(lx) == '#')
        while (!czk_toml_at_end(lx) && *lx->p != '\n') lx->p++;
    if (czk_toml_peek(lx) == '\r') lx->p++;
    if (czk_toml_at_end(lx)) return CZK_OK;
    if (*lx->p != '\n') return czk_toml_error(lx, "unexpected '%c' after the value", *lx->p);
    lx->p++;
    lx->line++;
    return CZK_OK;
}

static bool bare_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '-'; }

static void utf8_put(char **o, unsigned cp) {
    if (cp < 0x80) *(*o)++ = (char)cp;
    else if (cp < 0x800) {
        *(*o)++ = (char)(0xC0 | (cp >> 6));
        *(*o)++ = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        *(*o)++ = (char)(0xE0 | (cp >> 12));
        *(*o)++ = (char)(0x80 | ((cp >> 6) & 0x3F));
        *(*o)++ = (char)(0x80 | (cp & 0x3F));
    } else {
        *(*o)++ = (char)(0xF0 | (cp >> 18));
        *(*o)++ = (char)(0x80 | ((cp >> 12) & 0x3F));
        *(*o)++ = (char)(0x80 | ((cp >> 6) & 0x3F));
        *(*o)++ = (char)(0x80 | (cp & 0x3F));
    }
}

/* A "basic" or 'literal' string on one line; *out malloc'd. */
static czk_err lex_string(czk_toml_lexer *lx, char **out) {
    char q = *lx->p++;
    if (lx->p + 1 < lx->end && lx->p[0] == q && lx->p[1] == q)
        return czk_toml_error(lx, "multi-line strings are not supported");
    const char *start = lx->p;
    while (!czk_toml_at_end(lx) && *lx->p != q && *lx->p != '\n') {
        if (q == '"' && *lx->p == '\\' && lx->p + 1 < lx->end) lx->p++;
        lx->p++;
    }
    if (czk_toml_at_end(lx) || *lx->p != q) return czk_toml_error(lx, "unterminated string");
    size_t n = (size_t)(lx->p - start);
    char *s = malloc(n + 1), *o = s;
    if (!s) return czk_toml_error(lx, "out of memory");
    for (const char *i = start; i < lx->p; i++) {
        if (q == '\'' || *i != '\\') {
            if ((unsigned char)*i < 0x20 && *i != '\t') {
                free(s);
                return czk_toml_error(lx, "control character in a string");
            }
            *o++ = *i;
            continue;
        }
        i++;
        switch (*i) {
        case '"': *o++ = '"'; break;
        case '\\': *o++ = '\\'; break;
        case 'n': *o++ = '\n'; break;
        case 't': *o++ = '\t'; break;
        case 'r': *o++ = '\r'; break;
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'u':
        case 'U': {
            int nd = *i == 'u' ? 4 : 8;
            unsigned cp = 0;
            for (int k = 1; k <= nd; k++) {
                if (i + k >= lx->p || !isxdigit((unsigned char)i[k])) {
                    free(s);
                    return czk_toml_error(lx, "bad \\%c escape", *i);
                }
                char h = (char)tolower((unsigned char)i[k]);
                cp = cp * 16 + (unsigned)(isdigit((unsigned char)h) ? h - '0' : h - 'a' + 10);
            }
            if (cp > 0x10FFFF || (cp >= 0xD800 && cp < 0xE000) || cp == 0) {
                free(s);
                return czk_toml_error(lx, "bad \\%c escape", *i);
            }
            i += nd;
            /* a \u escape of up to 4 UTF-8 bytes fits: the escape itself took >= 6 */
            utf8_put(&o, cp);
            break;
        }
        default: {
            char c = *i;
            free(s);
            return czk_toml_error(lx, "unknown escape \\%c", c);
        }
        }
    }
    *o = 0;
    lx->p++; /* closing quote */
    *out = s;
    return CZK_OK;
}

static czk_err lex_value(czk_toml_lexer *lx, czk_toml_value *v, int depth);

static czk_err lex_array(czk_toml_lexer *lx, czk_toml_value *v, int depth) {
    lx->p++; /* [ */
    v->t = CZK_TOML_ARRAY;
    size_t cap = 0;
    for (;;) {
        czk_toml_skip_ws_nl(lx);
        if (czk_toml_at_end(lx)) return czk_toml_error(lx, "unterminated array");
        if (*lx->p == ']') {
            lx->p++;
            return CZK_OK;
        }
        if (v->n == cap) {
            cap = cap ? 2 * cap : 8;
            czk_toml_value *p = realloc(v->items, cap * sizeof *p);
            if (!p) return czk_toml_error(lx, "out of memory");
            v->items = p;
        }
        memset(&v->items[v->n], 0, sizeof v->items[0]);
        czk_err e = lex_value(lx, &v->items[v->n], depth + 1);
        if (e != CZK_OK) {
            czk_toml_value_free(&v->items[v->n]); /* a nested array filled in part */
            return e;
        }
        v->n++;
        czk_toml_skip_ws_nl(lx);
        if (czk_toml_peek(lx) == ',') {
            lx->p++;
            continue;
        }
        if (czk_toml_peek(lx) == ']') continue;
        return czk_toml_error(lx, czk_toml_at_end(lx) ? "unterminated array" : "expected ',' or ']' in an array");
    }
}

static czk_err lex_value(czk_toml_lexer *lx, czk_toml_value *v, int depth) {
    if (depth > 8) return czk_toml_error(lx, "arrays nested too deeply");
    char c = czk_toml_peek(lx);
    if (c == '"' || c == '\'') {
        v->t = CZK_TOML_STRING;
        return lex_string(lx, &v->s);
    }
    if (c == '[') return lex_array(lx, v, depth);
    if (c == '{') return czk_toml_error(lx, "inline tables are not supported");
    /* a bare token up to a delimiter */
    const char *s = lx->p;
    while (!czk_toml_at_end(lx) && !strchr(" \t\r\n,]#", *lx->p)) lx->p++;
    size_t n = (size_t)(lx->p - s);
    char tok[128];
    if (n == 0) return czk_toml_error(lx, "missing value");
    if (n >= sizeof tok) return czk_toml_error(lx, "value too long");
    memcpy(tok, s, n);
    tok[n] = 0;
    if (!strcmp(tok, "true") || !strcmp(tok, "false")) {
        v->t = CZK_TOML_BOOL;
        v->b = tok[0] == 't';
        return CZK_OK;
    }
    /* numbers: digits with single _ between digits, optional sign */
    char clean[128];
    size_t k = 0;
    bool is_float = false, ok = true;
    for (size_t i = 0; i < n; i++) {
        char ch = tok[i];
        if (ch == '_') {
            if (i == 0 || i + 1 == n || !isdigit((unsigned char)tok[i - 1]) || !isdigit((unsigned char)tok[i + 1]))
                ok = false;
            continue;
        }
        if (ch == '.' || ch == 'e' || ch == 'E') is_float = true;
        else if (!isdigit((unsigned char)ch) && !((ch == '+' || ch == '-') && (i == 0 || tok[i - 1] == 'e' ||
                                                                              tok[i - 1] == 'E')))
            ok = false;
        clean[k++] = ch;
    }
    clean[k] = 0;
    if (ok && k) {
        char *end;
        errno = 0;
        if (is_float) {
            double f = strtod(clean, &end);
            if (!*end && !errno && isfinite(f)) {
                v->t = CZK_TOML_FLOAT;
                v->f = f;
                return CZK_OK;
            }
        } else {
            const char *digits = clean + (clean[0] == '+' || clean[0] == '-');
            if (digits[0] == '0' && digits[1]) return czk_toml_error(lx, "leading zeros in '%s'", tok);
            long long i = strtoll(clean, &end, 10);
            if (!*end && !errno) {
                v->t = CZK_TOML_INT;
                v->i = i;
                return CZK_OK;
            }
            if (errno == ERANGE) return czk_toml_error(lx, "integer '%s' out of range", tok);
        }
    }
    return czk_toml_error(lx, "'%s' is not a value (strings need quotes: \"%s\")", tok, tok);
}

czk_err czk_toml_lex_value(czk_toml_lexer *lx, czk_toml_value *v) { return lex_value(lx, v, 0); }

/* A bare or quoted key, dotted parts joined with '.'. */
czk_err czk_toml_lex_key(czk_toml_lexer *lx, char *out, size_t cap) {
    size_t n = 0;
    for (;;) {
        czk_toml_skip_ws(lx);
        const char *s;
        size_t len;
        char *quoted = NULL;
        if (czk_toml_peek(lx) == '"' || czk_toml_peek(lx) == '\'') {
            czk_err e = lex_string(lx, &quoted);
            if (e != CZK_OK) return e;
            s = quoted;
            len = strlen(quoted);
        } else {
            s = lx->p;
            while (!czk_toml_at_end(lx) && bare_char(*lx->p)) lx->p++;
            len = (size_t)(lx->p - s);
            if (!len) {
                bool eol = czk_toml_at_end(lx) || *lx->p == '\n';
                return czk_toml_error(lx, eol ? "missing key" : "bad character '%c' in a key", eol ? ' ' : *lx->p);
            }
        }
        if (n + len + 2 > cap) {
            free(quoted);
            return czk_toml_error(lx, "key too long");
        }
        if (n) out[n++] = '.';
        memcpy(out + n, s, len);
        n += len;
        out[n] = 0;
        free(quoted);
        czk_toml_skip_ws(lx);
        if (czk_toml_peek(lx) != '.') return CZK_OK;
        lx->p++;
    }
}
