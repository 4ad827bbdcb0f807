/* qclient.c -- one request to arbiterd's query socket (qclient.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

#include "src/cli/qclient.h"
#include "src/core/keys.h"

json_t *qclient_send(const qclient *q, json_t *req, char *err, size_t errlen)
{
    void *ctx = zmq_ctx_new(), *sock = ctx ? zmq_socket(ctx, ZMQ_DEALER) : NULL;
    char *text = json_dumps(req, JSON_COMPACT);
    json_t *rep = NULL;
    zmq_msg_t m;
    int zero = 0, timeout = QCLIENT_TIMEOUT_MS;

    zmq_msg_init(&m);
    if (!sock || !text) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    zmq_setsockopt(sock, ZMQ_LINGER, &zero, sizeof zero);
    zmq_setsockopt(sock, ZMQ_RCVTIMEO, &timeout, sizeof timeout);
    if (keys_client_secure(sock, q->key, q->server_key, err, errlen))
        goto out;
    if (zmq_connect(sock, q->endpoint) || zmq_send(sock, text, strlen(text), 0) < 0) {
        snprintf(err, errlen, "cannot reach arbiterd at %s: %s", q->endpoint, zmq_strerror(errno));
        goto out;
    }
    if (zmq_msg_recv(&m, sock, 0) < 0) {
        snprintf(err, errlen, "no answer from arbiterd at %s within %d s%s", q->endpoint, QCLIENT_TIMEOUT_MS / 1000,
                 q->key ? " (is this key in its keyring?)" : "");
        goto out;
    }
    rep = json_loadb(zmq_msg_data(&m), zmq_msg_size(&m), 0, NULL);
    if (!json_is_object(rep)) {
        json_decref(rep);
        rep = NULL;
        snprintf(err, errlen, "arbiterd at %s answered something that is not a JSON map", q->endpoint);
    }
out:
    zmq_msg_close(&m);
    free(text);
    json_decref(req);
    if (sock)
        zmq_close(sock);
    if (ctx)
        zmq_ctx_term(ctx);
    return rep;
}

json_t *qclient_call(const qclient *q, json_t *req, char *err, size_t errlen)
{
    json_t *rep = qclient_send(q, req, err, errlen);
    if (rep && !json_is_true(json_object_get(rep, "ok"))) {
        const char *why = json_string_value(json_object_get(rep, "error"));
        snprintf(err, errlen, "%s", why ? why : "arbiterd refused the request");
        json_decref(rep);
        rep = NULL;
    }
    return rep;
}
