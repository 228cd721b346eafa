/// A line of the form `name: value`, `name:: base64` or `name:< url`
/// (RFC 2849 `attrval-spec`, and the `dn:`, `changetype:` and similar lines
/// that share its shape).
struct LDIFAttributeLine {
    /// How the value is written after the name.
    enum ValueSpec {
        /// `name: value`: the bytes as they are.
        case text(ArraySlice<UInt8>)
        /// `name:: base64`: the base64 text.
        case base64(ArraySlice<UInt8>)
        /// `name:< url`: the URL of the value.
        case url(ArraySlice<UInt8>)
    }

    /// The attribute description or keyword before the colon, as written.
    var name: String
    /// The value as written.
    var spec: ValueSpec
    /// The number of the line, for errors.
    var number: Int

    /// Creates a line from its parts.
    init(name: String, spec: ValueSpec, number: Int) {
        self.name = name
        self.spec = spec
        self.number = number
    }

    /// Splits `line` into its name and value.
    ///
    /// - Throws: ``LDIFError`` when the line has no colon or the name is not
    ///   an attribute description (RFC 4512: a name or OID and `;options`).
    init(_ line: LDIFLine) throws(LDIFError) {
        let bytes = line.bytes
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else {
            throw LDIFError(line: line.number, message: "expected 'name: value', found \(LDIFError.excerpt(bytes))")
        }
        let name = String(decoding: bytes[..<colon], as: UTF8.self)
        guard StringRepresentation.isAttributeDescription(name) else {
            throw LDIFError(line: line.number, message: "invalid attribute description \(LDIFError.excerpt(bytes[..<colon]))")
        }
        self.name = name
        self.spec = Self.valueSpec(bytes[(colon + 1)...])
        self.number = line.number
    }

    /// The value spec of the bytes after the colon: the marker (`:` or
    /// `<`), if any, then the value after any spaces (RFC 2849 `FILL`).
    static func valueSpec(_ bytes: ArraySlice<UInt8>) -> ValueSpec {
        switch bytes.first {
        case UInt8(ascii: ":"): .base64(trimmed(bytes.dropFirst(), trailing: true))
        case UInt8(ascii: "<"): .url(trimmed(bytes.dropFirst(), trailing: true))
        default: .text(trimmed(bytes, trailing: false))
        }
    }

    /// `bytes` without leading spaces, and without trailing ones when `trailing` is set.
    private static func trimmed(_ bytes: ArraySlice<UInt8>, trailing: Bool) -> ArraySlice<UInt8> {
        let space = UInt8(ascii: " ")
        var result = bytes.drop { $0 == space }
        if trailing {
            while result.last == space { result = result.dropLast() }
        }
        return result
    }

    /// Whether the name is `keyword`, compared ignoring ASCII case.
    func isNamed(_ keyword: String) -> Bool {
        name.caseInsensitiveEquals(keyword)
    }

    /// The value's bytes: as written, decoded from base64, or read from a file URL.
    ///
    /// - Parameter allowsFileURLs: Whether `file://` URLs may be read; when
    ///   not, a URL value is an error.
    /// - Throws: ``LDIFError`` for invalid base64, a URL that may not or
    ///   cannot be read, or a file that cannot be read.
    func value(allowsFileURLs: Bool) throws(LDIFError) -> [UInt8] {
        switch spec {
        case .text(let bytes):
            return Array(bytes)
        case .base64(let text):
            guard let decoded = Base64.decode(text) else {
                throw LDIFError(line: number, message: "invalid base64 value for \(name)")
            }
            return decoded
        case .url(let url):
            guard allowsFileURLs else {
                throw LDIFError(
                    line: number,
                    message: "the value of \(name) is given by URL, and file URLs are not read unless allowed"
                )
            }
            guard let path = LDIFFileURL.path(of: url) else {
                throw LDIFError(
                    line: number,
                    message: "unsupported URL \(LDIFError.excerpt(url)) for \(name): "
                        + "only file:// URLs with an absolute path are read"
                )
            }
            return try LDIFByteSource.contents(ofFile: path, line: number)
        }
    }

    /// The value as UTF-8 text, for lines whose value is a name or keyword
    /// (a DN, a changetype, an attribute description), which RFC 2849 lets
    /// be written plainly or in base64 but not by URL.
    ///
    /// - Throws: ``LDIFError`` for a URL, invalid base64, or a value that is
    ///   not valid UTF-8.
    func text() throws(LDIFError) -> String {
        if case .url = spec {
            throw LDIFError(line: number, message: "the value of \(name) cannot be given by URL")
        }
        guard let text = String(validating: try value(allowsFileURLs: false), as: UTF8.self) else {
            throw LDIFError(line: number, message: "the value of \(name) is not valid UTF-8")
        }
        return text
    }
}
