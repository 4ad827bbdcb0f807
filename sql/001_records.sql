-- 001_records.sql -- arbiter's verified records in PostgreSQL, schema version 1
-- (arbiter-pg(5)).  Applied by `arbiter pg migrate URL`, in one transaction
-- with the row of arbiter_schema that says it was: a migration is applied
-- whole or not at all, and never twice.
--
-- What a venue's store holds (arbiter-records(5)), one row per match and
-- per stored event, every byte kept as the daemon stored it, so that a
-- record read back from here is judged, chained and checked against its
-- seal exactly as one read from LMDB.  Keys are (venue, match, seq): a
-- venue names its daemon, and two venues may use the same match id.

CREATE TABLE venues (
    venue     text PRIMARY KEY CHECK (venue <> ''),
    -- the Ed25519 public key the venue's daemon seals with: what an audit
    -- here trusts for this venue's records (the keyring's, never the data's)
    seal_key  bytea NOT NULL CHECK (octet_length(seal_key) = 32),
    added     timestamptz NOT NULL DEFAULT now()
);

-- card databases by the BLAKE2b-256 of their file (hex), as a store keeps
-- them: a record pins the database it was judged with
CREATE TABLE cards (
    hash   text PRIMARY KEY CHECK (hash ~ '^[0-9a-f]{64}$'),
    bytes  bytea NOT NULL
);

CREATE TABLE matches (
    venue          text NOT NULL REFERENCES venues,
    match          text NOT NULL,
    -- the receive time of the match's first stored event: the partition
    -- key of its events (fixed for the life of the match)
    started        timestamptz NOT NULL,
    format         text NOT NULL,
    tournament     text,
    status         text NOT NULL,
    winner         text,
    finished       boolean NOT NULL,
    events         bigint NOT NULL CHECK (events >= 0),
    summary        jsonb NOT NULL,
    summary_bytes  bytea NOT NULL,   -- the bytes the seal's summary hash covers
    seal           bytea NOT NULL,   -- arbiter-records(5), SEAL_BYTES
    updated        timestamptz NOT NULL,
    PRIMARY KEY (venue, match)
);
CREATE INDEX matches_tournament ON matches (tournament) WHERE tournament IS NOT NULL;
CREATE INDEX matches_started ON matches (started);

-- One row per stored event.  Partitioned by month of the match's start
-- (arbiter_events_partition makes a month's table before its first row),
-- so that a season is dropped or archived a month at a time, and a resent
-- event of a match always meets its first copy in the same partition.
CREATE TABLE events (
    venue        text NOT NULL,
    match        text NOT NULL,
    started      timestamptz NOT NULL,
    seq          bigint NOT NULL CHECK (seq >= 0),
    received_ms  bigint NOT NULL,    -- ms since the epoch, as stored
    peer         text NOT NULL,      -- the sender, as stored
    event        bytea NOT NULL,     -- the event's bytes, as received
    verdict      bytea NOT NULL,     -- the verdict's bytes, as answered
    status       text NOT NULL,      -- ok, warning, illegal, mismatch
    rule         text,               -- the rule a non-ok verdict cites
    type         text,               -- the event's type (match, summon, ...)
    public       jsonb,              -- the event as the public feed shows it:
                                     -- no hidden card (what views may read)
    chain        bytea NOT NULL CHECK (octet_length(chain) = 32),   -- h(n)
    state        bytea NOT NULL CHECK (octet_length(state) = 32),   -- s(n)
    link         bytea NOT NULL CHECK (octet_length(link) = 32),    -- k(n)
    PRIMARY KEY (venue, match, started, seq)
) PARTITION BY RANGE (started);
CREATE INDEX events_rule ON events (rule) WHERE rule IS NOT NULL;

-- A copy of an event that differs from the one already here: an alarm,
-- never an overwrite (the row in events stays as it first came).  The
-- offered copy is kept whole, field by field, beside the words.
CREATE TABLE conflicts (
    id           bigserial PRIMARY KEY,
    found        timestamptz NOT NULL DEFAULT now(),
    venue        text NOT NULL,
    match        text NOT NULL,
    seq          bigint NOT NULL,
    what         text NOT NULL,      -- the fields that differ: "event, chain"
    received_ms  bigint NOT NULL,
    peer         text NOT NULL,
    event        bytea NOT NULL,
    verdict      bytea NOT NULL,
    chain        bytea NOT NULL,
    state        bytea NOT NULL,
    link         bytea NOT NULL
);
CREATE INDEX conflicts_match ON conflicts (venue, match, seq);

-- The month's partition of events for a start time, made when missing.
-- SECURITY DEFINER: a venue's role needs no right to create tables.
CREATE FUNCTION arbiter_events_partition(t timestamptz) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
DECLARE
    lo timestamptz := date_trunc('month', t AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
    hi timestamptz := lo + interval '1 month';
    name text := 'events_' || to_char(lo AT TIME ZONE 'UTC', 'YYYY_MM');
BEGIN
    IF to_regclass(name) IS NULL THEN
        EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF events FOR VALUES FROM (%L) TO (%L)',
                       name, lo, hi);
    END IF;
    RETURN name;
END $$;
