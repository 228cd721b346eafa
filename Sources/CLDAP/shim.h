/*
 * What Swift cannot import from libldap: macros that expand to pointers or
 * casts, and options whose value is compared as a pointer. Nothing else
 * lives here; all the thinking happens in LDAPKit.
 */
#ifndef CLDAP_SHIM_H
#define CLDAP_SHIM_H

#define LDAP_DEPRECATED 0
#include <ldap.h>
#include <lber.h>
#include <sys/time.h>
#include <dlfcn.h>

/* LDAP_SASL_SIMPLE is `((char *)0)`: the mechanism of a simple bind. */
static inline const char *cldap_sasl_simple(void) {
    return LDAP_SASL_SIMPLE;
}

/* LDAP_OPT_REFERRALS compares the option value as a pointer (LDAP_OPT_ON/OFF). */
static inline int cldap_set_referrals(LDAP *ld, int on) {
    return ldap_set_option(ld, LDAP_OPT_REFERRALS, on ? LDAP_OPT_ON : LDAP_OPT_OFF);
}

/* LDAP_OPT_RESTART: restart select() after EINTR. Not reconnection. */
static inline int cldap_set_restart(LDAP *ld, int on) {
    return ldap_set_option(ld, LDAP_OPT_RESTART, on ? LDAP_OPT_ON : LDAP_OPT_OFF);
}

/* Timeouts are `struct timeval *`; seconds of -1 mean "no timeout", as in
 * libldap's own defaults. */
static inline int cldap_set_timeval(LDAP *ld, int option, long seconds, long microseconds) {
    struct timeval tv = { .tv_sec = seconds < 0 ? -1 : seconds, .tv_usec = seconds < 0 ? 0 : microseconds };
    return ldap_set_option(ld, option, &tv);
}

/* Reads a timeout option: 0 and the value when one is set, -1 when none is
 * (libldap hands out a copy to free, or NULL for "no timeout"). */
static inline int cldap_get_timeval(LDAP *ld, int option, long *seconds, long *microseconds) {
    struct timeval *tv = NULL;
    if (ldap_get_option(ld, option, &tv) != LDAP_OPT_SUCCESS || tv == NULL) {
        return -1;
    }
    *seconds = tv->tv_sec;
    *microseconds = tv->tv_usec;
    ldap_memfree(tv);
    return 0;
}

/* LDAP_RES_ANY is `(-1)` but is passed as an msgid. */
static inline int cldap_res_any(void) {
    return LDAP_RES_ANY;
}

/* The transaction OIDs (RFC 5805) paste strings together (`LDAP_TXN ".1"`). */
static inline const char *cldap_exop_txn_start(void) {
    return LDAP_EXOP_TXN_START;
}

static inline const char *cldap_exop_txn_end(void) {
    return LDAP_EXOP_TXN_END;
}

static inline const char *cldap_control_txn_spec(void) {
    return LDAP_CONTROL_TXN_SPEC;
}

/* Puts liblber's read-ahead layer right over TCP, under TLS when there is TLS:
 * each read then takes whatever the kernel holds, up to 16 KiB, instead of two
 * reads per message, and libldap sees the buffered bytes as ready without
 * polling. The layer's table is a global variable, whose address Swift cannot
 * take. */
static inline int cldap_add_readahead(LDAP *ld) {
    Sockbuf *sockbuf = NULL;
    if (ldap_get_option(ld, LDAP_OPT_SOCKBUF, &sockbuf) != LDAP_OPT_SUCCESS || sockbuf == NULL) {
        return -1;
    }
    return ber_sockbuf_add_io(sockbuf, &ber_sockbuf_io_readahead, LBER_SBIOD_LEVEL_PROVIDER, NULL);
}

/* Cyrus SASL's sasl_set_path(SASL_PATH_TYPE_PLUGIN, path), looked up at run
 * time: libsasl2 comes in with libldap, its header (libsasl2-dev) does not.
 * Returns -1 when libldap was built without Cyrus SASL. */
static inline int cldap_set_sasl_plugin_path(const char *path) {
    int (*set_path)(int, const char *) = (int (*)(int, const char *))dlsym(RTLD_DEFAULT, "sasl_set_path");
    return set_path ? set_path(0 /* SASL_PATH_TYPE_PLUGIN */, path) : -1;
}

#endif /* CLDAP_SHIM_H */
