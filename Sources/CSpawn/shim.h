/*
 * glibc's posix_spawn file actions that <spawn.h> declares only under _GNU_SOURCE, which
 * the Glibc module is built without (glibc 2.29 and 2.34 added them).
 */
#ifndef CSPAWN_SHIM_H
#define CSPAWN_SHIM_H

#include <spawn.h>

/* Closes every descriptor from `from` up in the child. */
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);

/* Changes the child's working directory. */
extern int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *actions, const char *path);

#endif /* CSPAWN_SHIM_H */
