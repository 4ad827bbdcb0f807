/* tourout.c -- a tournament's standings, pairings and alarms as JSON and CSV.
 *
 * What: the version-1 JSON documents and the RFC 4180 CSV tables of
 * tourout.h, the bytes `arbiter tournament` prints and the daemon's
 * `standings` op answers with.
 *
 * Why apart: what is computed (tourresult, tourstand, tourpair) does not
 * depend on how it is shown; the HTML page (tourhtml) and the statistics
 * (tourstats) are other views of the same records.  Pure: it appends to
 * the caller's jtext, never to a file.
 *
 * How: each writer walks its records once, in their order; strength of
 * schedule is printed both rounded to three decimals from the exact
 * fraction (T26) and as that fraction.
 */
#include <stdlib.h>
#include <string.h>

#include "src/tournament/tourint.h"
#include "src/tournament/tourout.h"

static const char *const structure_kinds[] = {[TOUR_TABLE_BASIC] = "basic", [TOUR_TABLE_ADVANCED] = "advanced",
                                              [TOUR_CUSTOM] = "custom", [TOUR_ALL_ELIMINATION] = "elimination"};

static int finish(jtext *out)
{
    return out->bad ? TOUR_ENOMEM : 0;
}

/* T26: printed rounded to three decimals, from the exact fraction. */
static void sos_text(char *buf, size_t n, const tour_row *row)
{
    uint64_t milli = (uint64_t)(((u128)row->sos_num * 1000 + row->sos_den / 2) / row->sos_den);
    tour_say(buf, n, "%llu.%03llu", (unsigned long long)(milli / 1000), (unsigned long long)(milli % 1000));
}

static void structure_json(const tournament *t, jtext *o)
{
    const tour_structure *st = &t->st;
    jtext_lit(o, "{\"kind\":");
    jtext_str(o, structure_kinds[st->kind]);
    jtext_member_int(o, ",\"swiss_rounds\":", st->swiss_rounds);
    jtext_member_int(o, ",\"cut\":", st->cut);
    jtext_lit(o, ",\"row\":");
    jtext_str_or_null(o, st->row);
    jtext_lit(o, ",\"reconstructed\":");   /* T40: outputs say so */
    jtext_bool(o, st->reconstructed);
    jtext_lit(o, ",\"fell_back\":");
    jtext_bool(o, st->fell_back);
    jtext_lit(o, "}");
}

int tournament_standings_json(const tournament *t, const tour_standings *s, jtext *o)
{
    char sos[48];
    jtext_lit(o, "{\"version\":1,\"tournament\":");
    jtext_str(o, t->id);
    jtext_member_int(o, ",\"after_round\":", s->after_round);
    jtext_lit(o, ",\"final\":");
    jtext_bool(o, s->final);
    jtext_lit(o, ",\"provisional\":");
    jtext_bool(o, s->provisional);
    jtext_lit(o, ",\"seed\":");
    jtext_str(o, s->seed);
    jtext_lit(o, ",\"seed_made\":");
    jtext_bool(o, s->seed_made);
    jtext_lit(o, ",\"label\":");
    jtext_str(o, s->label);
    jtext_lit(o, ",\"structure\":");
    structure_json(t, o);
    jtext_lit(o, ",\"standings\":[");
    for (size_t i = 0; i < s->n_rows; i++) {
        const tour_row *w = &s->rows[i];
        jtext_member_int(o, i ? ",{\"place\":" : "{\"place\":", w->place);
        jtext_lit(o, ",\"player\":");
        jtext_str(o, t->players[w->player].id);
        jtext_lit(o, ",\"name\":");
        jtext_str(o, t->players[w->player].name);
        jtext_member_int(o, ",\"event_points\":", w->points);
        jtext_member_int(o, ",\"wins\":", w->wins);
        jtext_member_int(o, ",\"draws\":", w->draws);
        jtext_member_int(o, ",\"losses\":", w->losses);
        jtext_member_int(o, ",\"byes\":", w->byes);
        jtext_member_int(o, ",\"rounds\":", w->rounds);
        jtext_member_int(o, ",\"mov\":", w->mov);
        sos_text(sos, sizeof sos, w);
        jtext_lit(o, ",\"sos\":");
        jtext_str(o, sos);
        tour_say(sos, sizeof sos, "%llu/%llu", (unsigned long long)w->sos_num, (unsigned long long)w->sos_den);
        jtext_lit(o, ",\"sos_exact\":");
        jtext_str(o, sos);
        jtext_lit(o, ",\"dropped\":");
        jtext_bool(o, w->dropped);
        jtext_member_int(o, ",\"eliminated_in\":", w->eliminated_in);
        jtext_lit(o, "}");
    }
    jtext_lit(o, "],\"pending\":[");
    for (size_t i = 0; i < s->n_pending; i++) {
        jtext_member_int(o, i ? ",{\"round\":" : "{\"round\":", s->pending[i].round);
        jtext_lit(o, ",\"table\":");
        jtext_str_or_null(o, s->pending[i].table);
        jtext_lit(o, ",\"match\":");
        jtext_str(o, s->pending[i].match);
        jtext_lit(o, ",\"why\":");
        jtext_str(o, s->pending[i].why);
        jtext_lit(o, "}");
    }
    jtext_lit(o, "]}");
    return finish(o);
}

