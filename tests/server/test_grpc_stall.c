/* Stalled and slow clients (issue M, point 1): 1,100 calls that send their
 * headers and never a message, over four connections, hold no handler
 * thread: meanwhile a SubmitProof and an AwaitProof of the demo circuit
 * complete in their normal time, the process's thread count stays bounded,
 * and once the receive timeout passed every stalled call ends with
 * DEADLINE_EXCEEDED and a message naming daemon.receive_timeout. A call
 * whose message comes late but within the timeout is served; a stop with
 * stalled calls open is prompt and answers them UNAVAILABLE. The stalled
 * calls are made with gRPC core directly (a channel per connection). */
#define _GNU_SOURCE
#include <dirent.h>
#include <ftw.h>
#include <grpc/byte_buffer.h>
#include <grpc/grpc.h>
#include <grpc/grpc_security.h>
#include <grpc/support/time.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../src/server/grpc_call.h"
#include "czk/grpc_client.h"
#include "czk/grpc_server.h"
#include "czk/log.h"
#include "czk/service.h"
#include "test.h"

#define N_STALLED 1100
#define N_CONN 4
#define RECEIVE_TIMEOUT_MS 2000

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int n_threads(void) {
    DIR *d = opendir("/proc/self/task");
    if (!d) return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        if (e->d_name[0] != '.') n++;
    closedir(d);
    return n;
}

/* calls arrived at the server and not yet freed */
static size_t server_live(czk_grpc_server *g) {
    pthread_mutex_lock(&g->mu);
    size_t n = g->live;
    pthread_mutex_unlock(&g->mu);
    return n;
}

/* ---- a raw client ------------------------------------------------------------------- */

typedef struct {
    grpc_call *call;
    grpc_metadata_array initial, trailing;
    grpc_status_code status;
    grpc_slice details;
    bool done, sent;
    double ended;
} stalled;

typedef struct {
    grpc_channel *ch[N_CONN];
    grpc_completion_queue *cq;
    stalled *calls;
    int n, n_done;
} stall_set;

static void stall_open(stall_set *ss, const char *addr) {
    memset(ss, 0, sizeof *ss);
    grpc_arg a;
    memset(&a, 0, sizeof a);
    a.type = GRPC_ARG_INTEGER; /* a connection per channel */
    a.key = (char *)GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL;
    a.value.integer = 1;
    grpc_channel_args args = {1, &a};
    for (int i = 0; i < N_CONN; i++) {
        grpc_channel_credentials *cr = grpc_insecure_credentials_create();
        ss->ch[i] = grpc_channel_create(addr, cr, &args);
        grpc_channel_credentials_release(cr);
    }
    ss->cq = grpc_completion_queue_create_for_next(NULL);
}

/* Starts n calls of method that send their headers only. */
static void stall_start(stall_set *ss, int n, const char *method) {
    ss->calls = calloc((size_t)n, sizeof *ss->calls);
    ss->n = n;
    grpc_slice m = grpc_slice_from_static_string(method);
    for (int i = 0; i < n; i++) {
        stalled *s = &ss->calls[i];
        grpc_metadata_array_init(&s->initial);
        grpc_metadata_array_init(&s->trailing);
        s->call = grpc_channel_create_call(ss->ch[i % N_CONN], NULL, GRPC_PROPAGATE_DEFAULTS, ss->cq, m, NULL,
                                           gpr_inf_future(GPR_CLOCK_REALTIME), NULL);
        grpc_op ops[1];
        memset(ops, 0, sizeof ops);
        ops[0].op = GRPC_OP_SEND_INITIAL_METADATA;
        ops[0].flags = GRPC_INITIAL_METADATA_WAIT_FOR_READY;
        CHECK(grpc_call_start_batch(s->call, ops, 1, &s->sent, NULL) == GRPC_CALL_OK);
        grpc_op rops[2];
        memset(rops, 0, sizeof rops);
        rops[0].op = GRPC_OP_RECV_INITIAL_METADATA;
        rops[0].data.recv_initial_metadata.recv_initial_metadata = &s->initial;
        rops[1].op = GRPC_OP_RECV_STATUS_ON_CLIENT;
        rops[1].data.recv_status_on_client.trailing_metadata = &s->trailing;
        rops[1].data.recv_status_on_client.status = &s->status;
        rops[1].data.recv_status_on_client.status_details = &s->details;
        CHECK(grpc_call_start_batch(s->call, rops, 2, s, NULL) == GRPC_CALL_OK);
    }
}

