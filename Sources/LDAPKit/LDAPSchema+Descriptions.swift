/// An attribute type definition from a subschema entry's `attributeTypes`
/// (RFC 4512 section 4.1.2), such as
/// `( 2.5.4.42 NAME ( 'givenName' 'gn' ) SUP name )`.
///
/// The syntax and matching rules given here are the type's own; a subtype
/// that leaves them out inherits them from its ``superior``, which
/// ``LDAPSchema/resolvedSyntax(of:)`` and its siblings follow.
public struct AttributeTypeDescription: Sendable, Hashable {
    /// Who an attribute is for, and how servers treat it (RFC 4512 section 4.1.2).
    public enum Usage: String, Sendable, Hashable, CaseIterable {
        /// An ordinary attribute that users read and write.
        case userApplications
        /// An operational attribute the directory keeps, such as `modifyTimestamp`.
        case directoryOperation
        /// An operational attribute shared by the servers of a distributed directory.
        case distributedOperation
        /// An operational attribute each server keeps for itself, such as `namingContexts`.
        case dSAOperation
    }

    /// The numeric object identifier, such as `2.5.4.42`.
    public var oid: String
    /// The names (descriptors), the preferred one first; may be empty.
    public var names: [String]
    /// The human-readable description (`DESC`).
    public var description: String?
    /// Whether the type is no longer in use (`OBSOLETE`).
    public var isObsolete: Bool
    /// The name or OID of the supertype (`SUP`).
    public var superior: String?
    /// The name or OID of the equality matching rule (`EQUALITY`).
    public var equality: String?
    /// The name or OID of the ordering matching rule (`ORDERING`).
    public var ordering: String?
    /// The name or OID of the substrings matching rule (`SUBSTR`).
    public var substring: String?
    /// The numeric OID of the value syntax (`SYNTAX`), without its length bound.
    public var syntax: String?
    /// The suggested largest value, from the `{64}` after the syntax OID.
    public var syntaxLength: Int?
    /// Whether an entry may hold at most one value (`SINGLE-VALUE`).
    public var isSingleValued: Bool
    /// Whether the attribute is collective (`COLLECTIVE`, RFC 3671).
    public var isCollective: Bool
    /// Whether clients may change the values; `false` for `NO-USER-MODIFICATION`.
    public var isUserModifiable: Bool
    /// Who the attribute is for (`USAGE`); ``Usage/userApplications`` when not given.
    public var usage: Usage
    /// The `X-` extensions, such as `X-ORIGIN` or `X-ORDERED`, keyed by name as
    /// spelled in the definition, each with its values in order.
    public var extensions: [String: [String]]

    /// Creates an attribute type; every part but the OID is optional.
    public init(
        oid: String,
        names: [String] = [],
        description: String? = nil,
        isObsolete: Bool = false,
        superior: String? = nil,
        equality: String? = nil,
        ordering: String? = nil,
        substring: String? = nil,
        syntax: String? = nil,
        syntaxLength: Int? = nil,
        isSingleValued: Bool = false,
        isCollective: Bool = false,
        isUserModifiable: Bool = true,
        usage: Usage = .userApplications,
        extensions: [String: [String]] = [:]
    ) {
        self.oid = oid
        self.names = names
        self.description = description
        self.isObsolete = isObsolete
        self.superior = superior
        self.equality = equality
        self.ordering = ordering
        self.substring = substring
        self.syntax = syntax
        self.syntaxLength = syntaxLength
        self.isSingleValued = isSingleValued
        self.isCollective = isCollective
        self.isUserModifiable = isUserModifiable
        self.usage = usage
        self.extensions = extensions
    }

    /// The preferred name, or the OID when the type has no name.
    public var name: String { names.first ?? oid }

    /// Whether this is an operational attribute: one whose usage is not
    /// ``Usage/userApplications``, so searches return it only when asked.
    public var isOperational: Bool { usage != .userApplications }
}