int tournament_pairings_json(const tournament *t, const tour_pairings *p, jtext *o)
{
    jtext_lit(o, "{\"version\":1,\"tournament\":");
    jtext_str(o, t->id);
    jtext_member_int(o, ",\"round\":", p->round);
    if (p->elimination)
        jtext_lit(o, ",\"stage\":\"elimination\",\"seed\":");
    else
        jtext_lit(o, ",\"stage\":\"swiss\",\"seed\":");
    jtext_str(o, p->seed);
    jtext_lit(o, ",\"seed_made\":");
    jtext_bool(o, p->seed_made);
    jtext_lit(o, ",\"labels\":");
    jtext_str(o, p->labels);
    jtext_member_int(o, ",\"rematches\":", (long long)p->rematches);
    jtext_lit(o, ",\"structure\":");   /* T40: every output says so */
    structure_json(t, o);
    jtext_lit(o, ",\"pairings\":[");
    for (size_t i = 0, first = 1; i < p->n_pairs; i++) {
        const tour_pair *x = &p->pairs[i];
        if (x->player[0] < 0)
            continue;   /* T37: a game nobody is left to play */
        if (!first)
            jtext_lit(o, ",");
        jtext_lit(o, "{");
        first = 0;
        if (x->player[1] < 0) {
            jtext_lit(o, "\"bye\":");
            jtext_str(o, tour_pid(t, x->player[0]));
        } else {
            jtext_lit(o, "\"table\":");
            jtext_str(o, x->table);
            jtext_lit(o, ",\"p1\":");
            jtext_str(o, tour_pid(t, x->player[0]));
            jtext_lit(o, ",\"p2\":");
            jtext_str(o, tour_pid(t, x->player[1]));
        }
        if (x->game)
            jtext_member_int(o, ",\"game\":", x->game);
        jtext_lit(o, "}");
    }
    jtext_lit(o, "]}");
    return finish(o);
}

int tournament_alarms_json(const tournament *t, const tour_results *r, jtext *o)
{
    jtext_lit(o, "{\"version\":1,\"tournament\":");
    jtext_str(o, t->id);
    jtext_lit(o, ",\"alarms\":[");
    for (size_t i = 0; i < r->n_alarms; i++) {
        const tour_alarm *a = &r->alarms[i];
        if (i)
            jtext_lit(o, ",");
        jtext_lit(o, "{\"alarm\":");
        jtext_str(o, a->kind);
        jtext_lit(o, ",\"ruling\":");
        jtext_str(o, a->ruling);
        jtext_member_int(o, ",\"round\":", a->round);
        jtext_lit(o, ",\"table\":");
        jtext_str(o, a->table);
        jtext_lit(o, ",\"match\":");
        jtext_str(o, a->match);
        jtext_lit(o, ",\"players\":[");
        jtext_str(o, a->players[0]);
        jtext_lit(o, ",");
        jtext_str(o, a->players[1]);
        jtext_lit(o, "],\"text\":");
        jtext_str(o, a->text);
        jtext_lit(o, ",\"resolved\":");
        jtext_bool(o, a->resolved);
        jtext_lit(o, "}");
    }
    jtext_lit(o, "]}");
    return finish(o);
}

