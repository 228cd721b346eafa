/// A directory's schema: the attribute types, object classes, syntaxes and
/// matching rules of a subschema entry (RFC 4512 section 4.2), parsed into
/// values, with lookups by name and the rules that follow from inheritance.
///
/// ```swift
/// let schema = try await directory.schema()
/// let givenName = schema.attributeType(named: "gn")!
/// schema.resolvedSyntax(of: givenName)          // "1.3.6.1.4.1.1466.115.121.1.15", from `name`
/// schema.requiredAttributes(of: "inetOrgPerson") // ["sn", "cn", "objectClass"]
/// ```
///
/// Lookups accept any of a definition's names, compared ignoring ASCII case,
/// or its OID. When two definitions share a name or OID, the first one wins.
public struct LDAPSchema: Sendable {
    /// The attribute types (`attributeTypes`), in the order the server listed them.
    public var attributeTypes: [AttributeTypeDescription] {
        didSet { attributeTypeIndex = DefinitionIndex(attributeTypes) }
    }

    /// The object classes (`objectClasses`), in the order the server listed them.
    public var objectClasses: [ObjectClassDescription] {
        didSet { objectClassIndex = DefinitionIndex(objectClasses) }
    }

    /// The syntaxes (`ldapSyntaxes`), in the order the server listed them.
    public var syntaxes: [SyntaxDescription] {
        didSet { syntaxIndex = DefinitionIndex(syntaxes) }
    }

    /// The matching rules (`matchingRules`), in the order the server listed them.
    public var matchingRules: [MatchingRuleDescription] {
        didSet { matchingRuleIndex = DefinitionIndex(matchingRules) }
    }

    private var attributeTypeIndex: DefinitionIndex
    private var objectClassIndex: DefinitionIndex
    private var syntaxIndex: DefinitionIndex
    private var matchingRuleIndex: DefinitionIndex

    /// Creates a schema from its definitions.
    public init(
        attributeTypes: [AttributeTypeDescription] = [],
        objectClasses: [ObjectClassDescription] = [],
        syntaxes: [SyntaxDescription] = [],
        matchingRules: [MatchingRuleDescription] = []
    ) {
        self.attributeTypes = attributeTypes
        self.objectClasses = objectClasses
        self.syntaxes = syntaxes
        self.matchingRules = matchingRules
        attributeTypeIndex = DefinitionIndex(attributeTypes)
        objectClassIndex = DefinitionIndex(objectClasses)
        syntaxIndex = DefinitionIndex(syntaxes)
        matchingRuleIndex = DefinitionIndex(matchingRules)
    }

    /// Parses the `attributeTypes`, `objectClasses`, `ldapSyntaxes` and
    /// `matchingRules` values of a subschema entry, such as the one
    /// ``LDAPConnection/subschema(for:)`` reads. Other attributes are ignored.
    ///
    /// Each value is parsed by the RFC 4512 section 4.1 grammar, which is
    /// enforced: parentheses balance, names and strings are quoted, OID
    /// lists are separated by `$`, no keyword appears twice, and the parts
    /// the grammar requires are there. The small deviations real servers
    /// make are accepted: missing, doubled or line-breaking whitespace;
    /// keywords in any order and case; quoted OIDs and syntaxes (as Active
    /// Directory writes them); descriptors such as `nsAIMid-oid` in place
    /// of a numeric OID; leading zeros in numeric OIDs; names with
    /// underscores; and backslashes other than `\27` and `\5C` kept as they
    /// are. `X-` extensions are kept; any other keyword that kind of
    /// definition does not define is skipped with its argument (a quoted
    /// string, a parenthesized list, or a bare word that is not a keyword).
    /// Prose rules such as "an attribute type has SUP or SYNTAX" are not
    /// checked.
    ///
    /// - Throws: ``LDAPError`` with code ``LDAPResultCode/decodingError``
    ///   whose message quotes the first bad definition and names the problem.
    public init(subschema entry: LDAPEntry) throws(LDAPError) {
        self.init(
            attributeTypes: try Self.parse(entry, "attributeTypes", AttributeTypeDescription.init(parsing:)),
            objectClasses: try Self.parse(entry, "objectClasses", ObjectClassDescription.init(parsing:)),
            syntaxes: try Self.parse(entry, "ldapSyntaxes", SyntaxDescription.init(parsing:)),
            matchingRules: try Self.parse(entry, "matchingRules", MatchingRuleDescription.init(parsing:)))
    }

