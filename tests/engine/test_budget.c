/* The memory budget: immediate refusal of impossible requests, service in
 * priority-then-age order without overtaking, cancellation and timeouts,
 * charges ahead of waiters for bytes already in memory, shrink/transfer accounting, waiters woken by a shrink, and a
 * multi-threaded stress run whose high-water mark never passes the total. */
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <time.h>

#include "czk/budget.h"
#include "test.h"

static czk_budget *B;

typedef struct {
    size_t bytes;
    czk_priority prio;
    int id;
    atomic_bool cancel;
    czk_err result;
} waiter_arg;

static pthread_mutex_t order_mu = PTHREAD_MUTEX_INITIALIZER;
static int order[16], norder;

static void *waiter_main(void *p) {
    waiter_arg *w = p;
    czk_reservation r;
    char msg[128];
    w->result = czk_budget_reserve(B, w->bytes, w->prio, &w->cancel, -1, &r, msg, sizeof msg);
    if (w->result == CZK_OK) {
        pthread_mutex_lock(&order_mu);
        order[norder++] = w->id;
        pthread_mutex_unlock(&order_mu);
        czk_budget_release(&r);
    }
    return NULL;
}

static void wait_for_waiters(size_t n) {
    while (czk_budget_waiters(B) < n) sched_yield();
}