/* Collects the calls that ended until the deadline (seconds from now). */
static void stall_collect(stall_set *ss, double within_s) {
    double until = now_s() + within_s;
    while (ss->n_done < ss->n) {
        double left = until - now_s();
        gpr_timespec dl = gpr_time_add(gpr_now(GPR_CLOCK_MONOTONIC),
                                       gpr_time_from_millis(left > 0 ? (int64_t)(left * 1e3) : 0, GPR_TIMESPAN));
        grpc_event ev = grpc_completion_queue_next(ss->cq, dl, NULL);
        if (ev.type != GRPC_OP_COMPLETE) break;
        stalled *s = ev.tag;
        if (!ss->calls || (char *)ev.tag < (char *)ss->calls || (char *)ev.tag >= (char *)(ss->calls + ss->n) ||
            ((char *)ev.tag - (char *)ss->calls) % sizeof *ss->calls) {
            continue; /* a SEND_INITIAL_METADATA done (tag &calls[i].sent) */
        }
        s->done = true;
        s->ended = now_s();
        ss->n_done++;
    }
}

static void stall_close(stall_set *ss) {
    for (int i = 0; i < ss->n; i++) {
        if (!ss->calls[i].done) grpc_call_cancel(ss->calls[i].call, NULL);
    }
    stall_collect(ss, 10);
    for (int i = 0; i < ss->n; i++) {
        grpc_call_unref(ss->calls[i].call);
        grpc_metadata_array_destroy(&ss->calls[i].initial);
        grpc_metadata_array_destroy(&ss->calls[i].trailing);
        grpc_slice_unref(ss->calls[i].details);
    }
    free(ss->calls);
    ss->calls = NULL;
    ss->n = ss->n_done = 0;
}

static void stall_free(stall_set *ss) {
    for (int i = 0; i < N_CONN; i++) grpc_channel_destroy(ss->ch[i]);
    grpc_completion_queue_shutdown(ss->cq);
    while (grpc_completion_queue_next(ss->cq, gpr_inf_future(GPR_CLOCK_MONOTONIC), NULL).type != GRPC_QUEUE_SHUTDOWN) {
    }
    grpc_completion_queue_destroy(ss->cq);
}

/* A GetStatus call whose (empty) message is sent delay_s after its headers. */
static grpc_status_code late_call(grpc_channel *ch, double delay_s, char *why, size_t whylen) {
    grpc_completion_queue *cq = grpc_completion_queue_create_for_pluck(NULL);
    grpc_call *call = grpc_channel_create_call(ch, NULL, GRPC_PROPAGATE_DEFAULTS, cq,
                                               grpc_slice_from_static_string("/cuzk.v1.ProvingEngine/GetStatus"),
                                               NULL, gpr_inf_future(GPR_CLOCK_REALTIME), NULL);
    grpc_op ops[5];
    memset(ops, 0, sizeof ops);
    ops[0].op = GRPC_OP_SEND_INITIAL_METADATA;
    ops[0].flags = GRPC_INITIAL_METADATA_WAIT_FOR_READY;
    int tag1 = 1, tag2 = 2;
    CHECK(grpc_call_start_batch(call, ops, 1, &tag1, NULL) == GRPC_CALL_OK);
    grpc_completion_queue_pluck(cq, &tag1, gpr_inf_future(GPR_CLOCK_REALTIME), NULL);
    usleep((useconds_t)(delay_s * 1e6)); /* the slow client */
    grpc_slice empty = grpc_empty_slice();
    grpc_byte_buffer *bb = grpc_raw_byte_buffer_create(&empty, 1);
    grpc_metadata_array init_md, trailing;
    grpc_metadata_array_init(&init_md);
    grpc_metadata_array_init(&trailing);
    grpc_byte_buffer *resp = NULL;
    grpc_status_code st = GRPC_STATUS_UNKNOWN;
    grpc_slice details = grpc_empty_slice();
    memset(ops, 0, sizeof ops);
    ops[0].op = GRPC_OP_SEND_MESSAGE;
    ops[0].data.send_message.send_message = bb;
    ops[1].op = GRPC_OP_SEND_CLOSE_FROM_CLIENT;
    ops[2].op = GRPC_OP_RECV_INITIAL_METADATA;
    ops[2].data.recv_initial_metadata.recv_initial_metadata = &init_md;
    ops[3].op = GRPC_OP_RECV_MESSAGE;
    ops[3].data.recv_message.recv_message = &resp;
    ops[4].op = GRPC_OP_RECV_STATUS_ON_CLIENT;
    ops[4].data.recv_status_on_client.trailing_metadata = &trailing;
    ops[4].data.recv_status_on_client.status = &st;
    ops[4].data.recv_status_on_client.status_details = &details;
    CHECK(grpc_call_start_batch(call, ops, 5, &tag2, NULL) == GRPC_CALL_OK);
    grpc_completion_queue_pluck(cq, &tag2, gpr_inf_future(GPR_CLOCK_REALTIME), NULL);
    snprintf(why, whylen, "%.*s", (int)GRPC_SLICE_LENGTH(details), (const char *)GRPC_SLICE_START_PTR(details));
    if (st == GRPC_STATUS_OK && !resp) st = GRPC_STATUS_DATA_LOSS;
    if (resp) grpc_byte_buffer_destroy(resp);
    grpc_byte_buffer_destroy(bb);
    grpc_slice_unref(details);
    grpc_metadata_array_destroy(&init_md);
    grpc_metadata_array_destroy(&trailing);
    grpc_call_unref(call);
    grpc_completion_queue_shutdown(cq);
    grpc_completion_queue_destroy(cq);
    return st;
}

