-- Secret Push schema 5. A view rewrites its push's row (the record and its counters) but
-- changes no indexed column, so PostgreSQL can keep the new version on the same page and skip
-- every index ("heap-only tuple" update) -- if the page has room. Pushes are inserted in order
-- and pages were filled to 100 %, so nearly every view moved its row to another page and wrote a
-- new entry into each of the table's indexes. A quarter of each new page is now left free for
-- the views of the pushes on it. Pages written before this migration keep their layout until a
-- VACUUM FULL (or pg_repack) rewrites them; retention replaces them with new ones in time.
ALTER TABLE pushes SET (fillfactor = 75);