static void test_basics(void) {
    char msg[256] = "";
    czk_reservation r, s;
    CHECK(czk_budget_reserve(B, 2000, CZK_PRIO_NORMAL, NULL, -1, &r, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    CHECK(strstr(msg, "never fit") != NULL);
    CHECK(r.bytes == 0);
    CHECK(czk_budget_reserve(B, 600, CZK_PRIO_NORMAL, NULL, -1, &r, msg, sizeof msg) == CZK_OK);
    CHECK(czk_budget_reserved(B) == 600);
    CHECK(!czk_budget_try_reserve(B, 500, &s));
    CHECK(czk_budget_try_reserve(B, 400, &s));
    CHECK(czk_budget_reserved(B) == 1000);
    czk_reservation u;
    CHECK(czk_budget_reserve(B, 1, CZK_PRIO_NORMAL, NULL, 30, &u, msg, sizeof msg) == CZK_ERR_TIMEOUT);
    CHECK(u.bytes == 0 && czk_budget_reserved(B) == 1000 && czk_budget_waiters(B) == 0);
    czk_budget_shrink(&r, 100);
    CHECK(czk_budget_reserved(B) == 500 && r.bytes == 100);
    czk_reservation t = {0};
    czk_budget_transfer(&t, &r, 60);
    CHECK(t.bytes == 60 && r.bytes == 40 && czk_budget_reserved(B) == 500);
    czk_budget_release(&t);
    czk_budget_release(&r);
    czk_budget_release(&s);
    czk_budget_release(&s);
    CHECK(czk_budget_reserved(B) == 0);
    CHECK(czk_budget_high_water(B) == 1000);
    atomic_bool yes = true;
    CHECK(czk_budget_reserve(B, 10, CZK_PRIO_HIGH, &yes, -1, &r, msg, sizeof msg) == CZK_ERR_CANCELLED);
    CHECK(czk_budget_reserve(B, 0, CZK_PRIO_LOW, NULL, 0, &r, msg, sizeof msg) == CZK_OK && r.bytes == 0);
}

/* Waiters for the whole budget, queued in a known order, are served
 * CRITICAL, HIGH, NORMAL (oldest first), LOW. */
static void test_order(void) {
    czk_reservation hold;
    CHECK(czk_budget_try_reserve(B, 1000, &hold));
    waiter_arg w[5] = {{1000, CZK_PRIO_LOW, 0, false, 0},
                       {1000, CZK_PRIO_NORMAL, 1, false, 0},
                       {1000, CZK_PRIO_NORMAL, 2, false, 0},
                       {1000, CZK_PRIO_CRITICAL, 3, false, 0},
                       {1000, CZK_PRIO_HIGH, 4, false, 0}};
    pthread_t t[5];
    norder = 0;
    for (int i = 0; i < 5; i++) {
        pthread_create(&t[i], NULL, waiter_main, &w[i]);
        wait_for_waiters((size_t)i + 1);
    }
    czk_budget_release(&hold);
    for (int i = 0; i < 5; i++) pthread_join(t[i], NULL);
    int want[5] = {3, 4, 1, 2, 0};
    CHECK(norder == 5);
    for (int i = 0; i < 5; i++) CHECK_MSG(order[i] == want[i], "position %d: waiter %d", i, order[i]);
    CHECK(czk_budget_reserved(B) == 0);
}

/* A large request at the head is not overtaken by a small one behind it. */
static void test_no_overtaking(void) {
    czk_reservation hold;
    CHECK(czk_budget_try_reserve(B, 700, &hold));
    /* big needs the whole budget, so small cannot run until big released it */
    waiter_arg big = {1000, CZK_PRIO_NORMAL, 10, false, 0}, small = {100, CZK_PRIO_NORMAL, 11, false, 0};
    pthread_t tb, ts;
    norder = 0;
    pthread_create(&tb, NULL, waiter_main, &big);
    wait_for_waiters(1);
    pthread_create(&ts, NULL, waiter_main, &small);
    wait_for_waiters(2);
    /* 300 bytes are free: enough for small, but big is ahead of it */
    czk_reservation probe;
    CHECK(!czk_budget_try_reserve(B, 100, &probe));
    CHECK(norder == 0);
    /* bytes already in memory are charged ahead of the waiters, when they fit */
    CHECK(!czk_budget_charge(B, 301, &probe) && probe.bytes == 0);
    CHECK(czk_budget_charge(B, 300, &probe) && probe.bytes == 300 && czk_budget_reserved(B) == 1000);
    czk_budget_release(&probe);
    CHECK(norder == 0);
    czk_budget_release(&hold);
    pthread_join(tb, NULL);
    pthread_join(ts, NULL);
    CHECK(norder == 2 && order[0] == 10 && order[1] == 11);
}

static void test_cancel(void) {
    czk_reservation hold;
    CHECK(czk_budget_try_reserve(B, 1000, &hold));
    waiter_arg w = {500, CZK_PRIO_NORMAL, 20, false, 0}, after = {500, CZK_PRIO_LOW, 21, false, 0};
    pthread_t t, ta;
    norder = 0;
    pthread_create(&t, NULL, waiter_main, &w);
    wait_for_waiters(1);
    pthread_create(&ta, NULL, waiter_main, &after);
    wait_for_waiters(2);
    atomic_store(&w.cancel, true);
    czk_budget_interrupt(B);
    pthread_join(t, NULL);
    CHECK(w.result == CZK_ERR_CANCELLED);
    CHECK(czk_budget_reserved(B) == 1000);
    czk_budget_release(&hold);
    pthread_join(ta, NULL);
    CHECK(after.result == CZK_OK && norder == 1 && order[0] == 21);
    CHECK(czk_budget_reserved(B) == 0 && czk_budget_waiters(B) == 0);
}

static int served(void) {
    pthread_mutex_lock(&order_mu);
    int n = norder;
    pthread_mutex_unlock(&order_mu);
    return n;
}

/* Waits at most ms milliseconds for n waiters to have been served. */
static bool served_within(int n, long ms) {
    struct timespec t0, now;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    while (served() < n) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        if ((now.tv_sec - t0.tv_sec) * 1000 + (now.tv_nsec - t0.tv_nsec) / 1000000 > ms) return false;
        const struct timespec pause = {0, 1000000};
        nanosleep(&pause, NULL);
    }
    return true;
}

/* A shrink wakes the waiters it makes room for (no lost wake-up): waiters
 * with no timeout, queued behind a full budget, are served within seconds of
 * a shrink (not a release) of the reservation that filled it, the second
 * woken by the first taking its bytes. Without the broadcast in
 * czk_budget_shrink they would sleep forever; the test then fails after 5 s
 * and releases everything so that it ends. */
static void test_shrink_wakes(void) {
    czk_reservation hold;
    CHECK(czk_budget_try_reserve(B, 1000, &hold));
    waiter_arg w1 = {600, CZK_PRIO_NORMAL, 30, false, 0}, w2 = {300, CZK_PRIO_NORMAL, 31, false, 0};
    pthread_t t1, t2;
    norder = 0;
    pthread_create(&t1, NULL, waiter_main, &w1);
    wait_for_waiters(1);
    pthread_create(&t2, NULL, waiter_main, &w2);
    wait_for_waiters(2);
    czk_budget_shrink(&hold, 700); /* 300 free: w1 (the head) does not fit, nobody is served */
    CHECK(czk_budget_reserved(B) == 700 && czk_budget_waiters(B) == 2 && served() == 0);
    czk_budget_shrink(&hold, 100); /* 900 free: w1, then w2 */
    bool ok = served_within(2, 5000);
    CHECK_MSG(ok, "waiters served %d of 2 within 5 s of a shrink that made room for both", served());
    if (!ok) czk_budget_release(&hold);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    /* both fit at once, so the order in which they note being served is
     * not the order of service: only that both were */
    CHECK(w1.result == CZK_OK && w2.result == CZK_OK);
    czk_budget_release(&hold);
    CHECK(czk_budget_reserved(B) == 0 && czk_budget_waiters(B) == 0);
}

typedef struct {
    uint64_t seed;
} stress_arg;

static void *stress_main(void *p) {
    stress_arg *a = p;
    czk_rng rng;
    czk_rng_seed(&rng, a->seed);
    for (int i = 0; i < 3000; i++) {
        czk_reservation r;
        size_t want = 1 + czk_rng_next(&rng) % 400;
        czk_priority prio = (czk_priority)(czk_rng_next(&rng) % 4);
        if (czk_budget_reserve(B, want, prio, NULL, -1, &r, NULL, 0) != CZK_OK) {
            CHECK(false);
            continue;
        }
        if (czk_budget_reserved(B) > czk_budget_total(B)) CHECK(false);
        czk_budget_shrink(&r, want / 2);
        if (czk_rng_next(&rng) & 1) sched_yield();
        czk_budget_release(&r);
    }
    return NULL;
}

int main(void) {
    czk_rng rng;
    uint64_t seed = test_seed_rng(&rng, "test_budget");
    CHECK(czk_budget_create(&B, 0) == CZK_ERR_INVALID_ARGUMENT);
    CHECK(czk_budget_create(&B, 1000) == CZK_OK);
    test_basics();
    test_order();
    test_no_overtaking();
    test_cancel();
    test_shrink_wakes();
    czk_budget_destroy(B);

    CHECK(czk_budget_create(&B, 1000) == CZK_OK);
    pthread_t t[8];
    stress_arg args[8];
    for (int i = 0; i < 8; i++) {
        args[i].seed = seed + (uint64_t)i;
        pthread_create(&t[i], NULL, stress_main, &args[i]);
    }
    for (int i = 0; i < 8; i++) pthread_join(t[i], NULL);
    CHECK(czk_budget_reserved(B) == 0 && czk_budget_waiters(B) == 0);
    CHECK(czk_budget_high_water(B) <= 1000);
    czk_budget_destroy(B);

    size_t bytes;
    char msg[256];
    CHECK(czk_budget_auto_bytes(&bytes, 1u << 20, msg, sizeof msg) == CZK_OK && bytes > 0);
    CHECK(czk_budget_auto_bytes(&bytes, SIZE_MAX, msg, sizeof msg) == CZK_ERR_INVALID_ARGUMENT);
    return test_finish("test_budget");
}
