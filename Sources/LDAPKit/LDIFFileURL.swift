/// The `file://` URLs that `attr:< url` lines may name (RFC 2849, RFC 8089):
/// an absolute path with an empty host or `localhost`, percent-escapes decoded.
enum LDIFFileURL {
    /// The path that `url` names, or `nil` when it is not a `file://` URL
    /// with an absolute local path, or its path is not valid UTF-8 or contains NUL.
    static func path(of url: ArraySlice<UInt8>) -> String? {
        let scheme = Array("file://".utf8)
        guard url.count > scheme.count,
              zip(url.prefix(scheme.count), scheme).allSatisfy({ $0 | 0x20 == $1 | 0x20 })
        else { return nil }
        var rest = url.dropFirst(scheme.count)
        let localhost = Array("localhost".utf8)
        if rest.starts(with: localhost) {
            rest = rest.dropFirst(localhost.count)
        }
        guard rest.first == UInt8(ascii: "/"), let path = percentDecoded(rest), !path.contains(0) else {
            return nil
        }
        return String(validating: path, as: UTF8.self)
    }

    /// `bytes` with each `%` and two hexadecimal digits replaced by the byte
    /// they write, or `nil` when a `%` is not followed by two digits.
    private static func percentDecoded(_ bytes: ArraySlice<UInt8>) -> [UInt8]? {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            guard bytes[index] == UInt8(ascii: "%") else {
                decoded.append(bytes[index])
                index += 1
                continue
            }
            guard index + 2 < bytes.endIndex,
                  let high = StringRepresentation.hexValue(bytes[index + 1]),
                  let low = StringRepresentation.hexValue(bytes[index + 2])
            else { return nil }
            decoded.append(high << 4 | low)
            index += 3
        }
        return decoded
    }
}
