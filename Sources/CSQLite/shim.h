/*
 * SQLite 3 from the system (Debian: libsqlite3-dev), plus what Swift cannot import:
 * SQLITE_TRANSIENT is a macro that casts -1 to a function pointer.
 */
#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H

#include <sqlite3.h>

/* Binds text that SQLite copies at once, so the caller's buffer may go away. */
static inline int csqlite_bind_text_copied(sqlite3_stmt *statement, int index, const char *text, int length) {
    return sqlite3_bind_text(statement, index, text, length, SQLITE_TRANSIENT);
}

/* Binds a blob that SQLite copies at once. */
static inline int csqlite_bind_blob_copied(sqlite3_stmt *statement, int index, const void *bytes, int length) {
    return sqlite3_bind_blob(statement, index, bytes, length, SQLITE_TRANSIENT);
}

#endif /* CSQLITE_SHIM_H */