/// An object class definition from a subschema entry's `objectClasses`
/// (RFC 4512 section 4.1.1), such as
/// `( 2.5.6.6 NAME 'person' SUP top STRUCTURAL MUST ( sn $ cn ) )`.
///
/// ``must`` and ``may`` list the class's own attributes; use
/// ``LDAPSchema/requiredAttributes(of:)`` and
/// ``LDAPSchema/allowedAttributes(of:)`` for those inherited as well.
public struct ObjectClassDescription: Sendable, Hashable {
    /// The kind of an object class (RFC 4512 section 2.4).
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A class only for other classes to derive from, such as `top`.
        case abstract = "ABSTRACT"
        /// A class that gives an entry its basic kind, such as `person`.
        case structural = "STRUCTURAL"
        /// A class that adds attributes to entries of any structural class.
        case auxiliary = "AUXILIARY"
    }

    /// The numeric object identifier, such as `2.5.6.6`.
    public var oid: String
    /// The names (descriptors), the preferred one first; may be empty.
    public var names: [String]
    /// The human-readable description (`DESC`).
    public var description: String?
    /// Whether the class is no longer in use (`OBSOLETE`).
    public var isObsolete: Bool
    /// The names or OIDs of the superclasses (`SUP`).
    public var superiors: [String]
    /// The kind of class; ``Kind/structural`` when not given.
    public var kind: Kind
    /// The names or OIDs of the attributes the class itself requires (`MUST`).
    public var must: [String]
    /// The names or OIDs of the attributes the class itself allows (`MAY`).
    public var may: [String]
    /// The `X-` extensions, such as `X-ORIGIN`, keyed by name as spelled in
    /// the definition, each with its values in order.
    public var extensions: [String: [String]]

    /// Creates an object class; every part but the OID is optional.
    public init(
        oid: String,
        names: [String] = [],
        description: String? = nil,
        isObsolete: Bool = false,
        superiors: [String] = [],
        kind: Kind = .structural,
        must: [String] = [],
        may: [String] = [],
        extensions: [String: [String]] = [:]
    ) {
        self.oid = oid
        self.names = names
        self.description = description
        self.isObsolete = isObsolete
        self.superiors = superiors
        self.kind = kind
        self.must = must
        self.may = may
        self.extensions = extensions
    }

    /// The preferred name, or the OID when the class has no name.
    public var name: String { names.first ?? oid }
}

/// A syntax definition from a subschema entry's `ldapSyntaxes` (RFC 4512
/// section 4.1.5), such as `( 1.3.6.1.4.1.1466.115.121.1.15 DESC 'Directory String' )`.
public struct SyntaxDescription: Sendable, Hashable {
    /// The numeric object identifier that attribute types name in `SYNTAX`.
    public var oid: String
    /// The human-readable description (`DESC`).
    public var description: String?
    /// The `X-` extensions, such as `X-NOT-HUMAN-READABLE`, keyed by name as
    /// spelled in the definition, each with its values in order.
    public var extensions: [String: [String]]

    /// Creates a syntax.
    public init(oid: String, description: String? = nil, extensions: [String: [String]] = [:]) {
        self.oid = oid
        self.description = description
        self.extensions = extensions
    }

    /// Whether values of this syntax are text people can read: `false` when
    /// the server marks the syntax `X-NOT-HUMAN-READABLE 'TRUE'` (as
    /// OpenLDAP does for certificates, JPEG photos and octet strings).
    public var isHumanReadable: Bool {
        !extensions.values(named: "X-NOT-HUMAN-READABLE").contains { $0.caseInsensitiveEquals("TRUE") }
    }
}

/// A matching rule definition from a subschema entry's `matchingRules`
/// (RFC 4512 section 4.1.3), such as
/// `( 2.5.13.2 NAME 'caseIgnoreMatch' SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 )`.
public struct MatchingRuleDescription: Sendable, Hashable {
    /// The numeric object identifier, such as `2.5.13.2`.
    public var oid: String
    /// The names (descriptors), the preferred one first; may be empty.
    public var names: [String]
    /// The human-readable description (`DESC`).
    public var description: String?
    /// Whether the rule is no longer in use (`OBSOLETE`).
    public var isObsolete: Bool
    /// The numeric OID of the syntax of the rule's assertion values (`SYNTAX`).
    public var syntax: String
    /// The `X-` extensions keyed by name as spelled in the definition, each
    /// with its values in order.
    public var extensions: [String: [String]]

    /// Creates a matching rule.
    public init(
        oid: String,
        names: [String] = [],
        description: String? = nil,
        isObsolete: Bool = false,
        syntax: String,
        extensions: [String: [String]] = [:]
    ) {
        self.oid = oid
        self.names = names
        self.description = description
        self.isObsolete = isObsolete
        self.syntax = syntax
        self.extensions = extensions
    }

    /// The preferred name, or the OID when the rule has no name.
    public var name: String { names.first ?? oid }
}

extension [String: [String]] {
    /// The values of the extension named `name`, compared ignoring ASCII
    /// case; empty when there is none.
    func values(named name: String) -> [String] {
        if let values = self[name] { return values }
        return first { $0.key.caseInsensitiveEquals(name) }?.value ?? []
    }
}
