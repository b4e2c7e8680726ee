-- A decision event's way back: the asking engine process's internal address, where the receiver's answer is posted.
ALTER TABLE dispatcher.events ADD COLUMN answer_to text;
