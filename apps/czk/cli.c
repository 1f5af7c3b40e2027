/* czk — option parsing shared by the commands. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

bool cli_parse(cli_args *a, int argc, char **argv, int from, const char *const *known) {
    memset(a, 0, sizeof *a);
    for (int i = from; i < argc; i++) {
        const char *arg = argv[i];
        if (strncmp(arg, "--", 2) != 0) {
            if (a->npos == 4) {
                fprintf(stderr, "czk: too many arguments at '%s'\n", arg);
                return false;
            }
            a->positional[a->npos++] = arg;
            continue;
        }
        bool ok = false;
        for (int k = 0; known[k]; k++) ok |= !strcmp(arg + 2, known[k]);
        if (!ok) {
            fprintf(stderr, "czk: unknown option '%s'\n", arg);
            return false;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "czk: option '%s' needs a value\n", arg);
            return false;
        }
        if (a->n == CLI_MAX_OPTS) {
            fprintf(stderr, "czk: more than %d options\n", CLI_MAX_OPTS);
            return false;
        }
        a->opts[a->n++] = (cli_opt){arg + 2, argv[i + 1], false};
        i++;
    }
    return true;
}

const char *cli_get(cli_args *a, const char *name) {
    for (int i = a->n - 1; i >= 0; i--) {
        if (!strcmp(a->opts[i].name, name)) return a->opts[i].value;
    }
    return NULL;
}

int cli_missing(const char *cmd, const char *name) {
    fprintf(stderr, "czk %s: --%s is required (see czk help)\n", cmd, name);
    return CLI_USAGE;
}

bool cli_parse_u64(const char *s, uint64_t *out) {
    if (!s || !*s || *s == '-') return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || *end) return false;
    *out = v;
    return true;
}

double cli_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
