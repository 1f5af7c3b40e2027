/* czk — the HTTP status server (include/czk/http.h) on libmicrohttpd. */
#define _GNU_SOURCE
#include "czk/http.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <microhttpd.h>
#include <netdb.h>
#include <openssl/sha.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>

#include "czk/log.h"

#define MAX_ALLOWED_HOSTS 32
#define TOKEN_MAX 256

/* One open connection, for the request deadline: the reaper shuts its socket
 * down once the deadline passes (MHD then closes it; the fd stays open until
 * MHD's NOTIFY_CLOSED, which takes mu, so the reaper never touches a reused
 * fd). */
typedef struct conn {
    struct conn *prev, *next;
    int fd;
    long long deadline_ms;
    bool cut;
} conn;

typedef struct {
    char name[256]; /* lower case, without brackets */
    int port;       /* -1: the bound port or none */
} allowed_host;

struct czk_http {
    struct MHD_Daemon *d;
    czk_service *svc;
    int port;
    char host[256]; /* the listen host, without brackets */
    long request_timeout_ms;
    bool any_host;
    allowed_host allowed[MAX_ALLOWED_HOSTS];
    size_t n_allowed;
    bool has_token;
    unsigned char token_hash[SHA256_DIGEST_LENGTH];
    pthread_mutex_t mu;
    pthread_cond_t cv;
    conn *conns;
    bool stopping, reaper_started;
    pthread_t reaper;
};

static long long now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The page: the initial snapshot is put in by the server (so the first
 * render needs no request), then /status is fetched every second. */
static const char PAGE_HEAD[] =
    "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    "<title>czkd status</title>\n<style>\n"
    "body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;background:#fafafa;color:#222}\n"
    "h1{font-size:1.3em;margin:0 0 .3em}h2{font-size:1.05em;margin:1.2em 0 .4em}\n"
    ".muted{color:#777}.err{color:#b00}\n"
    "table{border-collapse:collapse;min-width:40em}td,th{padding:.2em .7em;text-align:left;border-bottom:1px solid #ddd}\n"
    "th{background:#eee}.running{color:#06c;font-weight:bold}.queued{color:#888}\n"
    ".row{display:flex;align-items:center;margin:.15em 0}.lbl{width:11em}\n"
    ".bar{position:relative;width:28em;height:1.1em;background:#e4e4e4;border-radius:3px;overflow:hidden}\n"
    ".fill{position:absolute;left:0;top:0;bottom:0;background:#4a90d9}.fill.res{background:#9b7bd4}\n"
    ".val{margin-left:.7em;font-variant-numeric:tabular-nums}\n"
    ".gw{display:inline-block;width:6.5em;margin:.2em;padding:.3em;text-align:center;border-radius:4px;background:#ddd}\n"
    ".gw.busy{background:#3a3;color:#fff}\n"
    "</style></head><body>\n"
    "<h1>czkd</h1><div id=\"summary\" class=\"muted\">loading…</div><div id=\"error\" class=\"err\"></div>\n"
    "<h2>Jobs</h2><table><thead><tr><th>job</th><th>circuit</th><th>state</th><th>priority</th>"
    "<th>partitions</th><th>age</th></tr></thead><tbody id=\"jobs\"></tbody></table>\n"
    "<div id=\"jobtotals\" class=\"muted\"></div>\n"
    "<h2>Partitions by stage</h2><div id=\"stages\"></div>\n"
    "<h2>GPU workers</h2><div id=\"gpus\"></div>\n"
    "<h2>Memory</h2><div id=\"memory\"></div>\n"
    "<h2>Resident parameters</h2><div id=\"srs\"></div>\n"
    "<script>\nvar CZK_INITIAL = ";

