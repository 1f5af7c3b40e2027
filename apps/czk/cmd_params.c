/* czk — `czk params check DIR`: Filecoin's v28 parameter files in a
 * directory, each judged by its digest against parameters.json's. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "czk/filecoin.h"
#include "czk/groth16_io.h"

#define MSG 1024

/* "Filecoin's" (the published digest), "development" (another digest, but a
 * file of its kind that reads), or "corrupt" (neither). */
static const char *judge(const char *path, const char *published, bool is_vk, char *why, size_t whylen) {
    char hex[33];
    if (czk_fil_params_digest_file(path, hex, why, whylen) != CZK_OK) return "corrupt";
    if (!strcmp(hex, published)) return "Filecoin's";
    czk_err e;
    if (is_vk) {
        czk_vk vk;
        e = czk_vk_read(&vk, path, why, whylen);
        if (e == CZK_OK) czk_vk_free(&vk);
    } else {
        czk_params p;
        e = czk_params_read(&p, path, CZK_DECODE_TRUSTED, czk_pool_default(), why, whylen);
        if (e == CZK_OK) czk_params_free(&p);
    }
    if (e != CZK_OK) return "corrupt";
    snprintf(why, whylen, "digest %s, Filecoin's is %s", hex, published);
    return "development";
}

int cmd_params_check(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: czk params check DIR\n");
        return CLI_USAGE;
    }
    const char *dir = argv[3];
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "czk params check: %s is not a directory\n", dir);
        return CLI_FAIL;
    }
    size_t found = 0, corrupt = 0;
    for (size_t i = 0; i < czk_fil_params_file_count(); i++) {
        const czk_fil_params_file *f = czk_fil_params_file_at(i);
        const char *names[2] = {f->params_name, f->vk_name}, *digests[2] = {f->params_digest, f->vk_digest};
        for (int k = 0; k < 2; k++) {
            char path[4096], why[MSG] = "";
            snprintf(path, sizeof path, "%s/%s", dir, names[k]);
            if (stat(path, &st) != 0) continue;
            found++;
            const char *v = judge(path, digests[k], k == 1, why, sizeof why);
            corrupt += !strcmp(v, "corrupt");
            printf("%s (%s %s): %s%s%s\n", names[k], f->circuit_id, k ? "vk" : "params", v, why[0] ? ": " : "", why);
        }
    }
    if (!found) printf("no Filecoin v28 parameter file in %s\n", dir);
    return corrupt ? CLI_FAIL : CLI_OK;
}