/* SubmitProof and AwaitProof of the demo circuit; the seconds both took, or -1. */
static double prove_demo(czk_grpc_client *c, const char *seed) {
    double t0 = now_s();
    char d[512];
    Cuzk__V1__SubmitProofRequest rq = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    rq.circuit_id = "demo";
    rq.circuit_input.data = (uint8_t *)seed;
    rq.circuit_input.len = strlen(seed);
    ProtobufCMessage *resp = NULL;
    int st = czk_grpc_client_unary(c, "SubmitProof", &rq.base, &cuzk__v1__submit_proof_response__descriptor, 10000,
                                   &resp, d, sizeof d);
    CHECK_MSG(st == 0 && resp, "submit: %s: %s", czk_grpc_code_name(st), d);
    if (st != 0 || !resp) return -1;
    Cuzk__V1__AwaitProofRequest aw = CUZK__V1__AWAIT_PROOF_REQUEST__INIT;
    char job[CZK_JOB_ID_MAX];
    snprintf(job, sizeof job, "%s", ((Cuzk__V1__SubmitProofResponse *)resp)->job_id);
    protobuf_c_message_free_unpacked(resp, NULL);
    aw.job_id = job;
    resp = NULL;
    st = czk_grpc_client_unary(c, "AwaitProof", &aw.base, &cuzk__v1__await_proof_response__descriptor, 10000, &resp,
                               d, sizeof d);
    bool ok = st == 0 && resp &&
              ((Cuzk__V1__AwaitProofResponse *)resp)->status == CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED;
    CHECK_MSG(ok, "await: %s: %s", czk_grpc_code_name(st), d);
    if (resp) protobuf_c_message_free_unpacked(resp, NULL);
    return ok ? now_s() - t0 : -1;
}

/* ---- the tests ----------------------------------------------------------------------- */

