/* czk — fault injection for tests: "stage:seed" pairs, comma-separated, from
 * the engine's config or the environment (CZK_FAULT). A listed stage fails
 * for every partition of every job whose seed matches. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

static const char *const STAGES[FAULT__COUNT] = {"synth", "start", "finish"};

czk_err eng_faults_parse(eng_faults *f, const char *s, char *msg, size_t msglen) {
    memset(f, 0, sizeof *f);
    if (!s) return CZK_OK;
    const char *p = s;
    while (*p) {
        while (*p == ' ' || *p == ',') p++;
        if (!*p) break;
        const char *colon = strchr(p, ':');
        int st = -1;
        for (int k = 0; colon && k < FAULT__COUNT; k++)
            if ((size_t)(colon - p) == strlen(STAGES[k]) && !strncmp(p, STAGES[k], (size_t)(colon - p))) st = k;
        if (st < 0) {
            ENG_MSG(msg, msglen, "bad fault '%s': expected stage:seed with stage synth, start or finish", p);
            return CZK_ERR_INVALID_ARGUMENT;
        }
        char *end;
        errno = 0;
        unsigned long long v = strtoull(colon + 1, &end, 10);
        if (errno || end == colon + 1 || (*end && *end != ',' && *end != ' ') || colon[1] == '-') {
            ENG_MSG(msg, msglen, "bad fault '%s': the seed must be a non-negative integer", p);
            return CZK_ERR_INVALID_ARGUMENT;
        }
        if (f->n == ENG_MAX_FAULTS) {
            ENG_MSG(msg, msglen, "more than %d faults", ENG_MAX_FAULTS);
            return CZK_ERR_INVALID_ARGUMENT;
        }
        f->stage[f->n] = (eng_fault_stage)st;
        f->seed[f->n] = v;
        f->n++;
        p = end;
    }
    return CZK_OK;
}

bool eng_fault_hit(const eng_faults *f, eng_fault_stage stage, uint64_t seed) {
    for (int i = 0; i < f->n; i++)
        if (f->stage[i] == stage && f->seed[i] == seed) return true;
    return false;
}
