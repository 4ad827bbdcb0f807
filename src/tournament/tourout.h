/* tourout.h -- a tournament's standings, pairings and alarms as JSON and
 * as CSV, appended to a growable buffer (jtext): the bytes `arbiter
 * tournament` prints and arbiterd's `standings` op answers with.
 *
 * Pure: it writes into the caller's jtext, never to a file.
 */
#ifndef ARBITER_TOUROUT_H
#define ARBITER_TOUROUT_H

#include "logformat/jtext.h"
#include "src/tournament/tourpair.h"
#include "src/tournament/tourstand.h"

/* Standings as JSON (appended to out, compact), version 1:
 *   {"version":1,"tournament":ID,"after_round":R,"final":bool,
 *    "provisional":bool,"seed":S,"seed_made":bool,"label":"standings R",
 *    "structure":{"kind":"basic"|"advanced"|"custom"|"elimination",
 *                 "swiss_rounds":S,"cut":N,"row":"4-8"|null,
 *                 "reconstructed":bool,"fell_back":bool},
 *    "standings":[{"place","player","name","event_points","wins","draws",
 *                  "losses","byes","rounds","mov","sos" (3 decimals),
 *                  "sos_exact" ("num/den"),"dropped","eliminated_in"}],
 *    "pending":[{"round","table","match","why"}]}
 * 0, or TOUR_ENOMEM (out->bad). */
int tournament_standings_json(const tournament *t, const tour_standings *s, jtext *out);

/* Pairings as JSON, version 1, each pairing in the file's own shape so it
 * can be pasted into `rounds`:
 *   {"version":1,"tournament":ID,"round":R,"stage":"swiss"|"elimination",
 *    "seed":S,"seed_made":bool,"labels":"pair R, bye R","rematches":n,
 *    "structure":{...as in the standings},
 *    "pairings":[{"table","p1","p2","game"?}|{"bye","game"?}]} */
int tournament_pairings_json(const tournament *t, const tour_pairings *p, jtext *out);

/* Alarms as JSON, version 1:
 *   {"version":1,"tournament":ID,"alarms":[{"alarm","ruling","round",
 *    "table","match","players":[..],"text","resolved"}]} */
int tournament_alarms_json(const tournament *t, const tour_results *r, jtext *out);

/* CSV (RFC 4180: CRLF line ends, fields quoted when they hold a comma, a
 * quote, CR or LF, quotes doubled), header row first:
 *   standings: place,player,name,event_points,wins,draws,losses,byes,
 *              rounds,mov,sos,dropped,eliminated_in
 *   pairings:  round,table,game,p1,p2   (a bye: p2 empty)
 *   alarms:    alarm,ruling,round,table,match,p1,p2,text,resolved */
int tournament_standings_csv(const tournament *t, const tour_standings *s, jtext *out);
int tournament_pairings_csv(const tournament *t, const tour_pairings *p, jtext *out);
int tournament_alarms_csv(const tournament *t, const tour_results *r, jtext *out);

/* One CSV field as above (NULL is empty), then "," or, when last, CRLF;
 * an integer field.  For the other CSV writers (src/tournament/tourstats.c). */
void tournament_csv_field(jtext *out, const char *s, int last);
void tournament_csv_int(jtext *out, long long v, int last);

#endif
