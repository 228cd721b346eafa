/// Reads LDIF (RFC 2849): content records, as `ldapsearch` writes them, and
/// change records, as `ldapmodify` reads them.
///
/// ```swift
/// let records = try LDIFReader(text: ldif).records()
/// ```
///
/// The reader accepts LF and CRLF line endings, folded lines, comments
/// (with their continuation lines), an optional `version: 1` line at the
/// start, one or more empty lines between records and a missing newline at
/// the end. Values are taken as bytes: `attr: value` as written (after the
/// spaces that follow the colon), `attr:: base64` decoded. Values of the
/// same attribute description are gathered into one ``LDAPAttribute``.
///
/// An `attr:< url` value is read from a file only when the reader is created
/// with `allowFileURLs: true`, and only from a `file://` URL with an absolute
/// path: an LDIF file from elsewhere could otherwise name a file with secrets
/// and have it copied into the directory (RFC 2849, Security Considerations).
public struct LDIFReader: Sendable {
    /// The LDIF text.
    public var bytes: [UInt8]

    /// Whether `attr:< file:///path` values are read from the files they name.
    public var allowsFileURLs: Bool

    /// A reader of the LDIF in `bytes`.
    ///
    /// - Parameter allowFileURLs: Whether `attr:< file:///path` values are
    ///   read from their files; when `false`, such a value is an error.
    public init(bytes: [UInt8], allowFileURLs: Bool = false) {
        self.bytes = bytes
        self.allowsFileURLs = allowFileURLs
    }

    /// A reader of the LDIF in `text`.
    ///
    /// - Parameter allowFileURLs: Whether `attr:< file:///path` values are
    ///   read from their files; when `false`, such a value is an error.
    public init(text: String, allowFileURLs: Bool = false) {
        self.init(bytes: Array(text.utf8), allowFileURLs: allowFileURLs)
    }

    /// All the records, in order.
    ///
    /// - Throws: ``LDIFError`` for the first malformed record; use
    ///   ``stream()`` to skip bad records and read the others.
    public func records() throws(LDIFError) -> [LDIFRecord] {
        var stream = stream()
        var records: [LDIFRecord] = []
        while let record = try stream.next() {
            records.append(record)
        }
        return records
    }

    /// A stream of the records, to read them one at a time.
    public func stream() -> LDIFStream {
        LDIFStream(source: LDIFByteSource(bytes: bytes), allowsFileURLs: allowsFileURLs)
    }

    /// A stream of the records in the file at `path`, which is read in
    /// chunks as the records are: a file of any size is read in bounded memory.
    ///
    /// - Parameter allowFileURLs: Whether `attr:< file:///path` values are
    ///   read from their files; when `false`, such a value is an error.
    /// - Throws: ``LDIFError`` with ``LDIFError/line`` 0 when the file cannot be opened.
    public static func stream(contentsOf path: String, allowFileURLs: Bool = false) throws(LDIFError) -> LDIFStream {
        LDIFStream(source: try LDIFByteSource(path: path), allowsFileURLs: allowFileURLs)
    }
}
