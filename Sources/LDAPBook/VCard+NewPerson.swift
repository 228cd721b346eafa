import LDAPKit

extension VCard {
    /// The person this card describes, ready for ``AddressBook/add(_:)``.
    ///
    /// The names come from `N` (family names are the surname; given and
    /// additional names the given name). Without a family name, the last
    /// word of `FN` is the surname and the words before it the given name.
    /// `FN` is the full name (`cn`), unless ldapbook's `X-LDAPBOOK-CN` lists
    /// the full names; the display name is `X-LDAPBOOK-DISPLAY-NAME`.
    ///
    /// Every property that ``init(person:registry:version:)`` writes is read
    /// back into its field, and so are the variants other address books
    /// write: `TEL` types (`cell`, `fax`, `pager`, `home`, otherwise a work
    /// number), `ADR` components as lines and vCard 3.0 `LABEL`s without an
    /// `ADR`, `X-ANNIVERSARY` and `X-EVOLUTION-ANNIVERSARY`, Evolution's and
    /// Apple's instant-messaging (`X-JABBER`...) and related-person
    /// properties, `X-APPLE-OMIT-YEAR`. Preferred values (`PREF`,
    /// `TYPE=pref`) come first. A `NOTE` is one note, line breaks and all;
    /// a `URL` without a scheme is taken to be `http://`, and its
    /// `X-LDAPBOOK-LABEL` is the label of the `labeledURI`. Text values are
    /// kept exactly as written, spaces included; addresses, numbers, dates and
    /// URIs are trimmed. `X-LDAPBOOK-FIELD;KEY=<key>` is the
    /// custom field `<key>` exactly as written, `X-LDAPBOOK-<NAME>` the
    /// field `<name>`, and any other `X-<NAME>` the custom field `<name>`
    /// (`x-<name>` when `<name>` is a built-in or schema field), except
    /// applications' bookkeeping (`X-EVOLUTION-FILE-AS`, `X-ABUID`...).
    /// `CATEGORIES` go in the custom field `categories`, one value each. A
    /// card whose `KIND` is not `individual` (an organisation, a group) is
    /// refused: it is no person. Other standard properties (`ROLE`, `GEO`...),
    /// email types, photos given by reference and empty values are left out and
    /// listed; `UID` is the card's identity
    /// (``importRecord(registry:writableReferences:)``).
    ///
    /// - Throws: ``AddressBookError`` when the card has no usable name, a
    ///   field it needs is missing from the directory, or a value is not
    ///   valid for its field; the message starts with the property's line
    ///   and names the property.
    public func newPerson(registry: FieldRegistry) throws(AddressBookError) -> NewPerson {
        try imported(registry: registry).mapError(\.addressBookError).get()
    }

    /// The card as a person to import: ``newPerson(registry:)``, identified by the card's
    /// `UID`, with its values checked as a directory holds them (so that whatever a
    /// directory exported comes back) and what it holds that ldapbook does not write from
    /// a file listed in ``ImportRecord/skipped``: secrets, `uid`, object classes,
    /// operational attributes, and references unless `writableReferences` names them.
    ///
    /// - Throws: ``AddressBookError`` as ``newPerson(registry:)`` does; the message starts
    ///   with the property's line.
    public func importRecord(registry: FieldRegistry, writableReferences: Set<String> = []) throws(AddressBookError)
        -> ImportRecord
    {
        var importer = VCardImport(card: self, registry: registry, writableReferences: writableReferences)
        do {
            return try importer.record()
        } catch {
            throw error.addressBookError
        }
    }

    /// The person this card describes, or where and why it cannot be one.
    func imported(registry: FieldRegistry) -> Result<NewPerson, VCardImportFailure> {
        var importer = VCardImport(card: self, registry: registry)
        return Result { () throws(VCardImportFailure) -> NewPerson in try importer.newPerson() }
    }
}

extension VCardParser {
    /// The people the cards in `text` describe, in order: each card is read
    /// (``cards(in:)-(String)``) and mapped (``VCard/newPerson(registry:)``),
    /// and a card that fails either is reported with the line of the problem
    /// while the others are read as usual.
    public static func newPeople(in text: String, registry: FieldRegistry) -> [Result<NewPerson, VCardError>] {
        cards(in: text).map { result in
            result.flatMap { card in
                card.imported(registry: registry).mapError { $0.vCardError(fallbackLine: card.line ?? 1) }
            }
        }
    }
}
