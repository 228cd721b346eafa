/// ldapbook's version: what `--version` and `ldapbook version` print, and the manual page's.
let ldapbookVersion = "0.9.0"