static const char PAGE_TAIL[] =
    ";\n"
    "function el(tag, cls, text){var e=document.createElement(tag);if(cls)e.className=cls;"
    "if(text!==undefined)e.textContent=String(text);return e;}\n"
    "function mib(b){return (b/1048576).toFixed(1)+' MiB';}\n"
    "function bar(parent,label,value,max,text,cls){var r=el('div','row');r.appendChild(el('span','lbl',label));"
    "var b=el('div','bar');var f=el('div','fill'+(cls?' '+cls:''));"
    "f.style.width=(max>0?Math.min(100,100*value/max):0)+'%';b.appendChild(f);r.appendChild(b);"
    "r.appendChild(el('span','val',text));parent.appendChild(r);}\n"
    "function clear(id){var e=document.getElementById(id);while(e.firstChild)e.removeChild(e.firstChild);return e;}\n"
    "function render(s){\n"
    " if(!s)return;\n"
    " document.getElementById('summary').textContent='backend '+s.backend+' \\u00b7 up '+s.uptime_s.toFixed(0)+' s \\u00b7 '"
    "+s.jobs.pending+' pending \\u00b7 '+s.jobs.completed+' completed \\u00b7 '+s.jobs.failed+' failed \\u00b7 '"
    "+s.jobs.cancelled+' cancelled';\n"
    " var tb=clear('jobs');\n"
    " s.jobs.active.forEach(function(j){var tr=el('tr');tr.id='job-'+j.job_id;tr.setAttribute('data-state',j.state);"
    "tr.appendChild(el('td',null,j.job_id));tr.appendChild(el('td',null,j.circuit_id));"
    "tr.appendChild(el('td',j.state,j.state));tr.appendChild(el('td',null,j.priority));"
    "tr.appendChild(el('td',null,j.partitions));tr.appendChild(el('td',null,j.age_s.toFixed(1)+' s'));tb.appendChild(tr);});\n"
    " if(!s.jobs.active.length){var tr=el('tr');var td=el('td','muted','no unfinished jobs');td.colSpan=6;"
    "tr.appendChild(td);tb.appendChild(tr);}\n"
    " document.getElementById('jobtotals').textContent=s.jobs.active.length+' unfinished of at most '+s.queue_limit;\n"
    " var st=clear('stages');var p=s.partitions;var mx=1;for(var k in p)mx=Math.max(mx,p[k]);\n"
    " ['queued','reserving','synthesizing','gpu_queued','gpu','finalizing'].forEach(function(k){"
    "bar(st,k,p[k],mx,String(p[k]));});\n"
    " var g=clear('gpus');s.gpu_workers.forEach(function(w){g.appendChild(el('span','gw'+(w.busy?' busy':''),"
    "'worker '+w.worker+(w.busy?' busy':' idle')));});\n"
    " var m=clear('memory');var mm=s.memory;\n"
    " bar(m,'budget reserved',mm.budget_reserved,mm.budget_total,mib(mm.budget_reserved)+' of '+mib(mm.budget_total));\n"
    " bar(m,'resident',mm.budget_resident,mm.budget_total,mib(mm.budget_resident),'res');\n"
    " bar(m,'high water',mm.budget_high_water,mm.budget_total,mib(mm.budget_high_water));\n"
    " for(var t in mm.tags){bar(m,'tag '+t,mm.tags[t].in_use,mm.budget_total,mib(mm.tags[t].in_use));}\n"
    " var r=clear('srs');if(!s.srs.length)r.appendChild(el('div','muted','none'));\n"
    " s.srs.forEach(function(x){r.appendChild(el('div',null,x.circuit_id+': '+mib(x.size_bytes)+', '+x.ref_count+' job(s)'));});\n"
    "}\n"
    "function tick(){fetch('/status',{cache:'no-store'}).then(function(r){if(!r.ok)throw new Error('HTTP '+r.status);"
    "return r.json();}).then(function(s){document.getElementById('error').textContent='';render(s);})"
    ".catch(function(e){document.getElementById('error').textContent='status unavailable: '+e.message;});}\n"
    "render(CZK_INITIAL);setInterval(tick,1000);\n"
    "</script></body></html>\n";

/* hdrs: NULL, or name, value, ..., NULL */
static enum MHD_Result reply_h(struct MHD_Connection *c, unsigned code, const char *type, char *body, size_t len,
                               const char *const *hdrs) {
    struct MHD_Response *r = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
    if (!r) {
        free(body);
        return MHD_NO;
    }
    MHD_add_response_header(r, "Content-Type", type);
    MHD_add_response_header(r, "Cache-Control", "no-store");
    for (size_t i = 0; hdrs && hdrs[i] && hdrs[i + 1]; i += 2) MHD_add_response_header(r, hdrs[i], hdrs[i + 1]);
    enum MHD_Result ret = MHD_queue_response(c, code, r);
    MHD_destroy_response(r);
    return ret;
}

