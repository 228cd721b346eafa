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

/* LDAP_OPT_CONNECT_ASYNC: connect and complete the TLS handshake in
 * non-blocking steps, so that LDAP_OPT_NETWORK_TIMEOUT bounds the handshake
 * too; without it a handshake the server never answers loops for ever. */
static inline int cldap_set_connect_async(LDAP *ld, int on) {
    return ldap_set_option(ld, LDAP_OPT_CONNECT_ASYNC, on ? LDAP_OPT_ON : LDAP_OPT_OFF);
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

/* Why the TLS library refuses a server certificate. libldap's diagnostic is
 * "(unknown error code)" for every certificate it refuses (its GnuTLS code puts
 * a status where an error code is expected), so the certificate, read from a
 * session that did not check it, is checked again here by GnuTLS itself: the
 * TLS library of Debian's libldap, already loaded with it, looked up at run
 * time like Cyrus SASL above, so that building needs no GnuTLS headers.
 *
 * Returns GnuTLS's verification status bits for `der` against the CAs of
 * `ca_file`, else `ca_directory`, else the system's (0: trusted), and sets
 * `*names_host` to whether the certificate names `host` and `*expires` to its
 * expiry (seconds since 1970). Returns -1 when GnuTLS is not loaded (libldap
 * built with OpenSSL) or the certificate cannot be read. */
typedef struct { unsigned char *data; unsigned int size; } cldap_gnutls_datum;

static inline long cldap_check_certificate(const unsigned char *der, unsigned int length, const char *host,
                                           const char *ca_file, const char *ca_directory,
                                           int *names_host, long *expires) {
    int (*crt_init)(void **) = (int (*)(void **))dlsym(RTLD_DEFAULT, "gnutls_x509_crt_init");
    void (*crt_deinit)(void *) = (void (*)(void *))dlsym(RTLD_DEFAULT, "gnutls_x509_crt_deinit");
    int (*crt_import)(void *, const cldap_gnutls_datum *, int) =
        (int (*)(void *, const cldap_gnutls_datum *, int))dlsym(RTLD_DEFAULT, "gnutls_x509_crt_import");
    unsigned (*check_hostname)(void *, const char *) =
        (unsigned (*)(void *, const char *))dlsym(RTLD_DEFAULT, "gnutls_x509_crt_check_hostname");
    long (*expiration)(void *) = (long (*)(void *))dlsym(RTLD_DEFAULT, "gnutls_x509_crt_get_expiration_time");
    int (*list_init)(void **, unsigned) = (int (*)(void **, unsigned))dlsym(RTLD_DEFAULT, "gnutls_x509_trust_list_init");
    void (*list_deinit)(void *, unsigned) = (void (*)(void *, unsigned))dlsym(RTLD_DEFAULT, "gnutls_x509_trust_list_deinit");
    int (*add_file)(void *, const char *, const char *, int, unsigned, unsigned) =
        (int (*)(void *, const char *, const char *, int, unsigned, unsigned))dlsym(RTLD_DEFAULT, "gnutls_x509_trust_list_add_trust_file");
    int (*add_directory)(void *, const char *, const char *, int, unsigned, unsigned) =
        (int (*)(void *, const char *, const char *, int, unsigned, unsigned))dlsym(RTLD_DEFAULT, "gnutls_x509_trust_list_add_trust_dir");
    int (*add_system)(void *, unsigned, unsigned) =
        (int (*)(void *, unsigned, unsigned))dlsym(RTLD_DEFAULT, "gnutls_x509_trust_list_add_system_trust");
    int (*verify)(void *, void **, unsigned, unsigned, unsigned *, void *) =
        (int (*)(void *, void **, unsigned, unsigned, unsigned *, void *))dlsym(RTLD_DEFAULT, "gnutls_x509_trust_list_verify_crt");
    if (!crt_init || !crt_deinit || !crt_import || !check_hostname || !expiration || !list_init || !list_deinit
        || !add_file || !add_directory || !add_system || !verify) {
        return -1;
    }
    void *certificate = NULL;
    if (crt_init(&certificate) < 0) return -1;
    cldap_gnutls_datum datum = { (unsigned char *)der, length };
    if (crt_import(certificate, &datum, 0 /* GNUTLS_X509_FMT_DER */) < 0) {
        crt_deinit(certificate);
        return -1;
    }
    *names_host = check_hostname(certificate, host) != 0;
    *expires = expiration(certificate);
    void *trusted = NULL;
    if (list_init(&trusted, 0) < 0) {
        crt_deinit(certificate);
        return -1;
    }
    if (ca_file) {
        add_file(trusted, ca_file, NULL, 1 /* GNUTLS_X509_FMT_PEM */, 0, 0);
    } else if (ca_directory) {
        add_directory(trusted, ca_directory, NULL, 1, 0, 0);
    } else {
        add_system(trusted, 0, 0);
    }
    unsigned status = 0;
    long result = verify(trusted, &certificate, 1, 0, &status, NULL) < 0 ? -1 : (long)status;
    list_deinit(trusted, 1);
    crt_deinit(certificate);
    return result;
}

#endif /* CLDAP_SHIM_H */