static void test_stalled(czk_service *svc) {
    char msg[512], addr[64];
    czk_grpc_server_options o;
    memset(&o, 0, sizeof o);
    o.receive_timeout_ms = RECEIVE_TIMEOUT_MS;
    czk_grpc_server *g = NULL;
    czk_err e = czk_grpc_server_start(&g, svc, "127.0.0.1:0", &o, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "start: %s", msg);
    if (e != CZK_OK) return;
    snprintf(addr, sizeof addr, "127.0.0.1:%d", czk_grpc_server_port(g));
    czk_grpc_client *c;
    CHECK(czk_grpc_client_open(&c, addr, 0, true, msg, sizeof msg) == CZK_OK);
    double normal = prove_demo(c, "3"); /* also warms the circuit up */
    normal = prove_demo(c, "4");
    int threads0 = n_threads();

    stall_set ss;
    stall_open(&ss, addr);
    double t0 = now_s();
    stall_start(&ss, N_STALLED, "/cuzk.v1.ProvingEngine/SubmitProof");
    /* every stalled call has reached the server */
    while (server_live(g) < N_STALLED && now_s() - t0 < RECEIVE_TIMEOUT_MS / 1e3 / 2) usleep(2000);
    CHECK_MSG(server_live(g) >= N_STALLED, "%zu of %d stalled calls arrived", server_live(g), N_STALLED);
    double t_arrived = now_s();
    double took = prove_demo(c, "5");
    double t_proved = now_s();
    int threads1 = n_threads();
    CHECK_MSG(took >= 0 && took < normal + 1.0, "a proof among %d stalled calls took %.2f s (normally %.2f s)",
              N_STALLED, took, normal);
    CHECK_MSG(t_proved - t0 < RECEIVE_TIMEOUT_MS / 1e3, "the proof came %.2f s after the stalled calls' start",
              t_proved - t0);
    CHECK_MSG(threads1 - threads0 < 32, "threads: %d before the stalled calls, %d among them", threads0, threads1);
    stall_collect(&ss, 0); /* none ended yet: they were all open while the proof ran */
    CHECK_MSG(ss.n_done == 0, "%d stalled calls ended before their timeout", ss.n_done);

    /* a client that sends its message late, within the timeout, is served */
    grpc_status_code st = late_call(ss.ch[0], 0.3, msg, sizeof msg);
    CHECK_MSG(st == GRPC_STATUS_OK, "a message 0.3 s after the headers: %s: %s", czk_grpc_status_name(st), msg);

    /* the receive timeout ends every stalled call at the server, naming the limit */
    while (server_live(g) > 0 && now_s() - t0 < RECEIVE_TIMEOUT_MS / 1e3 + 3) usleep(2000);
    double t_freed = now_s();
    CHECK_MSG(server_live(g) == 0, "%zu calls still held after the receive timeout", server_live(g));
    CHECK_MSG(t_freed - t0 >= RECEIVE_TIMEOUT_MS / 1e3 - 0.05 && t_freed - t_arrived < RECEIVE_TIMEOUT_MS / 1e3 + 1.0,
              "the stalled calls were freed %.2f s after their start (timeout %.1f s)", t_freed - t0,
              RECEIVE_TIMEOUT_MS / 1e3);
    stall_collect(&ss, 2);
    CHECK_MSG(ss.n_done == N_STALLED, "%d of %d stalled calls ended", ss.n_done, N_STALLED);
    int wrong = 0;
    double last = 0;
    for (int i = 0; i < ss.n; i++) {
        stalled *s = &ss.calls[i];
        if (!s->done) continue;
        const char *d = (const char *)GRPC_SLICE_START_PTR(s->details);
        if (s->status != GRPC_STATUS_DEADLINE_EXCEEDED ||
            !memmem(d, GRPC_SLICE_LENGTH(s->details), "daemon.receive_timeout", 22)) {
            if (wrong++ == 0)
                CHECK_MSG(false, "stalled call %d: %s: %.*s", i, czk_grpc_status_name(s->status),
                          (int)GRPC_SLICE_LENGTH(s->details), d);
        }
        if (s->ended > last) last = s->ended;
    }
    CHECK_MSG(wrong == 0, "%d stalled calls ended otherwise", wrong);
    CHECK_MSG(last - t_arrived < RECEIVE_TIMEOUT_MS / 1e3 + 1.5, "the last stalled call ended %.2f s after its start",
              last - t0);
    stall_close(&ss);
    /* the server serves on */
    CHECK(prove_demo(c, "6") >= 0);

    /* a stop with stalled calls open: prompt, and they end UNAVAILABLE */
    stall_start(&ss, 100, "/cuzk.v1.ProvingEngine/AwaitProof");
    t0 = now_s();
    while (server_live(g) < 100 && now_s() - t0 < 1) usleep(2000);
    CHECK_MSG(server_live(g) == 100, "%zu of 100 stalled calls arrived", server_live(g));
    czk_grpc_client_close(c);
    t0 = now_s();
    czk_grpc_server_stop(g);
    double stop_s = now_s() - t0;
    CHECK_MSG(stop_s < 1.0, "stop with 100 stalled calls took %.2f s", stop_s);
    stall_collect(&ss, 2);
    CHECK_MSG(ss.n_done == 100, "%d of 100 stalled calls ended at the stop", ss.n_done);
    int unavailable = 0;
    for (int i = 0; i < ss.n; i++) unavailable += ss.calls[i].done && ss.calls[i].status == GRPC_STATUS_UNAVAILABLE;
    CHECK_MSG(unavailable == 100, "%d of 100 stalled calls ended UNAVAILABLE at the stop", unavailable);
    stall_close(&ss);
    stall_free(&ss);
}

static char root[256];

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(p);
}

int main(void) {
    czk_log_set_level(getenv("STALL_DEBUG") ? CZK_LOG_DEBUG : CZK_LOG_WARN);
    grpc_init();
    snprintf(root, sizeof root, "%s/czk-test-grpc-stall-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(root)) {
        perror("mkdtemp");
        return 1;
    }
    char state[300], params[300], msg[512];
    snprintf(state, sizeof state, "%s/state", root);
    snprintf(params, sizeof params, "%s/params", root);
    czk_service_config cfg;
    czk_service_config_default(&cfg);
    cfg.state_dir = state;
    cfg.param_cache = params;
    cfg.engine.budget_bytes = (size_t)512 << 20;
    cfg.engine.partition_workers = 1;
    cfg.engine.gpu_workers = 1;
    cfg.engine.threads = 2;
    cfg.engine.faults = "";
    cfg.generate_dev_params = true; /* the demo circuit's, made on first use */
    czk_service *svc = NULL;
    czk_err e = czk_service_open(&svc, &cfg, msg, sizeof msg);
    CHECK_MSG(e == CZK_OK, "service: %s", msg);
    if (e == CZK_OK) {
        test_stalled(svc);
        czk_service_close(svc);
    }
    nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
    grpc_shutdown();
    return test_finish("test_grpc_stall");
}