static enum MHD_Result reply(struct MHD_Connection *c, unsigned code, const char *type, char *body, size_t len) {
    return reply_h(c, code, type, body, len, NULL);
}

static enum MHD_Result reply_text_h(struct MHD_Connection *c, unsigned code, const char *text,
                                    const char *const *hdrs) {
    char *b = strdup(text);
    return b ? reply_h(c, code, "text/plain; charset=utf-8", b, strlen(b), hdrs) : MHD_NO;
}

static enum MHD_Result reply_text(struct MHD_Connection *c, unsigned code, const char *text) {
    return reply_text_h(c, code, text, NULL);
}

/* ---- Host header and token ------------------------------------------------------------- */

static bool token_ok_chars(const char *t, size_t n) {
    if (n == 0 || n > TOKEN_MAX) return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)t[i];
        if (ch <= 0x20 || ch >= 0x7f || ch == ';' || ch == ',' || ch == '"' || ch == '\\') return false;
    }
    return true;
}

/* Whether candidate is the token: SHA-256 of both, compared in constant time
 * (neither the token's bytes nor its length leak through timing). */
static bool token_matches(const czk_http *h, const char *cand) {
    if (!cand) return false;
    unsigned char d[SHA256_DIGEST_LENGTH];
    SHA256((const unsigned char *)cand, strlen(cand), d);
    unsigned char acc = 0;
    for (size_t i = 0; i < sizeof d; i++) acc |= (unsigned char)(d[i] ^ h->token_hash[i]);
    return acc == 0;
}

static bool is_ip_literal(const char *name, bool bracketed) {
    unsigned char buf[16];
    return bracketed ? inet_pton(AF_INET6, name, buf) == 1 : inet_pton(AF_INET, name, buf) == 1;
}

/* Host: "name", "name:port", "[v6]" or "[v6]:port". */
static bool host_allowed(const czk_http *h, const char *hv) {
    if (h->any_host) return true;
    char name[256];
    const char *ps = NULL;
    bool br = false;
    size_t nl;
    if (hv[0] == '[') {
        const char *rb = strchr(hv, ']');
        if (!rb) return false;
        nl = (size_t)(rb - hv - 1);
        if (nl >= sizeof name) return false;
        memcpy(name, hv + 1, nl);
        if (rb[1] == ':') ps = rb + 2;
        else if (rb[1]) return false;
        br = true;
    } else {
        const char *colon = strchr(hv, ':');
        nl = colon ? (size_t)(colon - hv) : strlen(hv);
        if (nl >= sizeof name) return false;
        memcpy(name, hv, nl);
        if (colon) ps = colon + 1;
    }
    name[nl] = 0;
    if (!nl) return false;
    for (size_t i = 0; i < nl; i++) name[i] = (char)tolower((unsigned char)name[i]);
    long port = -1;
    if (ps) {
        char *end;
        if (!*ps || !isdigit((unsigned char)*ps)) return false;
        errno = 0;
        port = strtol(ps, &end, 10);
        if (*end || errno || port > 65535) return false;
    }
    for (size_t i = 0; i < h->n_allowed; i++) /* "name:port" entries */
        if (h->allowed[i].port >= 0 && port == h->allowed[i].port && !strcmp(name, h->allowed[i].name)) return true;
    bool port_ok = ps ? port == h->port : h->port == 80;
    if (!port_ok) return false;
    if (!strcmp(name, "localhost") || is_ip_literal(name, br) || !strcasecmp(name, h->host)) return true;
    for (size_t i = 0; i < h->n_allowed; i++)
        if (h->allowed[i].port < 0 && !strcmp(name, h->allowed[i].name)) return true;
    return false;
}

