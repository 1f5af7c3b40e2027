/* czk — the GPU host code's error helper (src/gpu/gpu_err.h), without a
 * device: czk_fail's message and code, czk_cuda_fail's codes by CUDA error,
 * and CZK_CUDA_CK's message naming the failing call and where it is. */
#include <string.h>

#include "test.h"

#ifdef CZK_HAVE_CUDA
#include "../../src/gpu/gpu_err.h"

/* a function in the shape of the GPU host code's, failing at a known line */
static int ck_line;
static czk_err failing(cudaError_t ce, char *msg, size_t msglen) {
    ck_line = __LINE__ + 1;
    CZK_CUDA_CK(ce);
    return CZK_OK;
}

static czk_err cleaning(cudaError_t ce, int *cleaned, char *msg, size_t msglen) {
    czk_err e = CZK_OK;
    CZK_CUDA_CK_OUT(ce);
out:
    *cleaned = 1;
    return e;
}

int main(void) {
    char msg[256];
    CHECK(czk_fail(msg, sizeof msg, CZK_ERR_INVALID_ARGUMENT, "bad %s %d", "size", 7) == CZK_ERR_INVALID_ARGUMENT);
    CHECK(strcmp(msg, "bad size 7") == 0);
    CHECK(czk_fail(NULL, 0, CZK_ERR_IO, "ignored") == CZK_ERR_IO);
    memcpy(msg, "untouched", 10);
    CHECK(czk_fail(msg, 0, CZK_ERR_IO, "ignored") == CZK_ERR_IO && strcmp(msg, "untouched") == 0);
    char small[8];
    CHECK(czk_fail(small, sizeof small, CZK_ERR_IO, "a long message") == CZK_ERR_IO && strcmp(small, "a long ") == 0);

    CHECK(czk_cuda_fail(cudaErrorMemoryAllocation, "the thing", "/a/b/file.c", 12, msg, sizeof msg) ==
          CZK_ERR_NO_MEMORY);
    CHECK_MSG(strstr(msg, "GPU out of memory in the thing (file.c:12): ") == msg, "%s", msg);
    CHECK(czk_cuda_fail(cudaErrorInvalidValue, "x", "file.c", 3, msg, sizeof msg) == CZK_ERR_IO);
    CHECK_MSG(strstr(msg, "CUDA error in x (file.c:3): ") == msg, "%s", msg);

    CHECK(failing(cudaSuccess, msg, sizeof msg) == CZK_OK);
    CHECK(failing(cudaErrorInvalidValue, msg, sizeof msg) == CZK_ERR_IO);
    char want[64];
    snprintf(want, sizeof want, "CUDA error in ce (test_gpu_err.c:%d): ", ck_line);
    CHECK_MSG(strstr(msg, want) == msg, "%s (want %s)", msg, want);
    CHECK(failing(cudaErrorMemoryAllocation, NULL, 0) == CZK_ERR_NO_MEMORY);

    int cleaned = 0;
    CHECK(cleaning(cudaErrorLaunchFailure, &cleaned, msg, sizeof msg) == CZK_ERR_IO && cleaned);
    cleaned = 0;
    CHECK(cleaning(cudaSuccess, &cleaned, msg, sizeof msg) == CZK_OK && cleaned);
    return test_finish("test_gpu_err");
}
#else
int main(void) { return 77; } /* no CUDA: nothing of src/gpu/gpu_err.h is built */
#endif
