/* czk — a lexer for the TOML subset of czkd's configuration file (private to
 * src/server; used by config.c, which owns the statement loop and the keys).
 *
 * The subset: [table] headers (the caller reads them with czk_toml_lex_key),
 * key = value lines with bare (A-Za-z0-9_-), "quoted" or 'quoted' keys,
 * dotted keys joined with '.', # comments, LF or CRLF line ends. Values:
 *   - basic "..." strings on one line, escapes \" \\ \n \t \r \b \f \uXXXX
 *     \UXXXXXXXX (a scalar value other than U+0000, written as UTF-8);
 *   - literal '...' strings on one line, no escapes;
 *   - integers: optional sign, decimal digits, single '_' between digits,
 *     no leading zeros, within long long;
 *   - floats: what strtod reads from digits, '.', e/E and signs (with the
 *     same '_' rule), finite;
 *   - true and false;
 *   - arrays [a, b, ...] of values, mixed types allowed (a trailing comma,
 *     newlines and comments inside; a value inside more than 8 arrays is an
 *     error).
 * Not supported, each with its own message: multi-line strings, inline
 * tables, arrays of tables (the caller's check). Dates are not values.
 *
 * The lexer reads text[0..len) in place (no NUL terminator needed; the
 * caller rejects NUL bytes) and never reads past the end. lx->line is the
 * 1-based line of lx->p: every function that consumes a newline counts it.
 *
 * Errors: every failing function writes one message to lx->msg (at most
 * lx->msglen bytes, always terminated; nothing when msg is NULL) and
 * returns CZK_ERR_FORMAT. The message is "<name>:<line>: <text>", or
 * "<name>:<line>: key '<key>': <text>" while lx->key is not empty; the
 * caller keeps lx->key (the full dotted key of the statement) and lx->line
 * as it wants them named. On an error lx->p is somewhere inside the
 * statement; the caller stops. */
#ifndef CZK_SERVER_TOML_H
#define CZK_SERVER_TOML_H

#include <stdbool.h>
#include <stddef.h>
#include "czk/err.h"

typedef enum {
    CZK_TOML_STRING,
    CZK_TOML_INT,
    CZK_TOML_FLOAT,
    CZK_TOML_BOOL,
    CZK_TOML_ARRAY
} czk_toml_type;

/* One value; only the member of its type is meaningful. A zeroed value owns
 * nothing; czk_toml_value_free frees what a lexed one owns and zeroes it. */
typedef struct czk_toml_value {
    czk_toml_type t;
    char *s;                      /* CZK_TOML_STRING: malloc'd, NUL-terminated */
    long long i;                  /* CZK_TOML_INT */
    double f;                     /* CZK_TOML_FLOAT */
    bool b;                       /* CZK_TOML_BOOL */
    struct czk_toml_value *items; /* CZK_TOML_ARRAY: n elements, malloc'd */
    size_t n;
} czk_toml_value;

typedef struct {
    const char *p, *end; /* the next character; one past the text */
    int line;            /* of p, 1-based */
    const char *name;    /* the file, for messages */
    char *msg;           /* where errors go; may be NULL */
    size_t msglen;
    char key[256];       /* the key being read, for messages; "" for none */
} czk_toml_lexer;

/* "a string", "an integer", "a float", "a boolean" or "an array". */
const char *czk_toml_type_name(czk_toml_type t);

void czk_toml_value_free(czk_toml_value *v);

/* Writes "<name>:<line>: [key '<key>': ]" and the formatted text to lx->msg;
 * returns CZK_ERR_FORMAT. */
czk_err czk_toml_error(czk_toml_lexer *lx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static inline bool czk_toml_at_end(const czk_toml_lexer *lx) { return lx->p >= lx->end; }
/* The next character, 0 at the end. */
static inline char czk_toml_peek(const czk_toml_lexer *lx) { return czk_toml_at_end(lx) ? 0 : *lx->p; }

/* Skips spaces and tabs. */
void czk_toml_skip_ws(czk_toml_lexer *lx);

/* Skips spaces, tabs, comments and newlines (between statements, inside
 * arrays). */
void czk_toml_skip_ws_nl(czk_toml_lexer *lx);

/* After a statement: spaces, an optional comment, then the end of the line
 * (consumed) or of the text; anything else is an error. */
czk_err czk_toml_end_of_line(czk_toml_lexer *lx);

/* The value that starts at lx->p (the caller skips the spaces before it)
 * into *v, which must be zeroed; lx->p ends just after it. On an error *v
 * may hold part of the value: free it with czk_toml_value_free. */
czk_err czk_toml_lex_value(czk_toml_lexer *lx, czk_toml_value *v);

/* A key at lx->p (spaces before and after it are skipped): its parts, bare
 * or quoted, joined with '.', into out[cap]. Stops before the first
 * character that does not continue the key ('=', ']', ...). */
czk_err czk_toml_lex_key(czk_toml_lexer *lx, char *out, size_t cap);

#endif
