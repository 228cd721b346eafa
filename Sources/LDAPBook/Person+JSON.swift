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
        json.beginObject()
        json.key("dn")
        json.string(dn.string)
        if let uid {
            json.key("uid")
            json.string(uid)
        }
        json.key("name")
        json.string(displayName)
        json.key("fields")
        json.beginObject()
        forEachField(registry: registry) { field, values in
            json.key(field.name)
            json.beginArray()
            for value in values {
                if field.kind.isBinary || !value.isUTF8 {
                    json.base64(value)
                } else {
                    json.string(value)
                }
            }
            json.endArray()
        }
        json.endObject()
        members(&json)
        json.endObject()
    }
}
