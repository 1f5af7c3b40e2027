/* czkd — what the daemon's files share. */
#ifndef CZKD_H
#define CZKD_H

#include <stddef.h>
#include "czk/backend.h"
#include "czk/daemon_config.h"
#include "czk/err.h"

/* The prover backend for --backend (NULL in *out: the engine's CPU backend):
 * cuda on the first of devices (device 0 when none are listed); auto: cuda
 * when a device is visible and the CUDA backend opens, else cpu. name: "cpu"
 * or "cuda". An error with a message when cuda was asked for and cannot be
 * used. */
czk_err czkd_backend_open(czk_backend_kind kind, const int *devices, size_t n_devices, czk_backend **out, char *name,
                          size_t namelen, char *msg, size_t msglen);

#endif
