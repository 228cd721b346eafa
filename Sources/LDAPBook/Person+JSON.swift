import LDAPKit

extension Person {
    /// Writes the person as ldapbook's JSON for people, the one shape of `find`, `show`,
    /// `export` and `import`:
    ///
    /// ```json
    /// {"dn":"uid=ada.lovelace,ou=people,dc=example,dc=com","uid":"urn:uuid:…","name":"Ada Lovelace",
    ///  "fields":{"given-name":["Ada"],"surname":["Lovelace"],"email":["ada@example.com"],"photo":["/9j/4AAQ…"]}}
    /// ```
    ///
    /// Fields are named as everywhere else (``fieldValues(registry:)``), each with all its
    /// values as strings; a binary field's values (a photo) in base64. `uid` is left out
    /// when not known; `members` writes more members into the object, such as how a
    /// search matched.
    public func writeJSON(to json: inout JSONWriter, registry: FieldRegistry, uid: String? = nil,
                          members: (inout JSONWriter) -> Void = { _ in }) {
        var people = PersonJSON(registry: registry)
        people.write(self, to: &json, uid: uid, members: members)
    }
}

/// Writes people as ldapbook's JSON (``Person/writeJSON(to:registry:uid:members:)``), one
/// after another: what each attribute is to the address book is asked of the registry once
/// per name and remembered here, so that many people written at once on several tasks, one
/// writer each, do not wait on one another for the registry's answers.
public struct PersonJSON {
    /// The fields of the directory the people come from.
    public let registry: FieldRegistry
    private var known = NameMemo<StoredField>()

    /// A writer of people of the directory `registry` describes.
    public init(registry: FieldRegistry) {
        self.registry = registry
    }

    /// Writes `person` (see ``Person/writeJSON(to:registry:uid:members:)``).
    public mutating func write(_ person: Person, to json: inout JSONWriter, uid: String? = nil,
                               members: (inout JSONWriter) -> Void = { _ in }) {
        json.beginObject()
        json.key("dn")
        json.string(LDAPValue(bytes: person.dn.utf8))
        if let uid {
            json.key("uid")
            json.string(uid)
        }
        json.key("name")
        if let name = person.storedDisplayName { json.string(name) } else { json.string(person.displayName) }
        json.key("fields")
        json.beginObject()
        // Held here while the fields are written, so that the closure owns it alone.
        var known = NameMemo<StoredField>()
        swap(&known, &self.known)
        defer { swap(&known, &self.known) }
        person.forEachField(registry: registry, storedField: { name in
            if let stored = known.answer(for: name) { return stored }
            let stored = registry.storedField(name)
            known.remember(stored, for: name)
            return stored
        }) { field, values in
            json.key(field.name)
            json.beginArray()
            for value in values {
                if field.kind.isBinary { json.base64(value) } else { json.textOrBase64(value) }
            }
            json.endArray()
        }
        json.endObject()
        members(&json)
        json.endObject()
    }

}
