/* czk — the HTTP status server (include/czk/http.h) on libmicrohttpd. */
#define _GNU_SOURCE
#include "czk/http.h"

#include <microhttpd.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "czk/log.h"

struct czk_http {
    struct MHD_Daemon *d;
    czk_service *svc;
    int port;
};

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

static enum MHD_Result reply(struct MHD_Connection *c, unsigned code, const char *type, char *body, size_t len) {
    struct MHD_Response *r = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
    if (!r) {
        free(body);
        return MHD_NO;
    }
    MHD_add_response_header(r, "Content-Type", type);
    MHD_add_response_header(r, "Cache-Control", "no-store");
    enum MHD_Result ret = MHD_queue_response(c, code, r);
    MHD_destroy_response(r);
    return ret;
}

static enum MHD_Result reply_text(struct MHD_Connection *c, unsigned code, const char *text) {
    char *b = strdup(text);
    return b ? reply(c, code, "text/plain; charset=utf-8", b, strlen(b)) : MHD_NO;
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

czk_err czk_http_start(czk_http **out, czk_service *svc, const char *listen, char *msg, size_t msglen) {
    *out = NULL;
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
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD;
    if (ai->ai_family == AF_INET6) flags |= MHD_USE_IPv6;
    h->d = MHD_start_daemon(flags, 0, NULL, NULL, handle, h, MHD_OPTION_SOCK_ADDR, ai->ai_addr,
                            MHD_OPTION_CONNECTION_LIMIT, (unsigned)64, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)30,
                            MHD_OPTION_END);
    freeaddrinfo(ai);
    if (!h->d) {
        if (msglen) snprintf(msg, msglen, "cannot serve HTTP on %s (address in use or not available)", listen);
        free(h);
        return CZK_ERR_IO;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(h->d, MHD_DAEMON_INFO_BIND_PORT);
    h->port = info ? (int)info->port : port;
    czk_log_info("status page on http://%s%s%s:%d/", strchr(host, ':') ? "[" : "", host, strchr(host, ':') ? "]" : "",
                 h->port);
    *out = h;
    return CZK_OK;
}

int czk_http_port(const czk_http *h) { return h ? h->port : 0; }

void czk_http_stop(czk_http *h) {
    if (!h) return;
    MHD_stop_daemon(h->d);
    free(h);
}