static czk_err parse_allowed(czk_http *h, const char *list, char *msg, size_t msglen) {
    const char *p = list ? list : "";
    while (*p) {
        while (*p == ',' || *p == ' ') p++;
        if (!*p) break;
        size_t n = strcspn(p, ", ");
        const char *entry = p;
        char e[300];
        if (n >= sizeof e - 1) goto bad;
        memcpy(e, p, n);
        e[n] = 0;
        p += n;
        if (!strcmp(e, "*")) {
            h->any_host = true;
            continue;
        }
        if (h->n_allowed == MAX_ALLOWED_HOSTS) {
            if (msglen) snprintf(msg, msglen, "allowed hosts: at most %d entries", MAX_ALLOWED_HOSTS);
            return CZK_ERR_INVALID_ARGUMENT;
        }
        allowed_host *a = &h->allowed[h->n_allowed];
        char *name = e, *colon;
        if (e[0] == '[') {
            char *rb = strchr(e, ']');
            if (!rb || (rb[1] && rb[1] != ':')) goto bad;
            *rb = 0;
            name = e + 1;
            colon = rb[1] == ':' ? rb + 1 : NULL;
            if (colon) colon[-1] = 0;
        } else {
            colon = strchr(e, ':');
            if (colon && strchr(colon + 1, ':')) goto bad;
        }
        a->port = -1;
        if (colon) {
            *colon = 0;
            char *end;
            long pt = strtol(colon + 1, &end, 10);
            if (!colon[1] || *end || pt < 0 || pt > 65535) goto bad;
            a->port = (int)pt;
        }
        size_t k = strlen(name);
        if (!k || k >= sizeof a->name) goto bad;
        for (size_t i = 0; i < k; i++) {
            unsigned char ch = (unsigned char)name[i];
            if (ch <= 0x20 || ch >= 0x7f || ch == '/' || ch == '@') goto bad;
            a->name[i] = (char)tolower(ch);
        }
        a->name[k] = 0;
        h->n_allowed++;
        continue;
    bad:
        if (msglen)
            snprintf(msg, msglen, "allowed hosts: '%.*s' is not a host name, host:port or [v6]:port", (int)n, entry);
        return CZK_ERR_INVALID_ARGUMENT;
    }
    return CZK_OK;
}

/* ---- request deadline -------------------------------------------------------------------- */

static void notify_connection(void *cls, struct MHD_Connection *c, void **socket_context,
                              enum MHD_ConnectionNotificationCode toe) {
    czk_http *h = cls;
    if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
        conn *k = calloc(1, sizeof *k);
        if (!k || !ci) {
            free(k);
            return;
        }
        k->fd = ci->connect_fd;
        pthread_mutex_lock(&h->mu);
        k->deadline_ms = now_ms() + h->request_timeout_ms;
        k->next = h->conns;
        if (h->conns) h->conns->prev = k;
        h->conns = k;
        pthread_cond_signal(&h->cv);
        pthread_mutex_unlock(&h->mu);
        *socket_context = k;
    } else if (toe == MHD_CONNECTION_NOTIFY_CLOSED) {
        conn *k = *socket_context;
        if (!k) return;
        pthread_mutex_lock(&h->mu);
        if (k->prev) k->prev->next = k->next;
        else h->conns = k->next;
        if (k->next) k->next->prev = k->prev;
        pthread_mutex_unlock(&h->mu);
        free(k);
        *socket_context = NULL;
    }
}

/* An answer was sent: the connection's next request has the full time again. */
static void request_completed(void *cls, struct MHD_Connection *c, void **con_cls,
                              enum MHD_RequestTerminationCode toe) {
    czk_http *h = cls;
    (void)con_cls;
    if (toe != MHD_REQUEST_TERMINATED_COMPLETED_OK) return;
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    conn *k = ci ? ci->socket_context : NULL;
    if (!k) return;
    pthread_mutex_lock(&h->mu);
    k->deadline_ms = now_ms() + h->request_timeout_ms;
    pthread_mutex_unlock(&h->mu);
}

static void *reaper(void *arg) {
    czk_http *h = arg;
    pthread_mutex_lock(&h->mu);
    while (!h->stopping) {
        long long now = now_ms(), next = now + 1000;
        unsigned cut = 0;
        for (conn *k = h->conns; k; k = k->next) {
            if (k->cut) continue;
            if (k->deadline_ms <= now) {
                shutdown(k->fd, SHUT_RDWR);
                k->cut = true;
                cut++;
            } else if (k->deadline_ms < next) {
                next = k->deadline_ms;
            }
        }
        if (cut)
            czk_log_debug("status page: closed %u connection(s) that took longer than %ld ms over a request", cut,
                          h->request_timeout_ms);
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        long long wait = next - now + 1;
        ts.tv_sec += (time_t)(wait / 1000);
        ts.tv_nsec += (long)(wait % 1000) * 1000000;
        if (ts.tv_nsec >= 1000000000) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&h->cv, &h->mu, &ts);
    }
    pthread_mutex_unlock(&h->mu);
    return NULL;
}

