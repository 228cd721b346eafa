/*
 * glibc's <malloc.h> (mallopt and its parameters), which the Glibc module
 * does not bring in.
 */
#ifndef CMALLOC_SHIM_H
#define CMALLOC_SHIM_H

#include <malloc.h>

#endif /* CMALLOC_SHIM_H */
