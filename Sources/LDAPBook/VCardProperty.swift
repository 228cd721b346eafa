/// One property of a vCard, a content line such as
/// `item1.TEL;TYPE=work,voice:+1 555 0100`.
///
/// ``value`` is the value as the file has it, still escaped: what it means
/// depends on the property (text, a list, structured components, a URI,
/// base64 data), so ``textValue``, ``textValues``, ``components`` and
/// ``binaryValue`` read it the way the property calls for.
///
/// Two properties are equal when their group (ignoring case), name,
/// parameters and value are; ``line`` is where one was read, not part of
/// what it says.
public struct VCardProperty: Sendable {
    /// The group before the name (`item1` in `item1.EMAIL`), which ties
    /// properties together, such as an address and its label.
    public var group: String?
    /// The property's name, in uppercase: `FN`, `EMAIL`, `X-LDAPBOOK-FIELD`.
    public var name: String {
        get { uppercasedName }
        set { uppercasedName = newValue.uppercased() }
    }
    /// The parameters, in the order they were written.
    public var parameters: [VCardParameter]
    /// The value as written in the file: escaped, not unfolded into parts.
    public var value: String
    /// The 1-based line of the file on which the property begins, for
    /// properties that were read from a file.
    public var line: Int?

    private var uppercasedName: String

    /// Creates a property from a value that is already in its written form
    /// (escaped where the value type calls for it).
    public init(group: String? = nil, name: String, parameters: [VCardParameter] = [], value: String,
                line: Int? = nil) {
        self.group = group
        self.uppercasedName = name.uppercased()
        self.parameters = parameters
        self.value = value
        self.line = line
    }

    /// Creates a property with a text value, escaping `\`, `,`, `;` and
    /// line breaks.
    public init(group: String? = nil, name: String, parameters: [VCardParameter] = [], text: String) {
        self.init(group: group, name: name, parameters: parameters, value: VCardText.escape(text))
    }

    /// Creates a property whose value is a comma-separated list of texts,
    /// such as `NICKNAME` or `CATEGORIES`.
    public init(group: String? = nil, name: String, parameters: [VCardParameter] = [], textList: [String]) {
        self.init(group: group, name: name, parameters: parameters,
                  value: textList.map(VCardText.escape).joined(separator: ","))
    }

    /// Creates a property with a structured value such as `N` or `ADR`:
    /// components separated by `;`, each a comma-separated list of texts.
    public init(group: String? = nil, name: String, parameters: [VCardParameter] = [], components: [[String]]) {
        self.init(group: group, name: name, parameters: parameters,
                  value: components.map { $0.map(VCardText.escape).joined(separator: ",") }.joined(separator: ";"))
    }
}

extension VCardProperty: Hashable {
    /// Whether the properties have the same group (ignoring case), name,
    /// parameters and value; where they were read does not count.
    public static func == (lhs: VCardProperty, rhs: VCardProperty) -> Bool {
        lhs.uppercasedName == rhs.uppercasedName && lhs.group?.lowercased() == rhs.group?.lowercased()
            && lhs.parameters == rhs.parameters && lhs.value == rhs.value
    }

    /// Hashes what ``==(_:_:)`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(uppercasedName)
        hasher.combine(group?.lowercased())
        hasher.combine(parameters)
        hasher.combine(value)
    }
}
