-- 002_stats.sql -- statistics across venues (arbiter-pg(5), VIEWS), schema
-- version 2: what `arbiter tournament stats` computes (TOURNAMENT.md T46:
-- the cards and classes shown, the rules broken, game length, win rates),
-- as plain views over every venue's records.
--
-- PUBLIC COLUMNS ONLY.  Hidden cards are in events.event and events.verdict
-- (the judge's bytes).  Nothing here reads them, nor conflicts: of events,
-- only venue, match, started, seq, status, rule, type and public (the event
-- and its verdict as the public feed shows them, view.c's VIEW_PUBLIC);
-- besides, the rows of matches and the card databases (cards, public
-- files).  A view added here must keep to those columns:
-- tests/e2e_pg_stats.sh reads every view's column dependencies in
-- pg_depend and fails on any other, so that a statistic is safe to
-- publish by construction, whatever role reads it.
--
-- Two layers:
--   * one row per game (arbiter_games), per player-game and card
--     (arbiter_cards_shown), per player-game and class
--     (arbiter_classes_shown), per game, verdict and rule
--     (arbiter_rules_broken), each with venue, match, started, format,
--     tournament, round and table_id: any set of games and venues is a
--     WHERE on those, and its figures a GROUP BY (every count column sums);
--   * the figures of `tournament stats` per scope (tournament, format,
--     round; round NULL: all rounds) over every venue: arbiter_card_stats,
--     arbiter_class_stats, arbiter_rule_stats, arbiter_length_stats.
--
-- A game counts as far as its matches row says: the events with seq below
-- matches.events (what its summary and seal cover), so the figures never
-- run ahead of a record's last shipped summary.

-- ---- small pieces the views share ---------------------------------------

-- The five classes, in the card database's order (tourstats.h).
CREATE VIEW arbiter_classes (class, ord) AS
    VALUES ('coreon', 1), ('fluxion', 2), ('synaphera', 3), ('obscura', 4), ('aetherion', 5);

-- An integer of a JSON value, or NULL when it is not one that fits.
CREATE FUNCTION arbiter_json_int(v jsonb) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN jsonb_typeof(v) = 'number' AND v::text ~ '^-?[0-9]{1,18}$' THEN v::text::bigint END
$$;

-- A card database file as JSON, or NULL when its bytes are not JSON in
-- UTF-8: one bad row then costs its games their classes, never every
-- query its answer.  (Not PARALLEL SAFE: its EXCEPTION block is a
-- subtransaction, which a parallel worker cannot start.)
CREATE FUNCTION arbiter_cards_json(bytes bytea) RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    RETURN convert_from(bytes, 'UTF8')::jsonb;
EXCEPTION WHEN OTHERS THEN
    RETURN NULL;
END $$;

-- The cards one event shows, as the public sees it (the "event" of
-- events.public): every string under "card", "slots" or "cards", the
-- three keys that hold cards (openlog.md 7); a hidden card is null there.
-- The same rule as tourrec.c's stats_json_cards().
CREATE FUNCTION arbiter_event_cards(ev jsonb) RETURNS SETOF text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT v #>> '{}'
    FROM (SELECT ev -> 'card'
          UNION ALL
          SELECT jsonb_array_elements(CASE WHEN jsonb_typeof(ev -> 'slots') = 'array' THEN ev -> 'slots' END)
          UNION ALL
          SELECT jsonb_array_elements(CASE WHEN jsonb_typeof(ev -> 'cards') = 'array' THEN ev -> 'cards' END)) AS s (v)
    WHERE jsonb_typeof(v) = 'string'
$$;

-- The scopes a game of tournament round r counts in: all rounds (NULL)
-- and, when it has one, its round (tourstats' scopes).
CREATE FUNCTION arbiter_scope_rounds(r bigint) RETURNS SETOF bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT NULL::bigint UNION ALL SELECT r WHERE r > 0
$$;

-- wins over results with three decimals, rounded half up; NULL without a
-- result (tourstats' win_rate).
CREATE FUNCTION arbiter_rate(wins numeric, results numeric) RETURNS numeric
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT round(wins / nullif(results, 0), 3)
$$;

-- Each card of each card database by its hash, with its class (NULL: the
-- card has none, as a playing card of classic Snap).
CREATE VIEW arbiter_card_classes AS
SELECT DISTINCT ON (c.hash, k ->> 'id')
       c.hash AS cards_hash, k ->> 'id' AS card, cl.class
FROM cards c
CROSS JOIN LATERAL (SELECT arbiter_cards_json(c.bytes) AS j) d
CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(d.j -> 'cards') = 'array' THEN d.j -> 'cards' END) k
LEFT JOIN arbiter_classes cl ON cl.class = k ->> 'class'
WHERE jsonb_typeof(k -> 'id') = 'string'
ORDER BY c.hash, k ->> 'id';

-- ---- one row per game --------------------------------------------------------

-- Every game (a matches row) with what its public header says: the
-- tournament's round and table, the players' ids by seat ({"p1": id,
-- ...}); its length (events, game_rounds) and outcome.  decided: the
-- record gives a result of its own -- finished, no illegal verdict (a
-- mismatch still counts the engine's outcome, T18), and a winner or a
-- draw by the rules of its format.
CREATE VIEW arbiter_games AS
SELECT m.venue, m.match, m.started, m.format, m.tournament,
       arbiter_json_int(h.public #> '{event,event,round}') AS round,
       h.public #>> '{event,event,table}' AS table_id,
       (SELECT jsonb_object_agg(p.seat, p.v -> 'id')
        FROM jsonb_each(CASE WHEN jsonb_typeof(h.public #> '{event,players}') = 'object'
                             THEN h.public #> '{event,players}' END) AS p (seat, v)
        WHERE p.seat ~ '^p[1-8]$') AS players,
       m.status, m.finished, m.winner,
       coalesce(m.summary -> 'draw' = 'true'::jsonb, false) AS draw,
       coalesce(m.finished AND arbiter_json_int(m.summary #> '{counts,illegal}') = 0
                AND (m.winner IS NOT NULL OR m.summary -> 'draw' = 'true'::jsonb), false) AS decided,
       m.events,
       arbiter_json_int(m.summary -> 'rounds') AS game_rounds,
       m.summary ->> 'cards_hash' AS cards_hash
FROM matches m
LEFT JOIN events h ON h.venue = m.venue AND h.match = m.match AND h.started = m.started AND h.seq = 0
                  AND h.type = 'match';

-- One row per player-game and card shown: the seat (p1 ... p8) whose
-- event the engine applied (verdict ok or warning; the header is no
-- such event) showed the card `appearances` times in the public view.
-- games is 1, wins 1 when that player won, results 1 when the game is
-- decided: a set of rows sums to tourstats' figures.
CREATE VIEW arbiter_cards_shown AS
SELECT g.venue, g.match, g.started, g.format, g.tournament, g.round, g.table_id,
       x.seat, g.players ->> x.seat AS player, x.card, cc.class,
       1 AS games, x.appearances,
       (g.decided AND g.winner = x.seat)::int AS wins, g.decided::int AS results
FROM arbiter_games g
CROSS JOIN LATERAL (
    SELECT e.public #>> '{event,by}' AS seat, c.card, count(*) AS appearances
    FROM events e
    CROSS JOIN LATERAL arbiter_event_cards(e.public -> 'event') AS c (card)
    WHERE e.venue = g.venue AND e.match = g.match AND e.started = g.started AND e.seq < g.events
      AND e.status IN ('ok', 'warning') AND e.type <> 'match'
      AND e.public #>> '{event,by}' ~ '^p[1-8]$'
    GROUP BY 1, 2) x
LEFT JOIN arbiter_card_classes cc ON cc.cards_hash = g.cards_hash AND cc.card = x.card;

-- One row per player-game and class shown (cards of no class left out):
-- appearances add up the class's cards; games, wins and results as above.
CREATE VIEW arbiter_classes_shown AS
SELECT venue, match, started, format, tournament, round, table_id, seat, player, class,
       1 AS games, sum(appearances)::bigint AS appearances, max(wins) AS wins, max(results) AS results
FROM arbiter_cards_shown
WHERE class IS NOT NULL
GROUP BY venue, match, started, format, tournament, round, table_id, seat, player, class;

-- One row per game, verdict (illegal, mismatch, warning) and rule: how
-- many of the game's verdicts of that kind cite the rule (a verdict that
-- cites none counts under its status, as tourstats does).
CREATE VIEW arbiter_rules_broken AS
SELECT g.venue, g.match, g.started, g.format, g.tournament, g.round, g.table_id,
       e.status AS verdict, coalesce(nullif(e.rule, ''), e.status) AS rule, count(*) AS count
FROM arbiter_games g
JOIN events e ON e.venue = g.venue AND e.match = g.match AND e.started = g.started AND e.seq < g.events
WHERE e.status IN ('illegal', 'mismatch', 'warning')
GROUP BY g.venue, g.match, g.started, g.format, g.tournament, g.round, g.table_id, e.status,
         coalesce(nullif(e.rule, ''), e.status);

-- ---- tournament stats' scopes, over every venue --------------------------------
-- Per (tournament, format, round), round NULL for all rounds; tournament
-- NULL gathers the games of no tournament.

CREATE VIEW arbiter_card_stats AS
SELECT x.tournament, x.format, s.round, x.card, x.class,
       sum(x.games)::bigint AS games, sum(x.appearances)::bigint AS appearances,
       sum(x.wins)::bigint AS wins, sum(x.results)::bigint AS results,
       arbiter_rate(sum(x.wins), sum(x.results)) AS win_rate
FROM arbiter_cards_shown x
CROSS JOIN LATERAL arbiter_scope_rounds(x.round) AS s (round)
GROUP BY x.tournament, x.format, s.round, x.card, x.class;

-- Every class in every scope that has a game, shown or not (games 0).
CREATE VIEW arbiter_class_stats AS
SELECT tournament, format, round, class,
       sum(games)::bigint AS games, sum(appearances)::bigint AS appearances,
       sum(wins)::bigint AS wins, sum(results)::bigint AS results,
       arbiter_rate(sum(wins), sum(results)) AS win_rate
FROM (SELECT x.tournament, x.format, s.round, x.class, x.games, x.appearances, x.wins, x.results
      FROM arbiter_classes_shown x
      CROSS JOIN LATERAL arbiter_scope_rounds(x.round) AS s (round)
      UNION ALL
      SELECT g.tournament, g.format, s.round, c.class, 0, 0, 0, 0
      FROM arbiter_games g
      CROSS JOIN LATERAL arbiter_scope_rounds(g.round) AS s (round)
      CROSS JOIN arbiter_classes c) u
GROUP BY tournament, format, round, class;

-- matches: the games citing the rule, each once, in byte order.
CREATE VIEW arbiter_rule_stats AS
SELECT r.tournament, r.format, s.round, r.verdict, r.rule, sum(r.count)::bigint AS count,
       array_agg(DISTINCT r.match COLLATE "C" ORDER BY r.match COLLATE "C") AS matches
FROM arbiter_rules_broken r
CROSS JOIN LATERAL arbiter_scope_rounds(r.round) AS s (round)
GROUP BY r.tournament, r.format, s.round, r.verdict, r.rule;

-- records: the games of the scope; games and the rest: its finished
-- games' events (header included) and game rounds, means to one decimal.
CREATE VIEW arbiter_length_stats AS
SELECT g.tournament, g.format, s.round, count(*) AS records,
       count(*) FILTER (WHERE g.finished) AS games,
       min(g.events) FILTER (WHERE g.finished) AS events_min,
       max(g.events) FILTER (WHERE g.finished) AS events_max,
       round(avg(g.events) FILTER (WHERE g.finished), 1) AS events_mean,
       min(g.game_rounds) FILTER (WHERE g.finished) AS rounds_min,
       max(g.game_rounds) FILTER (WHERE g.finished) AS rounds_max,
       round(avg(g.game_rounds) FILTER (WHERE g.finished), 1) AS rounds_mean
FROM arbiter_games g
CROSS JOIN LATERAL arbiter_scope_rounds(g.round) AS s (round)
GROUP BY g.tournament, g.format, s.round;