/* RFC 4180: quoted when it holds a comma, a quote, CR or LF. */
void tournament_csv_field(jtext *o, const char *s, int last)
{
    s = s ? s : "";
    if (strpbrk(s, ",\"\r\n")) {
        jtext_lit(o, "\"");
        for (const char *c = s; *c; c++) {
            if (*c == '"')
                jtext_lit(o, "\"");
            jtext_raw(o, c, 1);
        }
        jtext_lit(o, "\"");
    } else
        jtext_raw(o, s, strlen(s));
    if (last)
        jtext_lit(o, "\r\n");
    else
        jtext_lit(o, ",");
}

void tournament_csv_int(jtext *o, long long v, int last)
{
    char buf[32];
    tour_say(buf, sizeof buf, "%lld", v);
    tournament_csv_field(o, buf, last);
}

int tournament_standings_csv(const tournament *t, const tour_standings *s, jtext *o)
{
    char sos[48];
    jtext_lit(o, "place,player,name,event_points,wins,draws,losses,byes,rounds,mov,sos,dropped,eliminated_in\r\n");
    for (size_t i = 0; i < s->n_rows; i++) {
        const tour_row *w = &s->rows[i];
        tournament_csv_int(o, w->place, 0);
        tournament_csv_field(o, t->players[w->player].id, 0);
        tournament_csv_field(o, t->players[w->player].name, 0);
        tournament_csv_int(o, w->points, 0);
        tournament_csv_int(o, w->wins, 0);
        tournament_csv_int(o, w->draws, 0);
        tournament_csv_int(o, w->losses, 0);
        tournament_csv_int(o, w->byes, 0);
        tournament_csv_int(o, w->rounds, 0);
        tournament_csv_int(o, w->mov, 0);
        sos_text(sos, sizeof sos, w);
        tournament_csv_field(o, sos, 0);
        tournament_csv_field(o, w->dropped ? "true" : "false", 0);
        tournament_csv_int(o, w->eliminated_in, 1);
    }
    return finish(o);
}

int tournament_pairings_csv(const tournament *t, const tour_pairings *p, jtext *o)
{
    jtext_lit(o, "round,table,game,p1,p2\r\n");
    for (size_t i = 0; i < p->n_pairs; i++) {
        const tour_pair *x = &p->pairs[i];
        if (x->player[0] < 0)
            continue;
        tournament_csv_int(o, p->round, 0);
        tournament_csv_field(o, x->table, 0);
        if (x->game)
            tournament_csv_int(o, x->game, 0);
        else
            tournament_csv_field(o, "", 0);
        tournament_csv_field(o, tour_pid(t, x->player[0]), 0);
        tournament_csv_field(o, tour_pid(t, x->player[1]), 1);
    }
    return finish(o);
}

int tournament_alarms_csv(const tournament *t, const tour_results *r, jtext *o)
{
    (void)t;
    jtext_lit(o, "alarm,ruling,round,table,match,p1,p2,text,resolved\r\n");
    for (size_t i = 0; i < r->n_alarms; i++) {
        const tour_alarm *a = &r->alarms[i];
        tournament_csv_field(o, a->kind, 0);
        tournament_csv_field(o, a->ruling, 0);
        tournament_csv_int(o, a->round, 0);
        tournament_csv_field(o, a->table, 0);
        tournament_csv_field(o, a->match, 0);
        tournament_csv_field(o, a->players[0], 0);
        tournament_csv_field(o, a->players[1], 0);
        tournament_csv_field(o, a->text, 0);
        tournament_csv_field(o, a->resolved ? "true" : "false", 1);
    }
    return finish(o);
}

