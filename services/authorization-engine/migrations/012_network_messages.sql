-- The ISO 8583 network interface (src/network-interface/) finds the card of a message by its PAN. PANs are stored
-- sealed (AES-256-GCM, a random IV each: no two seals of one PAN are equal), so a card also keeps a keyed hash of its
-- PAN: HMAC-SHA256 under a key derived from the card data key (cards/card-vault.ts, panHash). Without that key the
-- hash says nothing about the PAN. Cards are issued and linked with it; cards from before this migration have none
-- until the engine fills it in: the key is not in the database, so no SQL can. An engine with the network interface
-- on does so when it starts, and again when a PAN finds no card while cards without a hash remain
-- (network-interface/card-by-pan.ts); cards_without_pan_hash makes that check an index probe.
-- PANs are not unique (16 digits under a BIN leave 9 random ones): the index is not either.
ALTER TABLE engine.cards ADD COLUMN pan_hash text;
CREATE INDEX cards_by_pan_hash ON engine.cards (pan_hash) WHERE pan_hash IS NOT NULL;
CREATE INDEX cards_without_pan_hash ON engine.cards (id) WHERE pan_hash IS NULL;

-- What the network interface answered each authorization, financial, advice and reversal message: a repeat of it
-- (the same message class, terminal, RRN and STAN; MTI 0101, 0121, 0201, 0401, 0421 or the same MTI again) is
-- answered the same, and changes nothing. message_class: the MTI without its origin digit (010, 012, 020, 040, 042).
-- request: what the message asked, for whoever reads it back (the PAN masked to its first 6 and last 4 digits);
-- response: the answer's fields by number. A message answered before any authorization was made (an expired card, a
-- CVV2 that does not match) is kept here too: it is the only record of it.
CREATE TABLE engine.network_messages (
  business_id text NOT NULL,
  mode text NOT NULL,
  message_class text NOT NULL,
  terminal_id text NOT NULL,
  rrn text NOT NULL,
  stan text NOT NULL,
  mti text NOT NULL,
  card_id text NOT NULL,
  authorization_id text,
  request jsonb NOT NULL,
  response jsonb NOT NULL,
  received_at timestamptz NOT NULL,
  answered_at timestamptz NOT NULL,
  PRIMARY KEY (business_id, mode, message_class, terminal_id, rrn, stan)
);
CREATE INDEX network_messages_by_authorization ON engine.network_messages (authorization_id)
  WHERE authorization_id IS NOT NULL;