    /// Parses every value of the attribute `name` of `entry` with `parse`.
    private static func parse<Definition>(
        _ entry: LDAPEntry,
        _ name: String,
        _ parse: (String) throws(LDAPError) -> Definition
    ) throws(LDAPError) -> [Definition] {
        let values = entry[name]
        var definitions: [Definition] = []
        definitions.reserveCapacity(values.count)
        for value in values {
            guard let text = value.string else {
                throw LDAPError(.decodingError, message: "a value of \(name) is not valid UTF-8: \(value.lossyString)")
            }
            definitions.append(try parse(text))
        }
        return definitions
    }
}

// MARK: - Looking up definitions

extension LDAPSchema {
    /// The attribute type with the name (ignoring ASCII case) or OID `name`,
    /// such as `givenName`, `gn` or `2.5.4.42`.
    ///
    /// Options are not removed: look up `userCertificate`, not `userCertificate;binary`.
    public func attributeType(named name: String) -> AttributeTypeDescription? {
        attributeTypeIndex[name].map { attributeTypes[$0] }
    }

    /// The object class with the name (ignoring ASCII case) or OID `name`,
    /// such as `inetOrgPerson` or `2.16.840.1.113730.3.2.2`.
    public func objectClass(named name: String) -> ObjectClassDescription? {
        objectClassIndex[name].map { objectClasses[$0] }
    }

    /// The matching rule with the name (ignoring ASCII case) or OID `name`,
    /// such as `caseIgnoreMatch` or `2.5.13.2`.
    public func matchingRule(named name: String) -> MatchingRuleDescription? {
        matchingRuleIndex[name].map { matchingRules[$0] }
    }

    /// The syntax whose OID is `oid`, such as `1.3.6.1.4.1.1466.115.121.1.15`.
    public func syntax(withOID oid: String) -> SyntaxDescription? {
        syntaxIndex[oid].map { syntaxes[$0] }
    }
}

// MARK: - Attribute type inheritance

extension LDAPSchema {
    /// The OID of the syntax of `attribute`'s values: its own, or else the
    /// nearest supertype's along the `SUP` chain (`givenName` takes
    /// Directory String from `name`). `nil` when no type in the chain names one.
    public func resolvedSyntax(of attribute: AttributeTypeDescription) -> String? {
        nearestAlongSuperiors(of: attribute, \.syntax)
    }

    /// The equality matching rule of `attribute`: its own, or else the
    /// nearest supertype's along the `SUP` chain.
    public func resolvedEquality(of attribute: AttributeTypeDescription) -> String? {
        nearestAlongSuperiors(of: attribute, \.equality)
    }

    /// The substrings matching rule of `attribute`: its own, or else the
    /// nearest supertype's along the `SUP` chain.
    public func resolvedSubstring(of attribute: AttributeTypeDescription) -> String? {
        nearestAlongSuperiors(of: attribute, \.substring)
    }

    /// The ordering matching rule of `attribute`: its own, or else the
    /// nearest supertype's along the `SUP` chain.
    public func resolvedOrdering(of attribute: AttributeTypeDescription) -> String? {
        nearestAlongSuperiors(of: attribute, \.ordering)
    }

    /// The syntaxes whose values are bytes rather than text: Audio (.4),
    /// Binary (.5), Certificate (.8), Certificate List (.9), Certificate
    /// Pair (.10), Fax (.23), JPEG (.28) and Octet String (.40) under
    /// `1.3.6.1.4.1.1466.115.121.1`.
    public static let binarySyntaxes: Set<String> = Set(
        [4, 5, 8, 9, 10, 23, 28, 40].map { "1.3.6.1.4.1.1466.115.121.1.\($0)" })

    /// Whether values of `attribute` are bytes rather than text: its
    /// resolved syntax is one of ``binarySyntaxes``, or the schema marks
    /// that syntax `X-NOT-HUMAN-READABLE 'TRUE'`.
    public func isBinary(_ attribute: AttributeTypeDescription) -> Bool {
        guard let syntax = resolvedSyntax(of: attribute) else { return false }
        if Self.binarySyntaxes.contains(syntax) { return true }
        return self.syntax(withOID: syntax).map { !$0.isHumanReadable } ?? false
    }

    /// Whether values of the attribute description `name`, such as
    /// `jpegPhoto` or `userCertificate;binary`, are bytes rather than
    /// text: it has the `binary` option, or its type is binary by
    /// ``isBinary(_:)``. An unknown type is taken to be text.
    public func isBinary(attributeNamed name: String) -> Bool {
        let parts = name.split(separator: ";", omittingEmptySubsequences: false)
        if parts.dropFirst().contains(where: { String($0).caseInsensitiveEquals("binary") }) { return true }
        return attributeType(named: String(parts[0])).map(isBinary) ?? false
    }

