/* qclient.h -- one request to a daemon's query socket, as a client.
 *
 * `arbiter query`, `audit --query` and `list --query` ask arbiterd over
 * its query ROUTER (openlog.md 9) from a DEALER, in JSON, with CURVE when
 * given keys (keys.h).  One request, one reply, a timeout: a daemon that
 * does not answer is an error, never a hang.
 */
#ifndef ARBITER_QCLIENT_H
#define ARBITER_QCLIENT_H

#include <jansson.h>
#include <stddef.h>

#define QCLIENT_TIMEOUT_MS 5000

typedef struct {
    const char *endpoint;
    const char *key;               /* the client's key file, or NULL       */
    const char *server_key;        /* the daemon's public key, or NULL     */
} qclient;

/* Send `req` (the reference is taken) and return a new reference to the
 * reply, {"ok":false,...} included; NULL with a sentence in err when there
 * is no daemon, no answer in time, a reply that is not a map, or bad keys. */
json_t *qclient_send(const qclient *q, json_t *req, char *err, size_t errlen);

/* The same, where only {"ok":true,...} is a reply: a refusal becomes NULL
 * with the daemon's sentence in err. */
json_t *qclient_call(const qclient *q, json_t *req, char *err, size_t errlen);

#endif
