-- A decision event's deadline, from the producer (events.v1 answerBy): past it, an answer is no longer used, so the
-- dispatcher does not send the event and answers `platform-overloaded` at once.
ALTER TABLE dispatcher.events ADD COLUMN answer_by timestamptz;