    /// The first value `property` gives along `attribute`'s `SUP` chain,
    /// starting with `attribute` itself. A chain that loops or names an
    /// unknown type ends there.
    private func nearestAlongSuperiors<Value>(
        of attribute: AttributeTypeDescription,
        _ property: (AttributeTypeDescription) -> Value?
    ) -> Value? {
        var current = attribute
        for _ in 0...attributeTypes.count {
            if let value = property(current) { return value }
            guard let superior = current.superior, let next = attributeType(named: superior) else { return nil }
            current = next
        }
        return nil
    }
}

// MARK: - Object class inheritance

extension LDAPSchema {
    /// The attributes an entry of `objectClass` must hold: the `MUST`
    /// attributes of the class and of all its superclasses, the class's
    /// own first.
    ///
    /// Each attribute appears once, by its preferred name when the schema
    /// defines it (so `rfc822Mailbox` is listed as `mail`), or as spelled
    /// otherwise. An unknown class has none.
    public func requiredAttributes(of objectClass: String) -> [String] {
        var listed = Set<DefinitionIndex.Key>()
        return attributes(of: objectClass, \.must, skipping: &listed)
    }

    /// The attributes an entry of `objectClass` may hold but need not: the
    /// `MAY` attributes of the class and of all its superclasses, the
    /// class's own first, leaving out those it requires.
    ///
    /// Each attribute appears once, named as in ``requiredAttributes(of:)``.
    /// An unknown class has none.
    public func allowedAttributes(of objectClass: String) -> [String] {
        var listed = Set<DefinitionIndex.Key>()
        _ = attributes(of: objectClass, \.must, skipping: &listed)
        return attributes(of: objectClass, \.may, skipping: &listed)
    }

    /// The classes `objectClass` and all its superclasses, each once, in
    /// depth-first order from `objectClass`. Unknown superclasses are left out.
    public func superclasses(of objectClass: String) -> [ObjectClassDescription] {
        guard let start = objectClassIndex[objectClass] else { return [] }
        var visited: Set<Int> = [start]
        var order: [ObjectClassDescription] = []
        var pending = [start]
        while let position = pending.popLast() {
            let current = objectClasses[position]
            order.append(current)
            for superior in current.superiors.reversed() {
                if let next = objectClassIndex[superior], visited.insert(next).inserted {
                    pending.append(next)
                }
            }
        }
        return order
    }

    /// The attributes `list` gives for `objectClass` and its superclasses,
    /// by preferred name, leaving out and then adding to `listed`.
    private func attributes(of objectClass: String, _ list: (ObjectClassDescription) -> [String],
                            skipping listed: inout Set<DefinitionIndex.Key>) -> [String] {
        var names: [String] = []
        for definition in superclasses(of: objectClass) {
            for attribute in list(definition) {
                let name = attributeType(named: attribute)?.name ?? attribute
                if listed.insert(DefinitionIndex.Key(name)).inserted {
                    names.append(name)
                }
            }
        }
        return names
    }
}

/// A definition that can be looked up by OID and by name.
protocol IndexedDefinition {
    /// The definition's OID.
    var oid: String { get }
    /// The definition's names, which may be empty.
    var names: [String] { get }
}

extension AttributeTypeDescription: IndexedDefinition {}
extension ObjectClassDescription: IndexedDefinition {}
extension MatchingRuleDescription: IndexedDefinition {}
extension SyntaxDescription: IndexedDefinition {
    /// Syntaxes have no names.
    var names: [String] { [] }
}

/// Positions of definitions by OID and by each name, compared ignoring ASCII case.
struct DefinitionIndex: Sendable {
    /// A name or OID with ASCII capitals made lowercase, so that keys that
    /// differ only in case are equal.
    struct Key: Hashable, Sendable {
        let folded: String

        init(_ text: String) {
            let isFolded = text.utf8.allSatisfy { !($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) }
            folded = isFolded ? text : String(decoding: text.utf8.map {
                $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0
            }, as: UTF8.self)
        }
    }

    private var positions: [Key: Int] = [:]

    /// Indexes `definitions` by OID and names; the first definition with a
    /// given OID or name keeps it.
    init(_ definitions: [some IndexedDefinition]) {
        positions.reserveCapacity(definitions.count * 2)
        // Later definitions are indexed first, so earlier ones overwrite them.
        for (position, definition) in definitions.enumerated().reversed() {
            positions[Key(definition.oid)] = position
            for name in definition.names {
                positions[Key(name)] = position
            }
        }
    }

    /// The position of the definition with the name or OID `name`.
    subscript(name: String) -> Int? {
        positions[Key(name)]
    }
}