/* The page with the snapshot put in, every '<' written as \u003c (the JSON
 * holds them only inside strings, such as a caller's job id), so that the
 * script element holds no "</script" nor "<!--" whatever the ids say. */
static char *page(czk_service *svc, size_t *len) {
    char *json = czk_service_status_json(svc);
    const char *j = json ? json : "null";
    size_t jl = strlen(j), extra = 0;
    for (size_t i = 0; i < jl; i++) extra += j[i] == '<' ? 5 : 0;
    size_t n = sizeof PAGE_HEAD - 1 + jl + extra + sizeof PAGE_TAIL - 1;
    char *out = malloc(n + 1);
    if (out) {
        char *p = out;
        memcpy(p, PAGE_HEAD, sizeof PAGE_HEAD - 1);
        p += sizeof PAGE_HEAD - 1;
        for (size_t i = 0; i < jl; i++) {
            if (j[i] == '<') {
                memcpy(p, "\\u003c", 6);
                p += 6;
            } else {
                *p++ = j[i];
            }
        }
        memcpy(p, PAGE_TAIL, sizeof PAGE_TAIL - 1);
        p += sizeof PAGE_TAIL - 1;
        *p = 0;
        *len = (size_t)(p - out);
    }
    free(json);
    return out;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                              const char *version, const char *upload_data, size_t *upload_data_size,
                              void **con_cls) {
    czk_http *h = cls;
    (void)version;
    (void)upload_data;
    const char *hv = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST);
    if (hv && !host_allowed(h, hv)) {
        if (*upload_data_size) {
            *upload_data_size = 0;
            return MHD_YES;
        }
        static const char *const close_hdr[] = {"Connection", "close", NULL};
        return reply_text_h(c, MHD_HTTP_FORBIDDEN,
                            "forbidden: the Host header does not name this server (see daemon.status_allowed_hosts)\n",
                            close_hdr);
    }
    if (h->has_token) {
        const char *auth = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
        const char *cand = NULL;
        if (auth && !strncasecmp(auth, "Bearer ", 7)) {
            cand = auth + 7;
            while (*cand == ' ') cand++;
        }
        bool ok = token_matches(h, cand) ||
                  token_matches(h, MHD_lookup_connection_value(c, MHD_COOKIE_KIND, "czk_token"));
        const char *qt = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "token");
        if (!ok && qt && !strcmp(url, "/") && token_matches(h, qt) && !strcmp(method, "GET")) {
            /* the browser's way in: the token becomes a cookie, the URL loses it */
            char cookie[TOKEN_MAX + 80];
            snprintf(cookie, sizeof cookie, "czk_token=%s; Path=/; HttpOnly; SameSite=Strict", qt);
            const char *const hdrs[] = {"Set-Cookie", cookie, "Location", "/", NULL};
            return reply_text_h(c, MHD_HTTP_SEE_OTHER, "token accepted; see /\n", hdrs);
        }
        if (!ok) {
            if (*upload_data_size) {
                *upload_data_size = 0;
                return MHD_YES;
            }
            static const char *const hdrs[] = {"WWW-Authenticate", "Bearer realm=\"czkd\"", NULL};
            return reply_text_h(c, MHD_HTTP_UNAUTHORIZED,
                                "unauthorized: send Authorization: Bearer <token> (a browser: open /?token=<token> "
                                "once)\n",
                                hdrs);
        }
    }
    if (strcmp(method, "GET") && strcmp(method, "HEAD")) {
        if (*upload_data_size) { /* swallow a body, answer at the end */
            *upload_data_size = 0;
            return MHD_YES;
        }
        if (!*con_cls) {
            *con_cls = h;
            return MHD_YES;
        }
        return reply_text(c, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET\n");
    }
    char *body = NULL;
    size_t len = 0;
    if (!strcmp(url, "/status")) {
        body = czk_service_status_json(h->svc);
        if (!body) return reply_text(c, MHD_HTTP_SERVICE_UNAVAILABLE, "status unavailable\n");
        len = strlen(body);
        return reply(c, MHD_HTTP_OK, "application/json", body, len);
    }
    if (!strcmp(url, "/metrics")) {
        body = czk_service_metrics_text(h->svc);
        if (!body) return reply_text(c, MHD_HTTP_SERVICE_UNAVAILABLE, "metrics unavailable\n");
        return reply(c, MHD_HTTP_OK, "text/plain; version=0.0.4; charset=utf-8", body, strlen(body));
    }
    if (!strcmp(url, "/") || !strcmp(url, "/index.html")) {
        body = page(h->svc, &len);
        if (!body) return reply_text(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory\n");
        return reply(c, MHD_HTTP_OK, "text/html; charset=utf-8", body, len);
    }
    return reply_text(c, MHD_HTTP_NOT_FOUND, "not found\n");
}

czk_err czk_http_split_addr(const char *addr, char *host, size_t hostlen, int *port, char *msg, size_t msglen) {
    const char *colon;
    size_t hl;
    const char *h0 = addr;
    if (!addr || !*addr) goto bad;
    if (addr[0] == '[') {
        const char *rb = strchr(addr, ']');
        if (!rb || rb[1] != ':') goto bad;
        h0 = addr + 1;
        hl = (size_t)(rb - h0);
        colon = rb + 1;
    } else {
        colon = strrchr(addr, ':');
        if (!colon || strchr(addr, ':') != colon) goto bad;
        hl = (size_t)(colon - addr);
    }
    if (hl == 0 || hl >= hostlen) goto bad;
    char *end;
    long p = strtol(colon + 1, &end, 10);
    if (!colon[1] || *end || p < 0 || p > 65535) goto bad;
    memcpy(host, h0, hl);
    host[hl] = 0;
    *port = (int)p;
    return CZK_OK;
bad:
    if (msglen) snprintf(msg, msglen, "'%s' is not an address of the form host:port or [v6]:port", addr ? addr : "");
    return CZK_ERR_INVALID_ARGUMENT;
}

void czk_http_options_default(czk_http_options *o) {
    *o = (czk_http_options){.connection_limit = 64,
                            .per_ip_limit = 8,
                            .idle_timeout_s = 10,
                            .request_timeout_ms = 10000,
                            .allowed_hosts = NULL,
                            .token = NULL};
}

czk_err czk_http_token_load(const char *path, char *token, size_t cap, char *msg, size_t msglen) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (msglen) snprintf(msg, msglen, "token file %s: %s", path, strerror(errno));
        return CZK_ERR_IO;
    }
    char buf[TOKEN_MAX + 64];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    bool err = ferror(f) != 0;
    fclose(f);
    if (err) {
        if (msglen) snprintf(msg, msglen, "token file %s: read error", path);
        return CZK_ERR_IO;
    }
    while (n && isspace((unsigned char)buf[n - 1])) n--;
    buf[n] = 0;
    if (!token_ok_chars(buf, n) || n >= cap) {
        if (msglen)
            snprintf(msg, msglen,
                     "token file %s: the token must be 1 to %d printable ASCII characters without spaces, quotes, "
                     "'\\', ';' or ','",
                     path, TOKEN_MAX);
        memset(buf, 0, sizeof buf);
        return CZK_ERR_INVALID_ARGUMENT;
    }
    memcpy(token, buf, n + 1);
    memset(buf, 0, sizeof buf);
    return CZK_OK;
}

