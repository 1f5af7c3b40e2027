/* czk — the command-line tool. */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
        printf("usage: czk <command>\n");
        return argc < 2 ? 2 : 0;
    }
    fprintf(stderr, "czk: unknown command '%s'\n", argv[1]);
    return 2;
}
