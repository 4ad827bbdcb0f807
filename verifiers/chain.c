/* chain.c -- a chain's links and how a board shows them (chain.h). */
#include <string.h>

#include "verifiers/chain.h"

static const char *pname(int p)
{
    return p ? "p2" : "p1";
}

void chain_link_set(chain_link *link, const olevent *ev, int p, const card *c, int is_spell)
{
    memset(link, 0, sizeof *link);
    link->seq = ev->seq;
    link->player = (uint8_t)p;
    link->is_spell = (uint8_t)is_spell;
    link->card = c;
    link->n_targets = (uint8_t)(ev->n_targets < CARD_MAX_EFFECTS ? ev->n_targets : CARD_MAX_EFFECTS);
    if (link->n_targets)
        memcpy(link->targets, ev->targets, link->n_targets * sizeof link->targets[0]);
}

void chain_json(jtext *t, const chain_link *links, int n)
{
    jtext_lit(t, "[");
    for (int i = 0; i < n; i++) {
        const chain_link *l = &links[i];
        if (i)
            jtext_lit(t, ",");
        jtext_lit(t, "{\"seq\":");
        jtext_int(t, (long long)l->seq);
        jtext_lit(t, ",\"player\":");
        jtext_str(t, pname(l->player));
        jtext_lit(t, ",\"kind\":");
        jtext_str(t, l->is_spell ? "spell" : "counter");
        jtext_lit(t, ",\"card\":");
        jtext_str_if(t, l->card != NULL, l->card ? l->card->id : NULL);
        jtext_lit(t, ",\"name\":");
        jtext_str_if(t, l->card != NULL, l->card ? l->card->name : NULL);
        jtext_lit(t, ",\"negated\":");
        jtext_bool(t, l->negated);
        jtext_lit(t, "}");
    }
    jtext_lit(t, "]");
}

void chain_words(jtext *t, const chain_link *links, int n)
{
    if (!n)
        return;
    jtext_fmt(t, "chain:");
    for (int i = 0; i < n; i++)
        jtext_fmt(t, "%s %d. %s %s (%s, seq %llu%s)", i ? "," : "", i + 1, pname(links[i].player),
                  links[i].card ? links[i].card->name : "?", links[i].is_spell ? "spell" : "counter",
                  (unsigned long long)links[i].seq, links[i].negated ? ", negated" : "");
    jtext_fmt(t, "\n");
}
