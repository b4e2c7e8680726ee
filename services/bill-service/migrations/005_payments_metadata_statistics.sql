-- As customers.metadata (customer-service migration 002): a metadata.key filter's estimate comes from the column's
-- histogram, and the default 101 bounds made the plan of a filtered page flip between an index walk and a bitmap
-- scan plus sort from one ANALYZE to the next. 1,001 bounds keep it steady.
ALTER TABLE bills.payments ALTER COLUMN metadata SET STATISTICS 1000;