czk_err czk_http_start(czk_http **out, czk_service *svc, const char *listen, char *msg, size_t msglen) {
    return czk_http_start_opts(out, svc, listen, NULL, msg, msglen);
}

czk_err czk_http_start_opts(czk_http **out, czk_service *svc, const char *listen, const czk_http_options *opts,
                            char *msg, size_t msglen) {
    *out = NULL;
    czk_http_options o;
    if (opts) o = *opts;
    else czk_http_options_default(&o);
    if (!o.connection_limit || !o.per_ip_limit || !o.idle_timeout_s || o.request_timeout_ms <= 0) {
        if (msglen) snprintf(msg, msglen, "status server: limits and timeouts must be positive");
        return CZK_ERR_INVALID_ARGUMENT;
    }
    if (o.token && *o.token && !token_ok_chars(o.token, strlen(o.token))) {
        if (msglen)
            snprintf(msg, msglen, "status server: the token must be 1 to %d printable ASCII characters without spaces, "
                     "quotes, '\\', ';' or ','", TOKEN_MAX);
        return CZK_ERR_INVALID_ARGUMENT;
    }
    char host[256];
    int port;
    czk_err e = czk_http_split_addr(listen, host, sizeof host, &port, msg, msglen);
    if (e != CZK_OK) return e;
    struct addrinfo hints, *ai = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE;
    char ports[16];
    snprintf(ports, sizeof ports, "%d", port);
    int rc = getaddrinfo(host, ports, &hints, &ai);
    if (rc != 0 || !ai) {
        if (msglen) snprintf(msg, msglen, "status address %s: %s", listen, gai_strerror(rc));
        return CZK_ERR_INVALID_ARGUMENT;
    }
    czk_http *h = calloc(1, sizeof *h);
    if (!h) {
        freeaddrinfo(ai);
        return CZK_ERR_NO_MEMORY;
    }
    h->svc = svc;
    snprintf(h->host, sizeof h->host, "%s", host);
    h->request_timeout_ms = o.request_timeout_ms;
    if (o.token && *o.token) {
        h->has_token = true;
        SHA256((const unsigned char *)o.token, strlen(o.token), h->token_hash);
    }
    if ((e = parse_allowed(h, o.allowed_hosts, msg, msglen)) != CZK_OK) {
        freeaddrinfo(ai);
        free(h);
        return e;
    }
    pthread_mutex_init(&h->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&h->cv, &ca);
    pthread_condattr_destroy(&ca);
    if (pthread_create(&h->reaper, NULL, reaper, h) != 0) {
        freeaddrinfo(ai);
        czk_http_stop(h);
        if (msglen) snprintf(msg, msglen, "status server: cannot start a thread");
        return CZK_ERR_IO;
    }
    h->reaper_started = true;
    unsigned flags = MHD_USE_AUTO_INTERNAL_THREAD; /* epoll on Linux: no FD_SETSIZE cap on connections */
    if (ai->ai_family == AF_INET6) flags |= MHD_USE_IPv6;
    h->d = MHD_start_daemon(flags, 0, NULL, NULL, handle, h, MHD_OPTION_SOCK_ADDR, ai->ai_addr,
                            MHD_OPTION_CONNECTION_LIMIT, o.connection_limit, MHD_OPTION_PER_IP_CONNECTION_LIMIT,
                            o.per_ip_limit, MHD_OPTION_CONNECTION_TIMEOUT, o.idle_timeout_s,
                            MHD_OPTION_NOTIFY_CONNECTION, notify_connection, h, MHD_OPTION_NOTIFY_COMPLETED,
                            request_completed, h, MHD_OPTION_END);
    freeaddrinfo(ai);
    if (!h->d) {
        if (msglen) snprintf(msg, msglen, "cannot serve HTTP on %s (address in use or not available)", listen);
        czk_http_stop(h);
        return CZK_ERR_IO;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(h->d, MHD_DAEMON_INFO_BIND_PORT);
    h->port = info ? (int)info->port : port;
    czk_log_info("status page on http://%s%s%s:%d/%s", strchr(host, ':') ? "[" : "", host, strchr(host, ':') ? "]" : "",
                 h->port, h->has_token ? " (requests need the token)" : "");
    *out = h;
    return CZK_OK;
}

int czk_http_port(const czk_http *h) { return h ? h->port : 0; }

void czk_http_stop(czk_http *h) {
    if (!h) return;
    if (h->d) MHD_stop_daemon(h->d);
    pthread_mutex_lock(&h->mu);
    h->stopping = true;
    pthread_cond_signal(&h->cv);
    pthread_mutex_unlock(&h->mu);
    if (h->reaper_started) pthread_join(h->reaper, NULL);
    pthread_cond_destroy(&h->cv);
    pthread_mutex_destroy(&h->mu);
    while (h->conns) { /* MHD_stop_daemon notified every close; nothing should be left */
        conn *k = h->conns;
        h->conns = k->next;
        free(k);
    }
    free(h);
}
