/* feed.h -- the public feed: every stored event, for whoever subscribed.
 *
 * openlog.md 9: a PUB socket, two frames, topic = match id, body =
 * {"event","verdict"} in the public view.  The socket is an XPUB, so that
 * the daemon learns the subscriptions and builds a match's feed messages
 * only while some subscription prefix covers the match: a feed nobody
 * reads costs nothing.  A subscriber that does not read loses messages past
 * its queue (FEED_HWM), as a PUB socket does; the daemon never waits.
 */
#ifndef ARBITER_FEED_H
#define ARBITER_FEED_H

#include <jansson.h>
#include <stddef.h>

#define FEED_HWM 1000
#define FEED_SUBS_MAX 4096          /* distinct subscription prefixes kept */
#define FEED_MSG_MAX 512            /* a subscriber's message (ZMQ_MAXMSGSIZE) */

typedef struct feed feed;

/* A feed publishing on `sock` (an XPUB the caller bound and closes). */
int feed_new(void *sock, feed **out);
void feed_destroy(feed **f);

/* Read the subscriptions the XPUB passes up.  Never blocks. */
void feed_serve(feed *f);

/* Does a subscription cover match `id`?  `*gen` and `*on` are the
 * caller's memo for that match (start both at 0): the answer is computed
 * again only when the subscriptions changed. */
int feed_wanted(const feed *f, const char *id, unsigned *gen, unsigned char *on);

/* The body {"event": ej, "verdict": ...} in MessagePack around the
 * verdict's MessagePack bytes (vbytes); without ej, {"verdict"} alone.
 * 0 and a malloc'd *out, or -ENOMEM. */
int feed_body(const json_t *ej, const char *vbytes, size_t vlen, char **out, size_t *len);

/* Publish body under topic `match`; a subscriber's full queue drops it. */
void feed_publish(feed *f, const char *match, const char *body, size_t len);

size_t feed_subscriptions(const feed *f);

#endif
